/**
 * The scripts tests start as processes are compiled by the global set-up only when their sources
 * changed: a run whose sources are those of the last compile keeps its bundles (the compile cost
 * 6-8 s of every run on a loaded machine).
 */
import { describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { compiledPathOf, compileScripts, SPAWNED_SCRIPTS } from './helpers/compiled-scripts.js';
import { ROOT } from './helpers/procs.js';

const bundleTimes = () =>
  SPAWNED_SCRIPTS.map((script) => {
    const path = compiledPathOf(ROOT, script);
    return path === undefined ? `${script}: no bundle` : statSync(path).mtimeMs;
  });

describe('the compiled test scripts', () => {
  it('are not compiled again when their sources are those of the last compile', async () => {
    const before = bundleTimes(); // the global set-up compiled them for this run
    expect(before.filter((t) => typeof t === 'string')).toEqual([]);
    await compileScripts(ROOT);
    expect(bundleTimes()).toEqual(before);
    expect(statSync(join(ROOT, 'out/test-scripts/inputs.json')).isFile()).toBe(true);
  });
});
