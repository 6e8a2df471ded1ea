/** Every tool has a timeout the engine enforces, function tools included (a real core). */
import { describe, expect, it, type OnTestFinishedHandler } from 'vitest';
import { defineFunction } from '../../../../electron/core/functions/types.js';
import { pipelineWorld, type PipelineWorld } from '../../../helpers/pipelines.js';

/** A world of its own per test: the two run side by side, each mostly waiting out its timeout. */
async function hangingWorld(atEnd: (fn: OnTestFinishedHandler) => void): Promise<PipelineWorld> {
  const w = await pipelineWorld();
  atEnd(() => w.close());
  // Never returns and ignores its signal: only the engine can end it.
  w.core.functions.register(
    defineFunction<Record<string, unknown>, never>({
      name: 'test.hang',
      description: 'never returns',
      argSchema: { type: 'object' },
      outputSchema: {},
      safety: 'readOnly',
      run: () => new Promise(() => undefined),
    }),
  );
  return w;
}

const ref = (w: PipelineWorld, slug: string) => ({ bundleID: w.bundleID, slug, version: 'v1' });

describe.concurrent('a function tool that never returns', () => {
  it('ends with TIMEOUT at its limits.timeoutSeconds, and the call answers (history says error)', async ({ onTestFinished }) => {
    const w = await hangingWorld(onTestFinished);
    await w.fnTool('hang', 'test.hang', { limits: { timeoutSeconds: 1 } });
    const t0 = Date.now();
    const result = await w.core.invocations.invoke(ref(w, 'hang'), { args: {} });
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('TIMEOUT');
    expect(result.error?.message).toContain('limits.timeoutSeconds');
    expect(Date.now() - t0).toBeLessThan(15_000);
  }, 30_000);

  it("ends with TIMEOUT at config's limits.timeoutSeconds when the tool sets none", async ({ onTestFinished }) => {
    const w = await hangingWorld(onTestFinished);
    await w.core.config.patch({ limits: { maxCallsPerMinute: 100000, maxOutputBytes: 16384, timeoutSeconds: 1 } });
    await w.fnTool('hang', 'test.hang');
    const result = await w.core.invocations.invoke(ref(w, 'hang'), { args: {} });
    expect(result.error?.code).toBe('TIMEOUT');
  }, 30_000);
});
