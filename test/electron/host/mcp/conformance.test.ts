/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, a devDependency) against
 * /mcp of the headless host, for the server scenarios that need no special test tools. It runs on
 * the Node that runs the tests (process.execPath; Node 24 LTS, as the product). The suite's client
 * sends no token, so a loopback proxy adds the bearer token and passes every other header (the
 * Host of the DNS-rebinding scenario) as is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startHost, type TestHost } from '../../../helpers/host.js';

const SUITE_PACKAGE = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json');
const SUITE = join(dirname(SUITE_PACKAGE), 'dist/index.js');

const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'logging-set-level', 'dns-rebinding-protection'];

let h: TestHost;
let proxy: Server;
let proxyPort: number;

beforeAll(async () => {
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
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await h.close();
});

function runScenario(scenario: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [SUITE, 'server', '--url', `http://localhost:${proxyPort}/mcp`, '--scenario', scenario],
      { timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

describe('MCP conformance suite (server scenarios)', () => {
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
