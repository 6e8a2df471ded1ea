// @vitest-environment jsdom
/**
 * The renderer's client: the IPC transport's envelope handling, the token hand-over from the
 * URL fragment, the server-sent-event parser, and the event → query invalidation map.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { call, invokeStream, readEventStream } from '../../renderer/src/api/client.js';
import { ApiCallError } from '../../renderer/src/api/errors.js';
import { adoptTokenFromUrl, keepTokenForTab, token, transportKind } from '../../renderer/src/api/session.js';
import { applyEvent } from '../../renderer/src/features/tools/tester/useLiveRun.js';
import type { InvokeStreamEvent } from '../../shared/types.js';
import { createInvalidator, createResync, keysForEvent } from '../../renderer/src/api/events.js';
import { FOREGROUND_QUIET_MS, noteForegroundInput } from '../../renderer/src/api/foreground.js';
import { keys } from '../../renderer/src/api/queries.js';
import { searchQueryOptions } from '../../renderer/src/features/search/Search.js';
import { AFTER_PAINT_MAX_HOLD_MS, AFTER_PAINT_QUIET_MS, afterPaintWhenQuiet, createFirstScreenGate } from '../../renderer/src/api/first-screen.js';
import { whenIdle } from '../../renderer/src/api/idle.js';
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

  it('takes the token from #token=… and strips it from the address bar; sessionStorage gets it later, for a reload', () => {
    window.history.replaceState(null, '', '/index.html?x=1#token=s3cr%2Bt');
    adoptTokenFromUrl();
    expect(token()).toBe('s3cr+t');
    expect(window.location.hash).toBe('');
    expect(window.location.pathname + window.location.search).toBe('/index.html?x=1');
    // Not before the first screen has settled (boot.ts): the first access is a synchronous round trip.
    expect(sessionStorage.getItem('toolwright.token')).toBeNull();
    keepTokenForTab();
    expect(sessionStorage.getItem('toolwright.token')).toBe('s3cr+t');
  });

  it("takes the link's token that first-requests.js already took out of the address, and keeps it at pagehide at the latest", () => {
    sessionStorage.clear();
    window.history.replaceState(null, '', '/#/tools');
    window.__twLinkToken = 'early+t';
    adoptTokenFromUrl();
    expect(window.__twLinkToken).toBeUndefined();
    expect(token()).toBe('early+t');
    expect(window.location.hash).toBe('#/tools');
    window.dispatchEvent(new Event('pagehide'));
    expect(sessionStorage.getItem('toolwright.token')).toBe('early+t');
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

describe('invokeStream', () => {
  const ref = { bundleID: '0190a000-0000-7000-8000-00000000c0e0', slug: 'calc', version: 'v1', invocationID: 'run-1' };

  it('over REST: asks for ?stream=true, hands chunk and step events over as they come, resolves with the result event', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(
          streamOf([
            'event: chunk\ndata: {"text":"one\\n"}\n\n',
            'event: step\ndata: {"step":{"id":"a","status":"running"}}\n\n: keep-alive\n\n',
            'event: chunk\ndata: {"text":"two"}\n\nevent: result\ndata: {"ok":true,"invocationID":"run-1","value":2,"durationMs":3}\n\n',
          ]),
          { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } },
        ),
    );
    vi.stubGlobal('fetch', fetchMock);
    try {
      const events: InvokeStreamEvent[] = [];
      const result = await invokeStream({ ...ref, args: { expression: '1+1' } }, (e) => events.push(e));
      expect(result).toEqual({ ok: true, invocationID: 'run-1', value: 2, durationMs: 3 });
      expect(events).toEqual([
        { type: 'chunk', text: 'one\n' },
        { type: 'step', step: { id: 'a', status: 'running' } },
        { type: 'chunk', text: 'two' },
      ]);
      const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
      expect(url).toBe(`/tools/bundles/${ref.bundleID}/tools/calc/version/v1/invoke?stream=true`);
      expect(JSON.parse(init.body as string)).toEqual({ args: { expression: '1+1' }, invocationID: 'run-1' });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('over REST: a refusal before the run throws the contract error, as call() does', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ error: { code: 'INVALID_ARGS', message: 'bad' } }), { status: 400 }));
    try {
      await expect(invokeStream({ ...ref, args: {} }, () => undefined)).rejects.toMatchObject({ code: 'INVALID_ARGS' });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('over IPC: the preload function that streams, with events for this run', async () => {
    const seen: unknown[] = [];
    window.toolwright = {
      onEvent: () => () => undefined,
      toolsInvokeStream: async (input: unknown, onEvent: (e: InvokeStreamEvent) => void) => {
        seen.push(input);
        onEvent({ type: 'chunk', text: 'hi' });
        return { ok: true, data: { ok: true, invocationID: 'run-1', durationMs: 1 } };
      },
    } as NonNullable<typeof window.toolwright>;
    const events: InvokeStreamEvent[] = [];
    expect(await invokeStream({ ...ref, args: {} }, (e) => events.push(e))).toMatchObject({ ok: true });
    expect(events).toEqual([{ type: 'chunk', text: 'hi' }]);
    expect(seen).toEqual([{ ...ref, args: {} }]);
  });

  it('keeps the live view: output joined, each step at its latest state in the order they started', () => {
    const step = (id: string, status: 'running' | 'ok') => ({ id, tool: { bundleID: 'b', slug: id, version: 'v1' }, status });
    const live = [
      { type: 'chunk', text: 'a' },
      { type: 'step', step: step('s1', 'running') },
      { type: 'step', step: step('s2', 'running') },
      { type: 'step', step: step('s1', 'ok') },
      { type: 'chunk', text: 'b' },
    ].reduce((acc, e) => applyEvent(acc, e as InvokeStreamEvent), { output: '', steps: [] as never[] } as Parameters<typeof applyEvent>[0]);
    expect(live.output).toBe('ab');
    expect(live.steps.map((s) => `${s.id}:${s.status}`)).toEqual(['s1:ok', 's2:running']);
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
      // A tool's schedules live in its tool.json, so the schedules list follows tool changes too;
      // so do the profiles' tool lists, counts and costs.
      expect(calls.sort()).toEqual(['["bundles"]', '["profiles"]', '["schedules"]', '["search"]', '["tools"]']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refetches a shown list about once a second while another process keeps writing, not once per coalescing window', async () => {
    vi.useFakeTimers();
    const qc = new QueryClient();
    const observer = new QueryObserver(qc, { queryKey: keys.toolList(null), queryFn: () => ++listFetches });
    let listFetches = 0;
    const unsubscribe = observer.subscribe(() => undefined);
    try {
      await vi.advanceTimersByTimeAsync(10);
      const onEvent = createInvalidator(qc);
      // The bench's writer: one tool.json rewritten every 20 ms, for 5 s.
      for (let t = 0; t < 5000; t += 20) {
        onEvent({ type: 'tool.changed', bundleID: 'b', toolID: `t${t % 100}` });
        await vi.advanceTimersByTimeAsync(20);
      }
      await vi.advanceTimersByTimeAsync(2000);
      // The first fetch, then at most one refetch a second (and the last change still arrives).
      expect(listFetches - 1).toBeGreaterThanOrEqual(4);
      expect(listFetches - 1).toBeLessThanOrEqual(6);
    } finally {
      unsubscribe();
      vi.useRealTimers();
    }
  });

  it('holds background refetches while the user types in search, then refetches once', async () => {
    vi.useFakeTimers();
    try {
      const qc = new QueryClient();
      const spy = vi.spyOn(qc, 'invalidateQueries');
      const onEvent = createInvalidator(qc);
      onEvent({ type: 'tool.changed', bundleID: 'b', toolID: 't' });
      // A keystroke every 100 ms for 1.5 s: its results are what the page must paint first.
      for (let i = 0; i < 15; i++) {
        noteForegroundInput();
        await vi.advanceTimersByTimeAsync(100);
      }
      expect(spy).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(FOREGROUND_QUIET_MS + 50);
      expect(spy.mock.calls.map((c) => JSON.stringify(c[0]?.queryKey))).toContain('["tools"]');
      expect(spy).toHaveBeenCalledTimes(5);
    } finally {
      vi.useRealTimers();
    }
  });

  it('aborts the search request of a query the next keystroke left behind', async () => {
    const signals = new Map<string, AbortSignal>();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (url: string, init: RequestInit) =>
          new Promise<Response>((resolve, reject) => {
            const q = new URL(url, 'http://host').searchParams.get('q')!;
            signals.set(q, init.signal!);
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
            setTimeout(() => resolve(Response.json({ items: [] })), 200);
          }),
      ),
    );
    try {
      const qc = new QueryClient();
      const observer = new QueryObserver(qc, searchQueryOptions('w'));
      const unsubscribe = observer.subscribe(() => undefined);
      await vi.waitFor(() => expect(signals.has('w')).toBe(true));
      observer.setOptions(searchQueryOptions('we'));
      await vi.waitFor(() => expect(signals.has('we')).toBe(true));
      expect(signals.get('w')?.aborted).toBe(true);
      expect(signals.get('we')?.aborted).toBe(false);
      unsubscribe();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('refetches what was fetched before the stream (re)connected, since the events of the gap are lost', async () => {
    const qc = new QueryClient();
    let fetched = 0;
    await qc.fetchQuery({ queryKey: ['tools', 'one', 'b', 'sum', 'v1'], queryFn: () => ++fetched });
    const resync = createResync(qc);
    resync(false);
    expect(qc.getQueryState(['tools', 'one', 'b', 'sum', 'v1'])?.isInvalidated).toBe(false);
    await new Promise((r) => setTimeout(r, 2));
    resync(true);
    expect(qc.getQueryState(['tools', 'one', 'b', 'sum', 'v1'])?.isInvalidated).toBe(true);
    // A query fetched after the connection is current and stays so.
    await qc.fetchQuery({ queryKey: ['config'], queryFn: () => 'fresh', staleTime: 0 });
    expect(qc.getQueryState(['config'])?.isInvalidated).toBe(false);
  });

  it('refetches a query whose request was out when the stream connected, once it answers: the host may have read before it subscribed', async () => {
    const qc = new QueryClient();
    const resync = createResync(qc, { gate: createFirstScreenGate({ settled: true }) });
    let fetched = 0;
    const answers: ((v: number) => void)[] = [];
    const observer = new QueryObserver(qc, {
      queryKey: ['tools', 'list', '*'],
      queryFn: () => new Promise<number>((r) => answers.push(r)).finally(() => fetched++),
    });
    const stop = observer.subscribe(() => {});
    try {
      await vi.waitFor(() => expect(answers).toHaveLength(1));
      resync(true); // connected while the first request is on its way
      answers[0]!(1);
      // A change made between the host's read and its subscription is in no event: only a new read shows it.
      await vi.waitFor(() => expect(answers).toHaveLength(2), { timeout: 2000 });
      answers[1]!(2);
      await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe(2));
      expect(fetched).toBe(2);
    } finally {
      stop();
    }
  });

  it('on the first connect, refetches after the first screen is painted, not while it loads; later reconnects at once', async () => {
    const qc = new QueryClient();
    const gate = createFirstScreenGate({ settled: false });
    const resync = createResync(qc, { gate });
    await qc.fetchQuery({ queryKey: ['bundles', 'list', 'exclude'], queryFn: () => 1 });
    await new Promise((r) => setTimeout(r, 2));
    resync(true);
    expect(qc.getQueryState(['bundles', 'list', 'exclude'])?.isInvalidated).toBe(false);
    gate.settle();
    expect(qc.getQueryState(['bundles', 'list', 'exclude'])?.isInvalidated).toBe(true);
    // Fetched after that connection: current, whatever happens to the gate.
    await qc.fetchQuery({ queryKey: ['config'], queryFn: () => 'fresh' });
    resync(false);
    await new Promise((r) => setTimeout(r, 2));
    resync(true);
    expect(qc.getQueryState(['config'])?.isInvalidated).toBe(true);
  });

  it('does not refetch on connect what was asked for after the stream connected', async () => {
    const qc = new QueryClient();
    const resync = createResync(qc, { gate: createFirstScreenGate({ settled: true }) });
    resync(true);
    await new Promise((r) => setTimeout(r, 2));
    await qc.fetchQuery({ queryKey: ['tools', 'list', '*'], queryFn: () => 1 });
    expect(qc.getQueryState(['tools', 'list', '*'])?.isInvalidated).toBe(false);
  });

  it('runs what waited for the first screen one step at a time once it settles, skipping what was cancelled', () => {
    const steps: (() => void)[] = [];
    const gate = createFirstScreenGate({ settled: false, step: (run) => steps.push(run) });
    const ran: string[] = [];
    gate.whenSettled(() => ran.push('a'));
    const cancelB = gate.whenSettled(() => ran.push('b'));
    gate.whenSettled(() => ran.push('c'));
    gate.settle();
    expect(ran).toEqual(['a']); // the first at once, the others in steps of their own
    expect(gate.settled).toBe(true);
    cancelB();
    steps.shift()!();
    expect(ran).toEqual(['a', 'c']);
    expect(steps).toHaveLength(0);
    gate.whenSettled(() => ran.push('d')); // settled: at once
    expect(ran).toEqual(['a', 'c', 'd']);
  });

  it('runs idle-time work only once typing has paused', () => {
    vi.useFakeTimers();
    try {
      let busy = 300; // a key was just typed
      let ran = 0;
      whenIdle(
        () => ran++,
        500,
        () => busy,
      );
      vi.advanceTimersByTime(10);
      expect(ran).toBe(0); // an idle moment while keys come does not count
      busy = 0;
      vi.advanceTimersByTime(300);
      expect(ran).toBe(1);

      const cancel = whenIdle(
        () => ran++,
        500,
        () => 200,
      );
      vi.advanceTimersByTime(100);
      cancel(); // cancelled while it waits for the typing to pause
      vi.advanceTimersByTime(1000);
      expect(ran).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('starts the deferred work after the paint only once input has paused, and no later than the hold allows', () => {
    vi.useFakeTimers();
    try {
      let busy = 0;
      let ran = 0;
      afterPaintWhenQuiet(
        () => ran++,
        () => busy,
      );
      vi.advanceTimersByTime(AFTER_PAINT_QUIET_MS - 10);
      expect(ran).toBe(0); // the first keys typed at a fresh window come first
      busy = 300; // a key was just typed
      vi.advanceTimersByTime(200);
      expect(ran).toBe(0);
      busy = 0;
      vi.advanceTimersByTime(400); // paused: it runs (at the latest when the idle callback's timeout passes)
      expect(ran).toBe(1);

      let typing = 0;
      afterPaintWhenQuiet(
        () => typing++,
        () => 400,
      ); // someone who never stops typing
      vi.advanceTimersByTime(AFTER_PAINT_MAX_HOLD_MS - 100);
      expect(typing).toBe(0);
      vi.advanceTimersByTime(400);
      expect(typing).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
