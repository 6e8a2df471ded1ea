/**
 * The MCP server, in both protocol eras (a 2025-11-25 session and 2026-07-28 stateless requests),
 * each figure beside its baseline from the same run:
 * - tools/call of a function tool through the SDK's client against REST invoke of the same tool
 *   on the same host (goal: MCP ≤ 1.2× REST at p50), and against the engine alone;
 * - tools/list with 10,000 enabled tools at the server, through a raw HTTP client so no client
 *   library's parsing is counted (goal p95 ≤ 50 ms), against a bare JSON.stringify of the list;
 * - list_changed after a toggle made by another process, heard by a stdio server (its own
 *   process, watching the folder) on its stream (2025) or its subscriptions/listen (2026) (goal
 *   p95 ≤ 500 ms), against the time the toggle's own REST call takes.
 */
import { Agent } from 'node:http';
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

/** tools/list by raw HTTP in one era: a function that lists once and gives the answer's text. */
async function rawLister(h: TestHost, era: '2025' | '2026', agent: Agent): Promise<() => Promise<string>> {
  const url = `${h.url}/mcp`;
  const auth = { authorization: `Bearer ${h.token}` };
  let id = 0;
  if (era === '2026') {
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
      'io.modelcontextprotocol/clientInfo': { name: 'bench-raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const headers = { ...auth, 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'tools/list' };
    return async () => {
      const res = await rawPost(url, agent, headers, { jsonrpc: '2.0', id: ++id, method: 'tools/list', params: { _meta } });
      if (res.status !== 200) throw new Error(`tools/list answered ${res.status}: ${res.text.slice(0, 200)}`);
      return res.text;
    };
  }
  const init = await rawPost(url, agent, auth, {
    jsonrpc: '2.0',
    id: ++id,
    method: 'initialize',
    params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'bench-raw', version: '1' } },
  });
  const session = init.headers['mcp-session-id'] as string;
  const headers = { ...auth, 'mcp-session-id': session, 'mcp-protocol-version': LEGACY_VERSION };
  await rawPost(url, agent, headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
  return async () => {
    const res = await rawPost(url, agent, headers, { jsonrpc: '2.0', id: ++id, method: 'tools/list', params: {} });
    if (res.status !== 200) throw new Error(`tools/list answered ${res.status}: ${res.text.slice(0, 200)}`);
    return res.text;
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
    const rest = () => h.api('POST', `/tools/bundles/${CORE}/tools/calc/version/v1/invoke`, { args });
    for (const era of ERAS) {
      const client = new Client({ name: `bench-${era.label}`, version: '1' }, era.options);
      await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }));
      const call = () => client.callTool({ name: 'calc', arguments: args });
      const [mcp, restTimes] = await interleaved(1000, call, rest);
      console.log(row(`${era.label} tools/call vs REST invoke, p50`, quantile(mcp, 0.5), quantile(restTimes, 0.5)));
      console.log(row(`${era.label} tools/call vs REST invoke, p95`, quantile(mcp, 0.95), quantile(restTimes, 0.95)));
      const [mcpAgain, engine] = await interleaved(300, call, () => h.core.invocations.invoke({ bundleID: CORE, slug: 'calc', version: 'v1' }, { args }));
      console.log(row(`${era.label} tools/call vs the engine alone, p50`, quantile(mcpAgain, 0.5), quantile(engine, 0.5)));
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
    for (const era of ['2025', '2026'] as const) {
      const list = await rawLister(h, era, agent);
      const first = await list(); // the first answer after the change builds what later ones reuse
      // The baseline: serialising the same answer once more, what a server without a cache does per request.
      const answer: unknown = JSON.parse(first.startsWith('{') ? first : (/^data: (.*)$/m.exec(first)?.[1] ?? 'null'));
      const lists: number[] = [];
      const plain: number[] = [];
      for (let i = 0; i < 40; i++) {
        let t0 = performance.now();
        await list();
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
