// @vitest-environment jsdom
/**
 * The renderer's client: the IPC transport's envelope handling, the token hand-over from the
 * URL fragment, the server-sent-event parser, and the event → query invalidation map.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { adoptTokenFromUrl, ApiCallError, call, readEventStream, transportKind } from '../../renderer/src/api/client.js';
import { createInvalidator, keysForEvent } from '../../renderer/src/api/events.js';
import { OP_NAMES, opFunctionName, type StoreEvent } from '../../shared/operations.js';
import type { Envelope } from '../../shared/errors.js';

afterEach(() => {
  delete window.toolwright;
  sessionStorage.clear();
});

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(enc.encode(c));
      controller.close();
    },
  });
}

describe('client', () => {
  it('reaches, for every operation, the preload function that shared/op-names.ts names', async () => {
    const reached: string[] = [];
    const bridge: Record<string, unknown> = { onEvent: () => () => undefined };
    for (const name of OP_NAMES) {
      bridge[opFunctionName(name)] = async (): Promise<Envelope<unknown>> => {
        reached.push(name);
        return { ok: true, data: {} };
      };
    }
    window.toolwright = bridge as NonNullable<typeof window.toolwright>;
    for (const name of OP_NAMES) await call(name, {} as never);
    expect(reached).toEqual(OP_NAMES);
    expect(opFunctionName('tools.openaiFunctions')).toBe('toolsOpenaiFunctions');
  });

  it('uses IPC when the preload bridge exists and unwraps envelopes', async () => {
    const seen: unknown[] = [];
    window.toolwright = {
      onEvent: () => () => undefined,
      bundlesGet: async (input: unknown): Promise<Envelope<unknown>> => {
        seen.push(input);
        return { ok: true, data: { bundleID: 'b', slug: 'x' } };
      },
      toolsPut: async (): Promise<Envelope<unknown>> => ({
        ok: false,
        error: { code: 'INVALID_INPUT', message: 'slug: bad', details: { issues: [{ field: 'slug', message: 'bad' }] } },
      }),
    };
    expect(transportKind()).toBe('ipc');
    await expect(call('bundles.get', { bundleID: '0190a000-0000-7000-8000-000000000001' })).resolves.toEqual({ bundleID: 'b', slug: 'x' });
    expect(seen).toEqual([{ bundleID: '0190a000-0000-7000-8000-000000000001' }]);
    const err = await call('tools.put', { bundleID: 'b', slug: 's', version: 'v', tool: { type: 'http', impl: {} } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiCallError);
    expect((err as ApiCallError).code).toBe('INVALID_INPUT');
    expect((err as ApiCallError).issues).toEqual([{ field: 'slug', message: 'bad' }]);
  });

  it('says which bridge function is missing instead of crashing', async () => {
    window.toolwright = { onEvent: () => () => undefined };
    const err = await call('config.get', {}).catch((e: unknown) => e);
    expect((err as ApiCallError).message).toContain('config.get');
  });

  it('takes the token from #token=… into sessionStorage and strips it from the address bar', () => {
    window.history.replaceState(null, '', '/index.html?x=1#token=s3cr%2Bt');
    adoptTokenFromUrl();
    expect(sessionStorage.getItem('toolwright.token')).toBe('s3cr+t');
    expect(window.location.hash).toBe('');
    expect(window.location.pathname + window.location.search).toBe('/index.html?x=1');
  });

  it('parses server-sent events split across chunks, with CRLF, comments and multi-line data', async () => {
    const got: string[] = [];
    await readEventStream(
      streamOf([
        ': keep-alive\n\n',
        'data: {"type":"config',
        '.changed"}\n\n',
        'data: {"type":\r\ndata: "secrets.changed"}\r\n\r\n',
        'event: x\ndata: {"type":"problems.changed"}\n',
        '\n',
      ]),
      (d) => got.push(d),
    );
    expect(got.map((d) => JSON.parse(d))).toEqual([{ type: 'config.changed' }, { type: 'secrets.changed' }, { type: 'problems.changed' }]);
  });
});

describe('live updates', () => {
  it('maps each store event to the queries it makes stale', () => {
    const k = (e: StoreEvent) => keysForEvent(e).map((x) => JSON.stringify(x));
    expect(k({ type: 'bundle.changed', bundleID: 'b' })).toEqual(expect.arrayContaining(['["bundles"]', '["tools"]']));
    expect(k({ type: 'tool.removed', bundleID: 'b', toolID: 't' })).toEqual(expect.arrayContaining(['["tools"]', '["search"]']));
    expect(k({ type: 'secrets.changed' })).toEqual(['["secrets"]', '["tools"]']);
    expect(k({ type: 'config.changed' })).toContain('["config"]');
    expect(k({ type: 'problems.changed' })).toEqual(['["problems"]']);
  });

  it('coalesces a burst of events into one invalidation per query', async () => {
    vi.useFakeTimers();
    try {
      const qc = new QueryClient();
      const spy = vi.spyOn(qc, 'invalidateQueries');
      const onEvent = createInvalidator(qc);
      for (let i = 0; i < 500; i++) onEvent({ type: 'tool.changed', bundleID: 'b', toolID: String(i) });
      expect(spy).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(200);
      const calls = spy.mock.calls.map((c) => JSON.stringify(c[0]?.queryKey));
      expect(calls.sort()).toEqual(['["bundles"]', '["search"]', '["tools"]']);
    } finally {
      vi.useRealTimers();
    }
  });
});
