/** Every tool has a timeout the engine enforces, function tools included (a real core). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineFunction } from '../../../../electron/core/functions/types.js';
import { pipelineWorld, type PipelineWorld } from '../../../helpers/pipelines.js';

let w: PipelineWorld;
beforeEach(async () => {
  w = await pipelineWorld();
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
});
afterEach(() => w.close());

const ref = (slug: string) => ({ bundleID: w.bundleID, slug, version: 'v1' });

describe('a function tool that never returns', () => {
  it('ends with TIMEOUT at its limits.timeoutSeconds, and the call answers (history says error)', async () => {
    await w.fnTool('hang', 'test.hang', { limits: { timeoutSeconds: 1 } });
    const t0 = Date.now();
    const result = await w.core.invocations.invoke(ref('hang'), { args: {} });
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('TIMEOUT');
    expect(result.error?.message).toContain('limits.timeoutSeconds');
    expect(Date.now() - t0).toBeLessThan(15_000);
  }, 30_000);

  it("ends with TIMEOUT at config's limits.timeoutSeconds when the tool sets none", async () => {
    await w.core.config.patch({ limits: { maxCallsPerMinute: 100000, maxOutputBytes: 16384, timeoutSeconds: 1 } });
    await w.fnTool('hang', 'test.hang');
    const result = await w.core.invocations.invoke(ref('hang'), { args: {} });
    expect(result.error?.code).toBe('TIMEOUT');
  }, 30_000);
});
