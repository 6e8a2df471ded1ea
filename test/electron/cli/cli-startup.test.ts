/**
 * What a CLI process costs to start, since the tests start hundreds: it loads only the packages
 * of the command it runs, and Node reuses compiled code between the processes of a test run.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from '../../helpers/store.js';
import { ROOT, toolwrightArgs } from '../../helpers/procs.js';
import { runReportingPackages } from '../../helpers/loaded-packages.js';

describe('CLI start-up', () => {
  it('a command that opens the store loads neither the REST host, the MCP server nor the Swagger 2.0 converter', async () => {
    const dataDir = await tempDir('tw-cli-startup-');
    const { code, stdout, stderr, packages } = await runReportingPackages([...toolwrightArgs(), '--data-dir', dataDir, 'ls']);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('core/calc@v1');
    expect(packages).toContain('commander');
    expect(packages.filter((p) => /^(fastify|@fastify\/|@modelcontextprotocol\/(server|node)|swagger2openapi)/.test(p))).toEqual([]);
  }, 60_000);

  it("processes a test run starts keep Node's compiled code in the run's cache", () => {
    const dir = execFileSync(process.execPath, ['-e', "process.stdout.write(require('node:module').getCompileCacheDir() ?? 'none')"], { encoding: 'utf8' });
    // Node adds a folder per Node version below the one it is given.
    expect(dir.startsWith(join(ROOT, 'out/compile-cache') + '/'), dir).toBe(true);
  });
});
