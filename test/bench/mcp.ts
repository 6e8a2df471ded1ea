/**
 * The MCP server, in both protocol eras (a 2025-11-25 session and 2026-07-28 stateless requests),
 * each figure beside its baseline from the same run:
 * - tools/call of a function tool against REST invoke of the same tool on the same host (goal: MCP
 *   ≤ 1.2× REST at p50): by a raw HTTP client for both (the servers' cost, nothing parsed), and by
 *   the SDK's client against fetch (what an agent sees, the SDK client's own work included); and
 *   against the engine alone;
 * - tools/list with 10,000 enabled tools at the server: time to the last byte by a raw HTTP client
 *   that drops the bytes as they come, so no client's buffering or parsing is counted (goal p95
 *   ≤ 50 ms), against a bare JSON.stringify of the list;
 * - list_changed after a toggle made by another process, heard by a stdio server (its own
 *   process, watching the folder) on its stream (2025) or its subscriptions/listen (2026) (goal
 *   p95 ≤ 500 ms), against the time the toggle's own REST call takes.
 */
import { Agent, request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../helpers/host.js';
import { interleaved, quantile, rawPost, row } from './util.js';

const CORE = '0190a000-0000-7000-8000-00000000c0e0';
const BIN = join(import.meta.dirname, '../../bin/toolwright.js');
const MODERN_VERSION = '2026-07-28';
const LEGACY_VERSION = '2025-11-25';

const ERAS = [
  { label: '2025', options: {} },
  { label: '2026', options: { versionNegotiation: { mode: { pin: MODERN_VERSION } } } },
] as const;

/** A POST whose answer's bytes are dropped as they arrive: resolves with the status at the last byte. */
function postDiscarding(url: string, agent: Agent, headers: Record<string, string>, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

interface RawEra {
  /** One request answered in full, its text kept (for checks and the baseline). */
  text(method: string, params: Record<string, unknown>, headers?: Record<string, string>): Promise<string>;
  /** One request, its answer's bytes dropped: what the server takes to the last byte. */
  discard(method: string, params: Record<string, unknown>, headers?: Record<string, string>): Promise<void>;
}

/** A raw HTTP client of one era: a 2026 envelope and headers on every request, or a 2025 session. */
async function rawEra(h: TestHost, era: '2025' | '2026', agent: Agent): Promise<RawEra> {
  const url = `${h.url}/mcp`;
  const auth = { authorization: `Bearer ${h.token}` };
  let id = 0;
  let base: Record<string, string>;
  let envelope: (params: Record<string, unknown>) => Record<string, unknown>;
  let perMethod: (method: string) => Record<string, string> = () => ({});
  if (era === '2026') {
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
      'io.modelcontextprotocol/clientInfo': { name: 'bench-raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    base = { ...auth, 'mcp-protocol-version': MODERN_VERSION };
    envelope = (params) => ({ ...params, _meta });
    perMethod = (method) => ({ 'mcp-method': method });
  } else {
    const init = await rawPost(url, agent, auth, {
      jsonrpc: '2.0',
      id: ++id,
      method: 'initialize',
      params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'bench-raw', version: '1' } },
    });
    base = { ...auth, 'mcp-session-id': init.headers['mcp-session-id'] as string, 'mcp-protocol-version': LEGACY_VERSION };
    await rawPost(url, agent, base, { jsonrpc: '2.0', method: 'notifications/initialized' });
    envelope = (params) => params;
  }
  const message = (method: string, params: Record<string, unknown>) => ({ jsonrpc: '2.0', id: ++id, method, params: envelope(params) });
  return {
    async text(method, params, headers = {}) {
      const res = await rawPost(url, agent, { ...base, ...perMethod(method), ...headers }, message(method, params));
      if (res.status !== 200) throw new Error(`${method} answered ${res.status}: ${res.text.slice(0, 200)}`);
      return res.text;
    },
    async discard(method, params, headers = {}) {
      const status = await postDiscarding(url, agent, { ...base, ...perMethod(method), ...headers }, message(method, params));
      if (status !== 200) throw new Error(`${method} answered ${status}`);
    },
  };
}

export async function run(): Promise<void> {
  console.log(
    `  load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  const h = await startHost();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await h.api('PATCH', '/tools/config', { limits: { maxCallsPerMinute: 100000, maxOutputBytes: 16384 } });
    const args = { expression: '2 * (3 + 4) ^ 2 / sqrt(16)' };
    const invokePath = `/tools/bundles/${CORE}/tools/calc/version/v1/invoke`;
    const rest = () => h.api('POST', invokePath, { args });
    const rawRest = async () => {
      const status = await postDiscarding(`${h.url}${invokePath}`, agent, { authorization: `Bearer ${h.token}` }, { args });
      if (status !== 200) throw new Error(`REST invoke answered ${status}`);
    };
    for (const era of ['2025', '2026'] as const) {
      const raw = await rawEra(h, era, agent);
      const answer = await raw.text('tools/call', { name: 'calc', arguments: args }, { 'mcp-name': 'calc' });
      if (!answer.includes('24.5') || answer.includes('"isError":true')) throw new Error(`tools/call did not run calc: ${answer.slice(0, 200)}`);
      const rawCall = () => raw.discard('tools/call', { name: 'calc', arguments: args }, { 'mcp-name': 'calc' });
      const [mcp, restTimes] = await interleaved(1000, rawCall, rawRest);
      console.log(row(`${era} tools/call vs REST, raw client, p50`, quantile(mcp, 0.5), quantile(restTimes, 0.5)));
      console.log(row(`${era} tools/call vs REST, raw client, p95`, quantile(mcp, 0.95), quantile(restTimes, 0.95)));
    }
    for (const era of ERAS) {
      const client = new Client({ name: `bench-${era.label}`, version: '1' }, era.options);
      await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }));
      const call = () => client.callTool({ name: 'calc', arguments: args });
      const [mcp, restTimes] = await interleaved(1000, call, rest);
      console.log(row(`${era.label} tools/call vs REST, SDK client, p50`, quantile(mcp, 0.5), quantile(restTimes, 0.5)));
      console.log(row(`${era.label} tools/call vs REST, SDK client, p95`, quantile(mcp, 0.95), quantile(restTimes, 0.95)));
      const [mcpAgain, engine] = await interleaved(300, call, () => h.core.invocations.invoke({ bundleID: CORE, slug: 'calc', version: 'v1' }, { args }));
      console.log(row(`${era.label} tools/call (SDK client) vs engine, p50`, quantile(mcpAgain, 0.5), quantile(engine, 0.5)));
      await client.close();
    }

    // 10,000 enabled tools, written straight through the store's services.
    const bundleID = uuidv7();
    await h.core.bundles.put(bundleID, { slug: 'many' });
    for (let i = 0; i < 10_000; i++) {
      await h.core.tools.create(
        { bundleID, slug: `tool-${i}`, version: 'v1' },
        {
          type: 'function',
          displayName: `Tool ${i}`,
          description: `Tool number ${i}`,
          impl: { function: 'core.uuid' },
          argSchema: { type: 'object', properties: {} },
        },
      );
    }
    console.log('  tools/list: time to the last byte at a raw client that drops the bytes as they come');
    for (const era of ['2025', '2026'] as const) {
      const raw = await rawEra(h, era, agent);
      const first = await raw.text('tools/list', {}); // the first answer after the change builds what later ones reuse
      // The baseline: serialising the same answer once more, what a server without a cache does per request.
      const answer: unknown = JSON.parse(first.startsWith('{') ? first : (/^data: (.*)$/m.exec(first)?.[1] ?? 'null'));
      const lists: number[] = [];
      const plain: number[] = [];
      for (let i = 0; i < 40; i++) {
        let t0 = performance.now();
        await raw.discard('tools/list', {});
        lists.push(performance.now() - t0);
        t0 = performance.now();
        JSON.stringify(answer);
        plain.push(performance.now() - t0);
      }
      const mb = (Buffer.byteLength(first) / 1e6).toFixed(1);
      console.log(row(`${era} tools/list 10,009 (${mb} MB) p50 vs stringify`, quantile(lists, 0.5), quantile(plain, 0.5)));
      console.log(row(`${era} tools/list 10,009 (${mb} MB) p95 vs stringify`, quantile(lists, 0.95), quantile(plain, 0.95)));
    }

    // list_changed across processes: a stdio server in its own process, watching the folder.
    for (const era of ERAS) {
      const stdio = new Client({ name: `bench-stdio-${era.label}`, version: '1' }, era.options);
      await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--data-dir', h.dataDir, 'mcp'], stderr: 'ignore' }));
      if (era.label === '2026') await stdio.listen({ toolsListChanged: true });
      const latencies: number[] = [];
      const toggles: number[] = [];
      for (let i = 0; i < 20; i++) {
        const seen = new Promise<number>((resolve) => stdio.setNotificationHandler('notifications/tools/list_changed', () => resolve(performance.now())));
        const t0 = performance.now();
        await h.api('PATCH', `/tools/bundles/${CORE}/tools/calc/version/v1`, { isEnabled: i % 2 === 1 });
        toggles.push(performance.now() - t0);
        latencies.push((await seen) - t0);
      }
      console.log(row(`${era.label} list_changed, other process, p95 vs toggle`, quantile(latencies, 0.95), quantile(toggles, 0.95)));
      await stdio.close();
    }
  } finally {
    agent.destroy();
    await h.close();
    await rm(h.dataDir, { recursive: true, force: true }).catch(() => undefined);
  }
  console.log(
    `  load average at end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
}
