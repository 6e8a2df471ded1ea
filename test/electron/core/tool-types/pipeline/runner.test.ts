/**
 * Pipelines through the real engine of a real core: function tools and an http tool on a
 * loopback server as steps. Each step passes the engine's gates and lands in its own history
 * with the caller `pipeline:<slug>`; a privileged pipeline is refused before any step runs; a
 * failing step stops the run naming the step; a stop and the timeout end the running step and
 * skip the rest; the steps so far reach the answer and the history whatever ends the run.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InvokeStreamEvent, PipelineStepRecord } from '../../../../../shared/types.js';
import { agentTools, safetyAnnotations } from '../../../../../electron/core/agents/agent-tools.js';
import { pipelineWorld, rejection, type PipelineWorld } from '../../../../helpers/pipelines.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../../../../helpers/loopback-http.js';

let w: PipelineWorld;
let server: LoopbackServer;

beforeAll(async () => {
  server = await startLoopbackServer();
  server.route('/geo', (req, res) => sendJson(res, 200, { name: req.query.get('q'), lat: 59.91, lon: 10.75 }));
});
afterAll(() => server.close());
beforeEach(async () => {
  w = await pipelineWorld();
  await w.fnTool('double', 'test.double');
  await w.fnTool('echo', 'test.echo');
  await w.fnTool('count', 'test.count');
  await w.fnTool('boom', 'test.fail');
  await w.fnTool('nap', 'test.sleep', { argSchema: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] } });
});
afterEach(() => w.close());

const ref = (slug: string) => ({ bundleID: w.bundleID, slug, version: 'v1' });
const statuses = (steps: readonly PipelineStepRecord[] | undefined) => (steps ?? []).map((s) => `${s.id}:${s.status}`);
const toolID = async (slug: string) => (await w.core.tools.get(ref(slug))).toolID;
const history = async (slug: string) => w.core.history.list(await toolID(slug));

describe('a pipeline run', () => {
  it('runs each step through the engine, fills arguments and the output with types kept, and records every step', async () => {
    server.requests.length = 0;
    await w.core.tools.create(ref('geocode'), {
      type: 'http',
      impl: { method: 'GET', urlTemplate: `${server.url('/geo')}?q=\${city}` },
      argSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    });
    await w.pipeline(
      'brief',
      {
        steps: [
          { id: 'geo', tool: { slug: 'geocode', version: 'v1' }, args: { city: '${input.city}' } },
          { id: 'dbl', tool: { slug: 'double', version: 'v1' }, args: { n: '${steps.geo.value.lat}' } },
          {
            id: 'say',
            tool: { slug: 'echo', version: 'v1' },
            args: { label: 'lat ${steps.geo.value.lat} in ${input.city}', both: ['${steps.dbl.value}', '${input.n}'] },
          },
        ],
        output: { lat: '${steps.geo.value.lat}', doubled: '${steps.dbl.value}', text: '${steps.say.value.label}', where: '${steps.geo.value}' },
      },
      { argSchema: { type: 'object', properties: { city: { type: 'string' }, n: { type: 'integer' } }, required: ['city'] } },
    );
    const events: PipelineStepRecord[] = [];
    const result = await w.core.invocations.invoke(ref('brief'), {
      args: { city: 'Oslo', n: 7 },
      onEvent: (e: InvokeStreamEvent) => {
        if (e.type === 'step') events.push(e.step);
      },
    });
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual({
      lat: 59.91,
      doubled: 119.82,
      text: 'lat 59.91 in Oslo',
      where: { name: 'Oslo', lat: 59.91, lon: 10.75 },
    });
    expect(server.requests.map((r) => r.url)).toEqual(['/geo?q=Oslo']);
    expect(statuses(result.steps)).toEqual(['geo:ok', 'dbl:ok', 'say:ok']);
    const [geo, dbl, say] = result.steps!;
    expect(geo!.tool).toEqual({ bundleID: w.bundleID, slug: 'geocode', version: 'v1' });
    expect(dbl!.args).toEqual({ n: 59.91 });
    expect(say!.value).toEqual({ label: 'lat 59.91 in Oslo', both: [119.82, 7] });
    expect(result.steps!.every((s) => typeof s.durationMs === 'number' && typeof s.startedAt === 'string')).toBe(true);
    // Live: each step reported running, then ok, in order.
    expect(events.map((e) => `${e.id}:${e.status}`)).toEqual(['geo:running', 'geo:ok', 'dbl:running', 'dbl:ok', 'say:running', 'say:ok']);

    const [entry] = await history('brief');
    expect(entry!.status).toBe('ok');
    expect(statuses(entry!.steps)).toEqual(['geo:ok', 'dbl:ok', 'say:ok']);
    const [stepEntry] = await history('double');
    expect(stepEntry).toMatchObject({ status: 'ok', caller: 'pipeline:brief', args: { n: 59.91 }, result: 119.82 });
    expect((await history('geocode'))[0]!.caller).toBe('pipeline:brief');
  });

  it('answers the last step value when there is no output template', async () => {
    await w.pipeline(
      'twice',
      {
        steps: [
          { id: 'a', tool: { slug: 'double', version: 'v1' }, args: { n: '${input.n}' } },
          { id: 'b', tool: { slug: 'double', version: 'v1' }, args: { n: '${steps.a.value}' } },
        ],
      },
      { argSchema: { type: 'object', properties: { n: { type: 'number' } } } },
    );
    expect((await w.core.invocations.invoke(ref('twice'), { args: { n: 5 } })).value).toBe(20);
  });

  it('refuses a privileged pipeline without confirm before any step runs, and runs its steps confirmed with it', async () => {
    await w.fnTool('wipe', 'test.count', { safety: 'privileged' });
    await w.pipeline('tidy', {
      steps: [
        { id: 'first', tool: { slug: 'count', version: 'v1' } },
        { id: 'danger', tool: { slug: 'wipe', version: 'v1' } },
      ],
    });
    const e = await rejection(w.core.invocations.invoke(ref('tidy'), { args: {} }));
    expect(e.code).toBe('CONFIRMATION_REQUIRED');
    expect(e.message).toMatch(/tool tidy v1 is privileged: ask the user to confirm/);
    // Not one step ran: the first step's function, its history and the pipeline's are untouched.
    expect(w.counts.count).toBe(0);
    expect(await history('count')).toEqual([]);
    expect(await history('tidy')).toEqual([]);

    const ok = await w.core.invocations.invoke(ref('tidy'), { args: {}, confirm: true });
    expect(ok.ok).toBe(true);
    expect(w.counts.count).toBe(2);
    expect((await history('wipe'))[0]).toMatchObject({ status: 'ok', caller: 'pipeline:tidy' });
  });

  it('judges safety again at run time: a step that became privileged makes the pipeline privileged', async () => {
    await w.pipeline('calm', { steps: [{ id: 'c', tool: { slug: 'count', version: 'v1' } }] });
    expect((await w.core.tools.get(ref('calm'))).safety).toBe('readOnly');
    await w.core.tools.update(ref('count'), { type: 'function', impl: { function: 'test.count' }, safety: 'privileged' });

    const view = await w.core.tools.get(ref('calm'));
    expect(view.safety).toBe('readOnly');
    expect(view.effectiveSafety).toBe('privileged');
    const listed = agentTools(w.core.store.reader, w.core.tools).find((t) => t.file.slug === 'calm')!;
    expect(safetyAnnotations(listed.safety)).toEqual({ readOnlyHint: false, destructiveHint: true });

    const e = await rejection(w.core.invocations.invoke(ref('calm'), { args: {} }));
    expect(e.code).toBe('CONFIRMATION_REQUIRED');
    expect(e.message).toMatch(/\(its step "c" \(lab\/count v1\) is privileged\)/);
    expect(w.counts.count).toBe(0);
  });

  it('stops at a failing step with an error naming it; the rest are skipped; the steps reach the answer and history', async () => {
    await w.pipeline('chain', {
      steps: [
        { id: 'a', tool: { slug: 'count', version: 'v1' } },
        { id: 'b', tool: { slug: 'boom', version: 'v1' } },
        { id: 'c', tool: { slug: 'count', version: 'v1' }, args: { after: '${steps.b.value}' } },
      ],
    });
    const result = await w.core.invocations.invoke(ref('chain'), { args: {} });
    expect(result.ok).toBe(false);
    expect(result.error).toMatchObject({ code: 'UPSTREAM_ERROR', message: 'step "b" (lab/boom v1) failed: the backend said no' });
    expect(statuses(result.steps)).toEqual(['a:ok', 'b:error', 'c:skipped']);
    expect(result.steps![1]!.error).toMatchObject({ code: 'UPSTREAM_ERROR', message: 'the backend said no' });
    expect(w.counts.count).toBe(1);
    const [entry] = await history('chain');
    expect(entry).toMatchObject({ status: 'error', error: { code: 'UPSTREAM_ERROR' } });
    expect(statuses(entry!.steps)).toEqual(['a:ok', 'b:error', 'c:skipped']);
    expect((await history('boom'))[0]).toMatchObject({ status: 'error', caller: 'pipeline:chain' });
  });

  it('a stop cancels the running step and the rest never start', async () => {
    await w.pipeline('slow', {
      steps: [
        { id: 'a', tool: { slug: 'count', version: 'v1' } },
        { id: 'b', tool: { slug: 'nap', version: 'v1' }, args: { ms: 30_000 } },
        { id: 'c', tool: { slug: 'count', version: 'v1' }, args: { after: '${steps.b.value}' } },
      ],
    });
    const invocationID = 'stop-me-1';
    // a and b do not depend on each other, so they may run at once: the stop comes once a has
    // finished and b is running (on a loaded machine a's record can take longer than b's start).
    const seen = new Set<string>();
    const result = await w.core.invocations.invoke(ref('slow'), {
      args: {},
      invocationID,
      onEvent: (e) => {
        if (e.type !== 'step') return;
        seen.add(`${e.step.id}:${e.step.status}`);
        if (seen.has('a:ok') && seen.has('b:running') && !seen.has('stop')) {
          seen.add('stop');
          setTimeout(() => w.core.invocations.cancel(invocationID), 20);
        }
      },
    });
    expect(result.error?.code).toBe('CANCELLED');
    expect(statuses(result.steps)).toEqual(['a:ok', 'b:cancelled', 'c:skipped']);
    // The stop reached the function that was running, through the step's own engine call.
    expect(w.sleeps).toHaveLength(1);
    expect(w.sleeps[0]!.aborted).toBe(true);
    expect(w.counts.count).toBe(1);
    expect((await history('slow'))[0]).toMatchObject({ status: 'cancelled' });
    expect(statuses((await history('slow'))[0]!.steps)).toEqual(['a:ok', 'b:cancelled', 'c:skipped']);
    expect((await history('nap'))[0]).toMatchObject({ status: 'cancelled', caller: 'pipeline:slow' });
    expect(w.core.engine.running()).toEqual([]);
  });

  it('ends the whole run at impl.timeoutSeconds, naming the step it stopped', async () => {
    await w.pipeline('late', {
      timeoutSeconds: 0.3,
      steps: [
        { id: 'wait', tool: { slug: 'nap', version: 'v1' }, args: { ms: 30_000 } },
        { id: 'after', tool: { slug: 'count', version: 'v1' }, args: { after: '${steps.wait.value}' } },
      ],
    });
    const result = await w.core.invocations.invoke(ref('late'), { args: {} });
    expect(result.error?.code).toBe('TIMEOUT');
    expect(result.error?.message).toBe('step "wait" (lab/nap v1) failed: pipeline late v1 ran longer than its 0.3 s (impl.timeoutSeconds)');
    expect(statuses(result.steps)).toEqual(['wait:error', 'after:skipped']);
    expect(w.sleeps[0]!.aborted).toBe(true);
    expect(w.counts.count).toBe(0);
    expect((await history('nap'))[0]).toMatchObject({ status: 'error', error: { code: 'TIMEOUT' } });
  });
});

describe('each step passes the gates', () => {
  it('is unavailable, naming the step, when a step tool is switched off or gone', async () => {
    await w.pipeline('p', { steps: [{ id: 'dbl', tool: { slug: 'double', version: 'v1' }, args: { n: 1 } }] });
    await w.core.tools.setEnabled(ref('double'), false);
    const view = await w.core.tools.get(ref('p'));
    expect(view.availability).toEqual({ ok: false, reason: 'step "dbl" (lab/double v1): the tool is switched off' });
    const e = await rejection(w.core.invocations.invoke(ref('p'), { args: {} }));
    expect(e.code).toBe('TOOL_UNAVAILABLE');
    expect(e.message).toMatch(/step "dbl"/);

    await w.core.tools.delete(ref('double'));
    expect((await w.core.tools.get(ref('p'))).availability).toEqual({ ok: false, reason: 'step "dbl": there is no tool lab/double v1' });
  });

  it('rate-limits a step tool on its own limit', async () => {
    await w.core.tools.update(ref('count'), { type: 'function', impl: { function: 'test.count' }, limits: { maxCallsPerMinute: 1 } });
    await w.pipeline('p', { steps: [{ id: 'c', tool: { slug: 'count', version: 'v1' } }] });
    expect((await w.core.invocations.invoke(ref('p'), { args: {} })).ok).toBe(true);
    const second = await w.core.invocations.invoke(ref('p'), { args: {} });
    expect(second.error?.code).toBe('RATE_LIMITED');
    expect(second.error?.message).toMatch(/^step "c" \(lab\/count v1\) failed: tool count v1 allows 1 calls per minute/);
    expect(w.counts.count).toBe(1);
  });

  it("validates a step's arguments against its tool", async () => {
    await w.pipeline(
      'p',
      { steps: [{ id: 'd', tool: { slug: 'double', version: 'v1' }, args: { n: '${input.n}' } }] },
      { argSchema: { type: 'object', properties: { n: {} } } },
    );
    const result = await w.core.invocations.invoke(ref('p'), { args: { n: 'three' } });
    expect(result.error?.code).toBe('INVALID_ARGS');
    expect(result.error?.message).toMatch(/^step "d" \(lab\/double v1\) failed: invalid arguments for double: .*number/);
    expect(statuses(result.steps)).toEqual(['d:error']);
  });

  it('runs pipelines inside pipelines, and refuses a loop written by hand', async () => {
    await w.pipeline(
      'inner',
      { steps: [{ id: 'd', tool: { slug: 'double', version: 'v1' }, args: { n: '${input.n}' } }] },
      { argSchema: { type: 'object', properties: { n: {} } } },
    );
    await w.pipeline('outer', { steps: [{ id: 'in', tool: { slug: 'inner', version: 'v1' }, args: { n: 21 } }] });
    const result = await w.core.invocations.invoke(ref('outer'), { args: {} });
    expect(result.value).toBe(42);
    expect((await history('inner'))[0]!.caller).toBe('pipeline:outer');

    // A hand edit (no save checks) makes inner call outer: both refuse to run, naming the loop.
    const inner = (await w.core.store.tool(w.bundleID, 'inner', 'v1')).file;
    const looped = { ...inner, impl: { steps: [{ id: 'back', tool: { slug: 'outer', version: 'v1' } }] } };
    await w.core.store.writeToolFile(looped as typeof inner);
    w.core.store.applyTool(looped as typeof inner);
    const e = await rejection(w.core.invocations.invoke(ref('outer'), { args: {} }));
    expect(e.code).toBe('TOOL_UNAVAILABLE');
    expect(e.message).toMatch(/calls itself through its steps/);
  });

  it('is listed for agents like any tool (MCP and OpenAI functions)', async () => {
    await w.pipeline('listed', { steps: [{ id: 'e', tool: { slug: 'echo', version: 'v1' } }] }, { description: 'a pipeline' });
    const fns = w.core.transfer.openAiFunctions([w.bundleID]);
    expect(fns.find((f) => f.function.name === 'listed')).toMatchObject({ type: 'function', function: { description: 'a pipeline' } });
  });
});
