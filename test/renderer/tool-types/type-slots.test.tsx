// @vitest-environment jsdom
/**
 * The renderer half of the proof that a tool type bringing a service is added through its own
 * folders and the registries (the core half: test/electron/core/tool-types/proof/): the throw-away
 * `tally` type's slots (test/fixtures/tool-types/tally/renderer.tsx) are registered by one line in
 * renderer/src/tool-types/slot-registry.ts, added here as the test runs, and the generic tool row
 * and slot hosts show them beside the upstream type's without naming either type.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { ToolRow } from '../../../renderer/src/features/tools/list/ToolRow.js';
import { ownerOf, rowStatusOf, slotsOf } from '../../../renderer/src/tool-types/slot-registry.js';
import { upstreamSlots } from '../../../renderer/src/tool-types/upstream/slots.js';
import { tallySlots } from '../../fixtures/tool-types/tally/renderer.js';
import type { BundleView, ToolView } from '../../../shared/types.js';
import { DEFAULT_CONFIG } from '../../../shared/schemas.js';

// renderer/src/tool-types/slot-registry.ts: TYPE_SLOTS
vi.mock('../../../renderer/src/tool-types/slot-registry.js', async (original) => {
  const m = await original<typeof import('../../../renderer/src/tool-types/slot-registry.js')>();
  const { tallySlots } = await import('../../fixtures/tool-types/tally/renderer.js');
  Object.assign(m.TYPE_SLOTS, { tally: tallySlots });
  return m;
});

afterEach(cleanup);

const tool = (type: string, slug: string): ToolView =>
  ({
    toolID: `id-${slug}`,
    bundleID: 'b',
    slug,
    version: 'v1',
    displayName: slug,
    description: '',
    type,
    impl: {},
    isEnabled: true,
    isBuiltIn: false,
    safety: 'readOnly',
    tags: [],
    argSchema: {},
    outputSchema: {},
    availability: { ok: true },
    metrics: { callCount: 0, errorCount: 0 },
    createdAt: '2026-01-01T00:00:00Z',
    modifiedAt: '2026-01-01T00:00:00Z',
  }) as unknown as ToolView;
const bundle = (description: string, source?: unknown): BundleView =>
  ({ bundleID: 'b', slug: 'b', description, ...(source ? { source } : {}) }) as unknown as BundleView;
const row = (t: ToolView) => <ToolRow tool={t} index={0} active={false} onOpen={() => undefined} onToggle={() => undefined} bundleOff={false} />;

describe("a tool type's renderer slots, registered by one line", () => {
  it("the tool row shows the type's own word for its tools, and the generic reading for others", () => {
    render(row(tool('tally', 'count')));
    expect(screen.getByText('counting').getAttribute('title')).toBe('a tally tool');
    cleanup();
    render(row(tool('http', 'weather')));
    expect(screen.getByText('available')).toBeTruthy();
    expect(rowStatusOf(tool('http', 'weather'))).toBeUndefined();
  });

  it('a bundle the type owns gets its panel; an upstream bundle keeps the upstream panel; a plain bundle none', () => {
    expect(ownerOf(bundle('tally: counts things'))).toBe(tallySlots);
    expect(ownerOf(bundle('', { kind: 'mcp', transport: 'stdio', command: 'x' }))).toBe(upstreamSlots);
    expect(ownerOf(bundle('my own tools'))).toBeUndefined();
    const Panel = ownerOf(bundle('tally: counts things'))!.BundlePanel!;
    render(<Panel bundle={bundle('tally: counts things')} />);
    expect(screen.getByTestId('tally-panel').textContent).toBe('Tally of b');
  });

  it("Settings' slot host lists the type's section after the upstream type's", () => {
    expect(slotsOf('SettingsSection').map((s) => s.key)).toEqual(['mcp', 'tally']);
    const { Slot } = slotsOf('SettingsSection')[1]!;
    render(<Slot config={DEFAULT_CONFIG} patch={() => undefined} />);
    expect(screen.getByTestId('tally-settings').textContent).toContain('Tally settings');
  });
});
