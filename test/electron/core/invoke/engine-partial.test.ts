/**
 * What the engine does for any runner (pipelines use it, nothing in it is about them): a run
 * that fails or is stopped still answers and is recorded with what it kept (keepPartial); a
 * caller's own signal stops a run, its CoreError reason becoming the run's error; a runner may
 * raise a tool's safety at run time, and the privileged gate follows it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CoreError } from '../../../../electron/core/errors.js';
import { bundleFile, engineTool, harness, refusal, toolFile, type Harness } from '../../../helpers/engine-fixtures.js';
import type { PipelineStepRecord } from '../../../../shared/types.js';

let h: Harness;
afterEach(() => h?.cleanup());

/** A run that ends only when stopped, as a runner that honours its signal does. */
const untilStopped = (signal: AbortSignal) => new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))));

const step = (id: string, status: PipelineStepRecord['status']): PipelineStepRecord => ({ id, status, tool: { bundleID: 'b', slug: id, version: 'v1' } });

describe('the engine keeps what an unfinished run produced', () => {
  it('answers and records the partial steps of a run that failed', async () => {
    h = await harness();
    h.runner.behaviour = (ctx) => {
      ctx.keepPartial?.({ steps: [step('a', 'ok'), step('b', 'error')] });
      throw new CoreError('UPSTREAM_ERROR', 'b broke');
    };
    const tool = engineTool(toolFile());
    const result = await h.engine.invoke(tool, bundleFile(), { args: { city: 'Oslo' } });
    expect(result.error?.code).toBe('UPSTREAM_ERROR');
    expect(result.steps?.map((s) => s.status)).toEqual(['ok', 'error']);
    const [entry] = await h.history.list(tool.file.toolID);
    expect(entry!.steps?.map((s) => s.status)).toEqual(['ok', 'error']);
  });

  it("stops a run on the caller's signal; a step still running reads cancelled", async () => {
    h = await harness();
    h.runner.behaviour = (ctx) => {
      ctx.keepPartial?.({ steps: [step('a', 'ok'), step('b', 'running')] });
      return untilStopped(ctx.signal);
    };
    const caller = new AbortController();
    const run = h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo' }, signal: caller.signal });
    setTimeout(() => caller.abort(), 10);
    const result = await run;
    expect(result.error?.code).toBe('CANCELLED');
    expect(result.steps?.map((s) => s.status)).toEqual(['ok', 'cancelled']);
    expect(h.runner.calls[0]!.signal.aborted).toBe(true);
  });

  it("ends a run with the caller's CoreError reason (a timeout), recorded as an error", async () => {
    h = await harness();
    h.runner.behaviour = (ctx) => untilStopped(ctx.signal);
    const caller = new AbortController();
    const tool = engineTool();
    const run = h.engine.invoke(tool, bundleFile(), { args: { city: 'Oslo' }, signal: caller.signal });
    caller.abort(new CoreError('TIMEOUT', 'the pipeline ran out of time'));
    const result = await run;
    expect(result.error).toEqual({ code: 'TIMEOUT', message: 'the pipeline ran out of time' });
    expect((await h.history.list(tool.file.toolID))[0]!.status).toBe('error');
  });

  it('lets a runner raise safety at run time: the privileged gate follows it, and passes confirmed to the run', async () => {
    h = await harness();
    (h.runner as unknown as { safety: () => unknown }).safety = () => ({ safety: 'privileged', because: 'its step "x" is privileged' });
    const tool = engineTool(toolFile({ safety: 'readOnly' }));
    expect(h.engine.safetyOf(tool)).toEqual({ safety: 'privileged', because: 'its step "x" is privileged' });
    const e = await refusal(h.engine.invoke(tool, bundleFile(), { args: { city: 'Oslo' } }));
    expect(e.code).toBe('CONFIRMATION_REQUIRED');
    expect(e.message).toMatch(/is privileged \(its step "x" is privileged\)/);
    expect(h.runner.calls).toHaveLength(0);
    await h.engine.invoke(tool, bundleFile(), { args: { city: 'Oslo' }, confirm: true });
    expect(h.runner.calls[0]!.confirmed).toBe(true);
  });
});
