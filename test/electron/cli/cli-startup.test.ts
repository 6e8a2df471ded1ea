/**
 * What a CLI process costs to start, since the tests start hundreds: it loads only the packages
 * of the command it runs, and Node reuses compiled code between the processes of a test run.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from '../../helpers/store.js';
import { ROOT, toolwrightArgs } from '../../helpers/procs.js';

// Reports every package a process imports, on stderr (Node's in-thread module hooks).
const REPORT_PACKAGES = `data:text/javascript,${encodeURIComponent(
  `import { registerHooks } from 'node:module';
registerHooks({ resolve(specifier, context, next) {
  if (!/^(node:|[./]|file:|data:)/.test(specifier)) process.stderr.write('package ' + specifier + '\\n');
  return next(specifier, context);
} });`,
)}`;

function run(nodeArgs: string[], args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const packagesIn = (stderr: string): string[] => [...stderr.matchAll(/^package (\S+)$/gm)].map((m) => m[1]!);

describe('CLI start-up', () => {
  it('a command that opens the store loads neither the REST host nor the MCP server', async () => {
    const dataDir = await tempDir('tw-cli-startup-');
    const { code, stdout, stderr } = await run(['--import', REPORT_PACKAGES, ...toolwrightArgs()], ['--data-dir', dataDir, 'ls']);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('core/calc@v1');
    const loaded = packagesIn(stderr);
    expect(loaded).toContain('commander');
    expect(loaded.filter((p) => /^(fastify|@fastify\/|@modelcontextprotocol\/(server|node))/.test(p))).toEqual([]);
  }, 60_000);

  it("processes a test run starts keep Node's compiled code in the run's cache", async () => {
    const { stdout } = await run(['-e', "process.stdout.write(require('node:module').getCompileCacheDir() ?? 'none')"], []);
    // Node adds a folder per Node version below the one it is given.
    expect(stdout.startsWith(join(ROOT, 'out/compile-cache') + '/'), stdout).toBe(true);
  });
});
