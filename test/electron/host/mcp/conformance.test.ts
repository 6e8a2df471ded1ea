/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12, a
 * devDependency under the alias conformance-2026) against /mcp of the headless host, once per
 * protocol era: every server scenario the suite requires of 2025-11-25 and of 2026-07-28
 * (`--requirements`, which also runs the not-scored ones). The scenarios call diagnostic tools by
 * name; conformance/fixture-tools.json makes them ordinary Toolwright tools, so each scenario
 * meets Toolwright's own behaviour (a privileged tool asks for an approval, an argument error is
 * an isError result, a card travels as an embedded resource). What Toolwright cannot honestly
 * offer (image and audio results, sampling, the suite's own test:// resources and prompts) is in
 * conformance/expected-failures.<era>.yaml, each with its reason; the suite fails the run on a
 * failure not listed there and on a listed one that passes.
 *
 * The suite has no stdio mode (`server --url` only); stdio in both eras is covered by the
 * SDK-client tests and inspector.test.ts. Its client sends no token, so a loopback proxy adds the
 * bearer token and passes every other header (the Host of the DNS-rebinding scenario) as is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { tempDir } from '../../../helpers/store.js';

const SUITE_PACKAGE = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance-2026/package.json');
const SUITE = join(dirname(SUITE_PACKAGE), 'dist/index.js');
const HERE = join(import.meta.dirname, 'conformance');
const ERAS = ['2025-11-25', '2026-07-28'] as const;

/**
 * server-stateless is an expected failure as a whole (see the 2026 yaml), so its other checks are
 * checked here: each must pass, except these. Two wait only 500-600 ms for the first frame of a
 * tools/call, which a loaded 2-core machine misses; they may time out but never find the fault.
 */
const SERVER_STATELESS_TOLERATED: Record<string, RegExp> = {
  'sep-2575-server-rejects-undeclared-capability': /does not list the diagnostic tool 'test_missing_capability'/,
  'sep-2575-missing-capability-http-400': /does not list the diagnostic tool 'test_missing_capability'/,
  'sep-2575-server-sends-tools-list-changed-on-subscription': /no notifications\/tools\/list_changed arrived/,
  'sep-2575-server-sends-prompts-list-changed-on-subscription': /^$/,
  'sep-2575-http-server-no-independent-requests-on-stream': /^Failed to receive progressive stream chunk/,
  'sep-2575-server-no-log-without-loglevel': /^Logging target endpoint context dropped/,
};

let h: TestHost;
let proxy: Server;
let proxyPort: number;

beforeAll(async () => {
  h = await startHost();
  await h.api('PATCH', '/tools/config', { approvalTimeoutSeconds: 20 });
  const bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'conformance', displayName: 'Conformance fixtures' });
  const fixture = JSON.parse(await readFile(join(HERE, 'fixture-tools.json'), 'utf8')) as { tools: Record<string, unknown> };
  for (const [name, body] of Object.entries(fixture.tools)) {
    // Slugs allow letters, digits and '-'; an agent name turns any other letter into '_' (agent-tools.ts),
    // so a dotless ı between the words gives the scenario's snake_case name.
    const slug = name.replaceAll('_', 'ı');
    const put = await h.api('PUT', `/tools/bundles/${bundleID}/tools/${slug}/version/v1`, body);
    expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
  }

  proxy = createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${h.token}` };
    const own = [`localhost:${proxyPort}`, `127.0.0.1:${proxyPort}`];
    if (own.includes(String(headers.host))) headers.host = `127.0.0.1:${h.port}`;
    if (headers.origin && own.includes(String(headers.origin).replace(/^http:\/\//, ''))) headers.origin = `http://127.0.0.1:${h.port}`;
    const upstream = request({ host: '127.0.0.1', port: h.port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyPort = (proxy.address() as AddressInfo).port;
}, 60_000);

afterAll(async () => {
  if (proxy) {
    proxy.closeAllConnections();
    await new Promise((r) => proxy.close(r));
  }
  await h?.close();
});

function runSuite(era: string, outputDir: string): Promise<{ code: number; output: string }> {
  const args = [SUITE, 'server', '--url', `http://localhost:${proxyPort}/mcp`, '--requirements', era];
  args.push('--expected-failures', join(HERE, `expected-failures.${era}.yaml`), '--output-dir', outputDir);
  return new Promise((resolve) => {
    execFile(process.execPath, args, { timeout: 240_000, maxBuffer: 16 << 20, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

describe('MCP conformance suite (server scenarios, per protocol era)', () => {
  it.each(ERAS)(
    '%s: every required scenario passes or fails only as expected-failures says',
    async (era) => {
      const outputDir = await tempDir('tw-conformance-');
      try {
        const { code, output } = await runSuite(era, outputDir);
        const summary = output.slice(output.indexOf('=== SUMMARY ==='));
        expect(summary, output).toMatch(/Total: \d+ passed/);
        expect(summary, summary).not.toMatch(/Unexpected failures|Baseline is stale/);
        expect(code, summary).toBe(0);
        if (era === '2026-07-28') {
          const [dir] = (await readdir(outputDir)).filter((d) => d.startsWith('server-server-stateless-'));
          const checks = JSON.parse(await readFile(join(outputDir, dir!, 'checks.json'), 'utf8')) as { id: string; status: string; errorMessage?: string }[];
          expect(checks.length).toBeGreaterThan(20);
          const wrong = checks.filter((c) => c.status !== 'SUCCESS' && c.status !== 'INFO' && !SERVER_STATELESS_TOLERATED[c.id]?.test(c.errorMessage ?? ''));
          expect(wrong, JSON.stringify(wrong, null, 2)).toEqual([]);
        }
      } finally {
        await rm(outputDir, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
