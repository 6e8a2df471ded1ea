/**
 * The proof that a tool type bringing a service is added by writing its own folders and one line
 * in each registry (docs/architecture.md, "How to add… a tool type that brings a service"): the
 * throw-away `tally` type (test/fixtures/tool-types/tally/) keeps a count in each bundle's
 * `tally.json`. This test adds its registry lines as it runs — the vi.mock factories below, each
 * the line a real type writes — and drives a real core and REST host, so nothing of it ships, and
 * no generic module knows it: if a generic module had to be edited for a type's service, operation,
 * watched file or store hook to work, one of these checks fails.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { writeFileAtomic } from '../../../../../electron/core/fs/atomic.js';
import { startHost, type TestHost } from '../../../../helpers/host.js';
import { observed } from '../../../../fixtures/tool-types/tally/core.js';
import { TALLY_FILE } from '../../../../fixtures/tool-types/tally/impl.js';

// shared/tool-types/constants.ts: TOOL_TYPE_NAMES
vi.mock('../../../../../shared/tool-types/constants.js', async (original) => {
  const m = await original<typeof import('../../../../../shared/tool-types/constants.js')>();
  return { ...m, TOOL_TYPE_NAMES: [...m.TOOL_TYPE_NAMES, 'tally'] };
});
// shared/tool-types/catalog.ts: IMPL_SCHEMAS
vi.mock('../../../../../shared/tool-types/catalog.js', async (original) => {
  const m = await original<typeof import('../../../../../shared/tool-types/catalog.js')>();
  const { TallyImpl } = await import('../../../../fixtures/tool-types/tally/impl.js');
  Object.assign(m.IMPL_SCHEMAS, { tally: TallyImpl });
  return m;
});
// shared/tool-types/default-safety.ts: DEFAULT_SAFETY
vi.mock('../../../../../shared/tool-types/default-safety.js', async (original) => {
  const m = await original<typeof import('../../../../../shared/tool-types/default-safety.js')>();
  Object.assign(m.DEFAULT_SAFETY, { tally: () => 'sideEffecting' });
  return m;
});
// shared/operations.ts: the type's domain among TypeDomains
vi.mock('../../../../../shared/operations.js', async (original) => {
  const m = await original<typeof import('../../../../../shared/operations.js')>();
  const { tallyOperations } = await import('../../../../fixtures/tool-types/tally/shared.js');
  Object.assign(m.operations, tallyOperations);
  return m;
});
// shared/rest.ts: REST_ROUTES
vi.mock('../../../../../shared/rest.js', async (original) => {
  const m = await original<typeof import('../../../../../shared/rest.js')>();
  const { TALLY_ROUTES } = await import('../../../../fixtures/tool-types/tally/shared.js');
  Object.assign(m.REST_ROUTES, TALLY_ROUTES);
  return m;
});
// electron/core/tool-types/registry.ts: TOOL_TYPE_MODULES
vi.mock('../../../../../electron/core/tool-types/registry.js', async (original) => {
  const m = await original<typeof import('../../../../../electron/core/tool-types/registry.js')>();
  const { tallyType } = await import('../../../../fixtures/tool-types/tally/core.js');
  Object.assign(m.TOOL_TYPE_MODULES, { tally: tallyType });
  return m;
});

let h: TestHost;
let closed = false;
let bundleID: string;
const tool = (slug: string) => `/tools/bundles/${bundleID}/tools/${slug}/version/v1`;

beforeAll(async () => {
  h = await startHost({ watch: true });
  bundleID = uuidv7();
  const made = await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'counted', displayName: 'Counted', isEnabled: true, description: '' });
  expect(made.status, JSON.stringify(made.body)).toBeLessThan(300);
});
afterAll(async () => {
  if (!closed) await h?.close();
});

describe('a tool type that brings a service, added through its folders and the registries', () => {
  it('its tools are saved and checked as any type is: its impl schema refuses a bad impl', async () => {
    const bad = await h.api('PUT', tool('bad'), { type: 'tally', displayName: 'Bad', description: 'Counts', impl: { step: 0 }, argSchema: { type: 'object' } });
    expect(bad.status).toBe(400);
    const ok = await h.api('PUT', tool('count'), {
      type: 'tally',
      displayName: 'Count',
      description: 'Counts',
      impl: { step: 2 },
      argSchema: { type: 'object' },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toMatchObject({ type: 'tally', safety: 'sideEffecting' });
  });

  it("the store asks the type's hook before it adds a tool: a second tally tool in the bundle is refused with the type's reason", async () => {
    const second = await h.api('PUT', tool('again'), {
      type: 'tally',
      displayName: 'Again',
      description: 'Counts',
      impl: { step: 1 },
      argSchema: { type: 'object' },
    });
    expect(second.status).toBe(400);
    expect(second.body.error.message).toBe('bundle counted already has its tally tool; a bundle keeps one tally');
  });

  it('its runner is built with its service, and its own operation answers over REST through the dispatcher', async () => {
    for (const expected of [2, 4]) {
      const run = await h.api('POST', `${tool('count')}/invoke`, { args: {} });
      expect(run.body, JSON.stringify(run.body)).toMatchObject({ ok: true, value: expected });
    }
    const tally = await h.api('GET', `/tools/bundles/${bundleID}/tally`);
    expect(tally.status, JSON.stringify(tally.body)).toBe(200);
    expect(tally.body).toEqual({ bundleID, count: 4 });
    // The contract checks its input as any operation's.
    expect((await h.api('GET', '/tools/bundles/not-a-uuid/tally')).status).toBe(400);
  });

  it('the file it keeps in the bundle folder is watched: written by another process, the service hears of it', async () => {
    // As another Toolwright process writes it: whole or not at all (a torn write would be read half-way).
    await writeFileAtomic(join(h.dataDir, 'bundles', bundleID, TALLY_FILE), JSON.stringify({ count: 40 }));
    await expect.poll(async () => (await h.api('GET', `/tools/bundles/${bundleID}/tally`)).body.count).toBe(40);
    expect(observed.fileChanges).toContain(bundleID);
  });

  it('what the service started is closed with the core', async () => {
    const before = observed.closed;
    closed = true;
    await h.close();
    expect(observed.closed).toBe(before + 1);
  });
});
