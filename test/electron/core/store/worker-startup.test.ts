/**
 * The crash and race tests start dozens of writer processes (race-worker.ts) that use the store
 * alone: each loads the store's code, not the whole core, so starting one costs a fraction.
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../helpers/store.js';
import { nodeArgsFor } from '../../../helpers/procs.js';
import { runReportingPackages } from '../../../helpers/loaded-packages.js';

describe('race worker start-up', () => {
  it("a store writer does not load the core's agent-facing packages", async () => {
    const dataDir = await tempDir('tw-worker-startup-');
    const { code, stderr, packages } = await runReportingPackages([...nodeArgsFor('test/helpers/race-worker.ts'), 'publish', dataDir, 'b', '0']);
    expect(code, stderr).toBe(0);
    expect(packages).toContain('proper-lockfile');
    expect(packages.filter((p) => /^(gpt-tokenizer|@modelcontextprotocol\/|swagger2openapi|chokidar)/.test(p))).toEqual([]);
  }, 60_000);
});
