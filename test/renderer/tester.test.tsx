// @vitest-environment jsdom
/**
 * The live tester over the desktop transport (a preload bridge that answers envelopes, as
 * electron/preload.ts does): it validates before running, never sends stale values, shows the
 * result and the card, and stops a run by its invocation ID.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Tester } from '../../renderer/src/features/tools/tester/Tester.js';
import { ToastProvider } from '../../renderer/src/components/Toasts.js';
import { ConfirmProvider } from '../../renderer/src/components/Dialog.js';
import type { Envelope } from '../../shared/errors.js';
import type { ToolView, InvokeResult } from '../../shared/types.js';

afterEach(() => {
  cleanup();
  delete window.toolwright;
});

if (!window.matchMedia) {
  // jsdom has no matchMedia; the card frame asks for the colour scheme.
  window.matchMedia = ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia;
}
if (!crypto.randomUUID) throw new Error('crypto.randomUUID missing');

const tool: ToolView = {
  schemaVersion: '1',
  toolID: '0190a000-0000-7000-8000-0000000000aa',
  bundleID: '0190a000-0000-7000-8000-0000000000bb',
  slug: 'greet',
  version: 'v1',
  displayName: 'Greet',
  description: '',
  type: 'function',
  isEnabled: true,
  isBuiltIn: false,
  tags: [],
  safety: 'readOnly',
  argSchema: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 2 }, times: { type: 'integer', default: 1, maximum: 3 } } },
  outputSchema: {},
  impl: { function: 'test.greet' },
  card: { enabled: true, title: 'Hello {{name}}', accentColor: '#4a90d4' },
  limits: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  modifiedAt: '2026-01-01T00:00:00.000Z',
  availability: { ok: true },
  metrics: { callCount: 0, errorCount: 0, lastCalledAt: null },
};

interface Bridge {
  invocations: Record<string, unknown>[];
  cancels: string[];
  release(result: Partial<InvokeResult>): void;
}

function installBridge(): Bridge {
  const bridge: Bridge = { invocations: [], cancels: [], release: () => undefined };
  window.toolwright = {
    onEvent: () => () => undefined,
    toolsHistory: async (): Promise<Envelope<unknown>> => ({ ok: true, data: { items: [] } }),
    toolsInvoke: (input: unknown) =>
      new Promise<Envelope<unknown>>((resolve) => {
        const i = input as Record<string, unknown>;
        bridge.invocations.push(i);
        bridge.release = (r) => resolve({ ok: true, data: { ok: true, invocationID: String(i['invocationID']), durationMs: 12, ...r } });
      }),
    toolsCancel: async (input: unknown): Promise<Envelope<unknown>> => {
      bridge.cancels.push(String((input as { invocationID: string }).invocationID));
      bridge.release({ ok: false, error: { code: 'CANCELLED', message: 'cancelled by the user' } });
      return { ok: true, data: { cancelled: true } };
    },
  };
  return bridge;
}

function renderTester() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <ToastProvider>
        <ConfirmProvider>
          <Tester tool={tool} />
        </ConfirmProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

describe('live tester', () => {
  it('does not run with invalid arguments and says why at the field', async () => {
    const bridge = installBridge();
    renderTester();
    fireEvent.change(document.getElementById('arg_name')!, { target: { value: 'A' } });
    await act(async () => fireEvent.click(screen.getByTestId('run')));
    expect(bridge.invocations).toEqual([]);
    expect(screen.getByText('must have at least 2 characters')).toBeTruthy();
  });

  it('sends the value typed just before Run, never an older one', async () => {
    const bridge = installBridge();
    renderTester();
    const name = document.getElementById('arg_name')!;
    fireEvent.change(name, { target: { value: 'Ada' } });
    fireEvent.change(name, { target: { value: 'Grace' } });
    // Run in the same tick as the last keystroke.
    await act(async () => {
      fireEvent.change(document.getElementById('arg_times')!, { target: { value: '2' } });
      fireEvent.click(screen.getByTestId('run'));
    });
    await waitFor(() => expect(bridge.invocations).toHaveLength(1));
    expect(bridge.invocations[0]).toMatchObject({ bundleID: tool.bundleID, slug: 'greet', version: 'v1', args: { name: 'Grace', times: 2 } });
    expect(String(bridge.invocations[0]!['invocationID'])).toMatch(/^[A-Za-z0-9_-]+$/);
    expect('confirm' in bridge.invocations[0]!).toBe(false);
    await act(async () => bridge.release({ value: { greeting: 'Hello Grace' }, card: { html: '<p>Hi <b>Grace</b></p><script>x()</script>' } }));
    const panel = screen.getByTestId('result-panel');
    expect(panel.textContent).toContain('ok');
    expect(panel.textContent).toContain('12 ms');
    expect(screen.getByTestId('json-tree').textContent).toContain('Hello Grace');
    const frame = screen.getByTestId('result-card-iframe') as HTMLIFrameElement;
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(frame.getAttribute('srcdoc')).toContain('<b>Grace</b>');
    expect(frame.getAttribute('srcdoc')).not.toContain('x()');
    expect(frame.getAttribute('srcdoc')!.match(/<script/g)).toHaveLength(1); // the measuring script only
    expect(screen.getByTestId('result-card').textContent).toContain('Hello Grace');
  });

  it('says why a card lost its html, and shows the value in its place', async () => {
    const bridge = installBridge();
    renderTester();
    fireEvent.change(document.getElementById('arg_name')!, { target: { value: 'Deep' } });
    await act(async () => fireEvent.click(screen.getByTestId('run')));
    await waitFor(() => expect(bridge.invocations).toHaveLength(1));
    const note = "the card's html was left out: it nests deeper than 512 elements, which cannot be sanitised safely";
    await act(async () => bridge.release({ value: { greeting: 'deep' }, card: { text: '{"greeting": "deep"}', note } }));
    expect(screen.getByTestId('card-note').textContent).toBe(
      "The card's html was left out: it nests deeper than 512 elements, which cannot be sanitised safely",
    );
    expect((screen.getByTestId('result-card-iframe') as HTMLIFrameElement).getAttribute('srcdoc')).toContain('greeting');
  });

  it('stops a running invocation by its ID', async () => {
    const bridge = installBridge();
    renderTester();
    fireEvent.change(document.getElementById('arg_name')!, { target: { value: 'Linus' } });
    await act(async () => fireEvent.click(screen.getByTestId('run')));
    await waitFor(() => expect(bridge.invocations).toHaveLength(1));
    await act(async () => fireEvent.click(screen.getByTestId('stop')));
    expect(bridge.cancels).toEqual([String(bridge.invocations[0]!['invocationID'])]);
    await waitFor(() => expect(screen.getByTestId('result-panel').textContent).toContain('cancelled'));
    expect((screen.getByTestId('run') as HTMLButtonElement).disabled).toBe(false);
  });
});
