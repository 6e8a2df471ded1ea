/**
 * The safety tiers' run policy for pipelines, through the real engine of a real core: read-only
 * steps that do not depend on each other run at once; a side-effecting step runs alone, in its
 * declared place. Concurrency is observed, not timed: the steps are http tools on a loopback
 * server that holds every request until the test releases it, so "both at once" means the
 * server saw both requests before answering either.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InvokeStreamEvent, PipelineStepRecord } from '../../../../../shared/types.js';
import type { Safety } from '../../../../../shared/schemas.js';
import { pipelineWorld, type PipelineWorld } from '../../../../helpers/pipelines.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../../../../helpers/loopback-http.js';

/** Requests held open by name (`/hold?n=<name>`), and what was in flight as each arrived. */
class Holds {
  readonly open = new Map<string, ServerResponse>();
  /** Per arrival: the name and the names in flight at that moment. */
  readonly arrivals: { name: string; alongside: string[] }[] = [];
  /** Names whose request the client gave up on (its connection closed before an answer). */
  readonly dropped: string[] = [];
  private waiters: (() => void)[] = [];

  arrive(name: string, res: ServerResponse): void {
    this.arrivals.push({ name, alongside: [...this.open.keys()] });
    this.open.set(name, res);
    res.on('close', () => {
      if (this.open.get(name) === res && !res.writableEnded) this.dropped.push(name);
      if (this.open.get(name) === res) this.open.delete(name);
      this.changed();
    });
    this.changed();
  }

  release(...names: string[]): void {
    for (const name of names) this.answer(name, 200, { name });
  }

  answer(name: string, status: number, body: unknown): void {
    const res = this.open.get(name);
    if (!res) throw new Error(`no request "${name}" is held`);
    this.open.delete(name);
    sendJson(res, status, body);
  }

  /** Waits until exactly these requests are held (failing after a generous deadline, for the old code's sake). */
  async until(names: string[], ms = 4000): Promise<void> {
    const want = [...names].sort().join(',');
    const now = () => [...this.open.keys()].sort().join(',');
    const deadline = Date.now() + ms;
    while (now() !== want) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected the requests [${want}] held at once, but the server holds [${now()}]`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private changed(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

let w: PipelineWorld;
let server: LoopbackServer;
let holds: Holds;

beforeAll(async () => {
  server = await startLoopbackServer();
  server.route('/hold', (req, res) => holds.arrive(req.query.get('n') ?? '?', res));
});
afterAll(() => server.close());
beforeEach(async () => {
  holds = new Holds();
  w = await pipelineWorld();
  await w.fnTool('tally', 'test.count', { safety: 'sideEffecting' });
});
afterEach(async () => {
  for (const name of [...holds.open.keys()]) holds.release(name);
  await w.close();
});

const ref = (slug: string) => ({ bundleID: w.bundleID, slug, version: 'v1' });
const statuses = (steps: readonly PipelineStepRecord[] | undefined) => (steps ?? []).map((s) => `${s.id}:${s.status}`);

/** An http tool that asks the hold server for `n` and answers its JSON ({name}). */
async function holdTool(slug: string, safety: Safety): Promise<void> {
  await w.core.tools.create(ref(slug), {
    type: 'http',
    safety,
    impl: { method: 'GET', urlTemplate: `${server.url('/hold')}?n=\${n}`, timeoutMs: 30_000, maxRetries: 0 },
    argSchema: { type: 'object', properties: { n: { type: 'string' } }, required: ['n'] },
  });
}

const step = (id: string, slug: string, n: string = id) => ({ id, tool: { slug, version: 'v1' }, args: { n } });

describe('read-only steps run at once, others one at a time', () => {
  it('two independent read-only steps overlap: the server holds both requests before answering either', async () => {
    await holdTool('look', 'readOnly');
    await w.pipeline('pair', { steps: [step('a', 'look'), step('b', 'look')], output: { a: '${steps.a.value.name}', b: '${steps.b.value.name}' } });
    const run = w.core.invocations.invoke(ref('pair'), { args: {} });
    await holds.until(['a', 'b']);
    holds.release('b', 'a');
    const result = await run;
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual({ a: 'a', b: 'b' });
    expect(statuses(result.steps)).toEqual(['a:ok', 'b:ok']);
  });

  it('a side-effecting step never overlaps anything: the read-only steps around it run at once, before and after it', async () => {
    await holdTool('look', 'readOnly');
    await holdTool('write', 'sideEffecting');
    await w.pipeline('mixed', { steps: [step('r1', 'look'), step('r2', 'look'), step('s', 'write'), step('r3', 'look'), step('r4', 'look')] });
    const run = w.core.invocations.invoke(ref('mixed'), { args: {} });
    await holds.until(['r1', 'r2']);
    holds.release('r1');
    await holds.until(['r2']);
    holds.release('r2');
    await holds.until(['s']);
    holds.release('s');
    await holds.until(['r3', 'r4']);
    holds.release('r3', 'r4');
    const result = await run;
    expect(result.error).toBeUndefined();
    expect(statuses(result.steps)).toEqual(['r1:ok', 'r2:ok', 's:ok', 'r3:ok', 'r4:ok']);
    // Nothing was in flight when s arrived, and nothing arrived while it was.
    expect(holds.arrivals.find((a) => a.name === 's')!.alongside).toEqual([]);
    expect(holds.arrivals.filter((a) => a.alongside.includes('s'))).toEqual([]);
    expect(holds.arrivals.map((a) => a.name)).toEqual(['r1', 'r2', 's', 'r3', 'r4']);
  });

  it('a step that reads another waits for it, while an independent one runs beside both; the answer keeps the declared order', async () => {
    await holdTool('look', 'readOnly');
    await w.pipeline('deps', {
      steps: [step('a', 'look'), step('b', 'look', 'after-${steps.a.value.name}'), step('c', 'look')],
    });
    const events: string[] = [];
    const run = w.core.invocations.invoke(ref('deps'), {
      args: {},
      onEvent: (e: InvokeStreamEvent) => {
        if (e.type === 'step') events.push(`${e.step.id}:${e.step.status}`);
      },
    });
    await holds.until(['a', 'c']);
    holds.release('a');
    await holds.until(['after-a', 'c']);
    holds.release('after-a');
    await holds.until(['c']);
    holds.release('c');
    const result = await run;
    expect(result.error).toBeUndefined();
    expect(statuses(result.steps)).toEqual(['a:ok', 'b:ok', 'c:ok']);
    expect(result.steps![1]!.args).toEqual({ n: 'after-a' });
    expect(result.value).toEqual({ name: 'c' });
    // b asked only once a had answered.
    expect(holds.arrivals.find((x) => x.name === 'after-a')!.alongside).toEqual(['c']);
    expect(events.slice(0, 2).sort()).toEqual(['a:running', 'c:running']);
    expect(events.indexOf('b:running')).toBeGreaterThan(events.indexOf('a:ok'));
  });

  it('a failing step cancels the steps running beside it (their requests dropped) and skips those not started', async () => {
    await holdTool('look', 'readOnly');
    await w.pipeline('fails', {
      timeoutSeconds: 3,
      steps: [step('x', 'look'), step('bad', 'look'), step('y', 'look'), { id: 'z', tool: { slug: 'tally', version: 'v1' } }],
    });
    const run = w.core.invocations.invoke(ref('fails'), { args: {} });
    await holds.until(['x', 'bad', 'y']);
    holds.answer('bad', 500, { error: 'the backend said no' });
    const result = await run;
    expect(result.error?.code).toBe('UPSTREAM_ERROR');
    expect(result.error?.message).toMatch(/^step "bad" \(lab\/look v1\) failed: /);
    expect(statuses(result.steps)).toEqual(['x:cancelled', 'bad:error', 'y:cancelled', 'z:skipped']);
    expect(result.steps![0]!.error).toEqual({ code: 'CANCELLED', message: 'stopped because step "bad" failed' });
    await holds.until([]);
    expect(holds.dropped.sort()).toEqual(['x', 'y']);
    expect(w.counts.count).toBe(0);
    const [entry] = await w.core.history.list((await w.core.tools.get(ref('fails'))).toolID);
    expect(statuses(entry!.steps)).toEqual(['x:cancelled', 'bad:error', 'y:cancelled', 'z:skipped']);
    expect(w.core.engine.running()).toEqual([]);
  });

  it('cancelling the pipeline cancels every running step; the history keeps what it had', async () => {
    await holdTool('look', 'readOnly');
    await w.pipeline('stopme', {
      steps: [step('x', 'look'), step('y', 'look'), step('z', 'look', '${steps.x.value.name}')],
    });
    const invocationID = 'stop-two-at-once';
    const run = w.core.invocations.invoke(ref('stopme'), { args: {}, invocationID });
    await holds.until(['x', 'y']);
    w.core.invocations.cancel(invocationID);
    const result = await run;
    expect(result.error?.code).toBe('CANCELLED');
    expect(statuses(result.steps)).toEqual(['x:cancelled', 'y:cancelled', 'z:skipped']);
    await holds.until([]);
    expect(holds.dropped.sort()).toEqual(['x', 'y']);
    const [entry] = await w.core.history.list((await w.core.tools.get(ref('stopme'))).toolID);
    expect(entry).toMatchObject({ status: 'cancelled' });
    expect(statuses(entry!.steps)).toEqual(['x:cancelled', 'y:cancelled', 'z:skipped']);
    expect(w.core.engine.running()).toEqual([]);
  });
});
