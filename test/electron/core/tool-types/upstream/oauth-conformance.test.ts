/**
 * Signing in to remote servers as the spec's reference clients do (issue 32, point 6): the
 * official MCP conformance suite's client scenarios, with Toolwright's upstream client driven
 * through its CLI by test/helpers/conformance-client.ts (add-server --url, authorize with the link
 * followed, sync, enable, run). The suite starts its own MCP and authorization servers per
 * scenario and checks every request Toolwright makes of them.
 *
 * npm test runs the scenarios Toolwright failed before (the authorization server's metadata at a
 * path-inserted OpenID location, reached through a protected-resource document named only in
 * the challenge; a URL-based client ID; the challenge's scope and a step-up to a larger scope on
 * a 403; a pre-registered client where the server allows no registration; a 2025-03-26 server
 * with its metadata at its root, or none at all, and no protected-resource document), each at the suite's
 * default protocol version. `npm run test:oauth-conformance` runs every client scenario of
 * the brief in both suite versions (@modelcontextprotocol/conformance 0.1.16 and 0.2.0-alpha.12)
 * and at 2025-03-26 and 2026-07-28 too: a scenario takes 10-40 s, the whole a quarter of an hour.
 */
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { nodeArgsFor } from '../../../../helpers/procs.js';
import { tempDir } from '../../../../helpers/store.js';

const require = createRequire(import.meta.url);
const SUITES = {
  '0.2': join(dirname(require.resolve('@modelcontextprotocol/conformance-2026/package.json')), 'dist/index.js'),
  '0.1': join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js'),
} as const;

const FIXED = [
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-step-up',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
];
const ALL = [
  'initialize',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
];
const LEGACY = ['auth/2025-03-26-oauth-metadata-backcompat', 'auth/2025-03-26-oauth-endpoint-fallback'];
/**
 * Suite 0.1.16's backcompat scenario serves root metadata whose `issuer` is `…/oauth`, not the
 * URL it was fetched for: the SDK refuses it (RFC 8414 §3.3, a mix-up defence Toolwright keeps);
 * suite 0.2 fixed the scenario, and runs it.
 */
const SUITE_01_WRONG = ['auth/2025-03-26-oauth-metadata-backcompat'];

interface Run {
  suite: keyof typeof SUITES;
  scenario: string;
  specVersion?: string;
}

const chosen: Run[] =
  process.env['TOOLWRIGHT_OAUTH_CONFORMANCE'] === 'all'
    ? [
        ...[...ALL, ...LEGACY].map((scenario) => ({ suite: '0.2' as const, scenario })),
        ...LEGACY.map((scenario) => ({ suite: '0.2' as const, scenario, specVersion: '2025-03-26' })),
        ...ALL.filter((s) => s !== 'initialize').map((scenario) => ({ suite: '0.2' as const, scenario, specVersion: '2026-07-28' })),
        ...[...ALL, ...LEGACY].filter((s) => !SUITE_01_WRONG.includes(s)).map((scenario) => ({ suite: '0.1' as const, scenario })),
      ]
    : FIXED.map((scenario) => ({ suite: '0.2' as const, scenario }));
const runs = chosen.map((run) => ({ ...run, name: `${run.scenario} (suite ${run.suite}, ${run.specVersion ?? 'its default version'})` }));

interface Check {
  id: string;
  status: string;
  description?: string;
}

function runScenario(run: Run, outputDir: string): Promise<{ code: number; output: string }> {
  const command = [process.execPath, ...nodeArgsFor('test/helpers/conformance-client.ts')].join(' ');
  const args = [SUITES[run.suite], 'client', '--command', command, '--scenario', run.scenario, '--timeout', '240000', '--output-dir', outputDir];
  if (run.specVersion) args.push('--spec-version', run.specVersion);
  return new Promise((resolve) => {
    execFile(process.execPath, args, { timeout: 280_000, maxBuffer: 16 << 20, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

async function checksOf(outputDir: string): Promise<{ checks: Check[]; clientLog: string }> {
  for (const entry of await readdir(outputDir, { recursive: true, withFileTypes: true })) {
    if (entry.name !== 'checks.json') continue;
    const checks = JSON.parse(await readFile(join(entry.parentPath, entry.name), 'utf8')) as Check[];
    const clientLog = await readFile(join(entry.parentPath, 'stderr.txt'), 'utf8').catch(() => '');
    return { checks, clientLog };
  }
  return { checks: [], clientLog: '' };
}

describe('the MCP conformance suite, client scenarios, through the toolwright CLI', () => {
  it.each(runs)(
    '$name',
    async (run) => {
      const outputDir = await tempDir('tw-oauth-conformance-');
      try {
        const { code, output } = await runScenario(run, outputDir);
        if (/SKIPPED: scenario/.test(output)) return;
        const { checks, clientLog } = await checksOf(outputDir);
        const wrong = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
        expect(wrong, `${JSON.stringify(wrong, null, 2)}\n${clientLog.slice(-4000)}`).toEqual([]);
        expect(checks.length, output.slice(-2000)).toBeGreaterThan(0);
        expect(output, clientLog.slice(-4000)).toMatch(/OVERALL: PASSED/);
        expect(code).toBe(0);
      } finally {
        await rm(outputDir, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
