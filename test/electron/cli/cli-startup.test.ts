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

// The core's heavy packages: the REST host, the MCP SDK (server and upstream client), the Docker
// client, undici, and the tokenizer that counts context costs.
const CORE_PACKAGES = /^(fastify|@fastify\/|@modelcontextprotocol\/|dockerode|undici|gpt-tokenizer)/;

describe('CLI start-up', () => {
  it.each([['help'], ['--version'], ['no-such-command']])(
    '`toolwright %s` loads commander and none of the core',
    async (command) => {
      const dataDir = await tempDir('tw-cli-startup-');
      const { code, stdout, stderr, packages } = await runReportingPackages([...toolwrightArgs(), '--data-dir', dataDir, command]);
      expect(code, stderr).toBe(command === 'no-such-command' ? 2 : 0);
      expect(stdout + stderr).toMatch(command === 'help' ? /Usage: toolwright/ : command === '--version' ? /0\.1\.0/ : /unknown command 'no-such-command'/);
      expect(packages).toContain('commander');
      expect(packages.filter((p) => CORE_PACKAGES.test(p))).toEqual([]);
    },
    60_000,
  );

  it('`toolwright ls` does not load the tokenizer (context costs are not counted in the background)', async () => {
    const dataDir = await tempDir('tw-cli-startup-');
    const { code, stdout, stderr, packages } = await runReportingPackages([...toolwrightArgs(), '--data-dir', dataDir, '--json', 'ls']);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('"slug": "calc"');
    expect(packages.filter((p) => p.startsWith('gpt-tokenizer'))).toEqual([]);
  }, 60_000);

  it('a command that opens the store loads neither the REST host, the MCP server nor the Swagger 2.0 converter', async () => {
    const dataDir = await tempDir('tw-cli-startup-');
    const { code, stdout, stderr, packages } = await runReportingPackages([...toolwrightArgs(), '--data-dir', dataDir, 'ls']);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('core/calc@v1');
    expect(packages).toContain('commander');
    expect(packages.filter((p) => /^(fastify|@fastify\/|@modelcontextprotocol\/(server|node)|swagger2openapi)/.test(p))).toEqual([]);
  }, 60_000);

  it('`toolwright ls` loads none of the packages of tools it does not run nor of transfers (Docker, upstream MCP, HTTP, zip, YAML, OpenAPI)', async () => {
    const dataDir = await tempDir('tw-cli-startup-');
    const { code, stdout, stderr, packages } = await runReportingPackages([...toolwrightArgs(), '--data-dir', dataDir, 'ls']);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('core/calc@v1');
    const unneeded = /^(dockerode|tar-stream|@modelcontextprotocol\/|undici|yaml|yauzl|yazl|@openapi-contrib\/|@sinclair\/typebox\/value)/;
    expect(packages.filter((p) => unneeded.test(p))).toEqual([]);
  }, 60_000);

  it("processes a test run starts keep Node's compiled code in the run's cache", () => {
    const dir = execFileSync(process.execPath, ['-e', "process.stdout.write(require('node:module').getCompileCacheDir() ?? 'none')"], { encoding: 'utf8' });
    // Node adds a folder per Node version below the one it is given.
    expect(dir.startsWith(join(ROOT, 'out/compile-cache') + '/'), dir).toBe(true);
  });
});
