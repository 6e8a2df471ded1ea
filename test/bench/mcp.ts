/**
 * The MCP server: tools/call of a function tool over MCP (Streamable HTTP) against REST invoke of
 * the same tool on the same host (goal: MCP ≤ 1.3× REST at p50), and against the engine;
 * tools/list with 10,000 enabled tools (goal ≤ 50 ms) against building the same list's JSON; and
 * list_changed latency after a toggle made by another process through the watcher (goal p95 ≤
 * 500 ms) against the time the toggle's own REST call takes.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { v7 as uuidv7 } from 'uuid';
import { startHost } from '../helpers/host.js';
import { quantile, row } from './util.js';

const CORE = '0190a000-0000-7000-8000-00000000c0e0';
const BIN = join(import.meta.dirname, '../../bin/toolwright.js');

async function interleaved(n: number, a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number[], number[]]> {
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < n + 100; i++) {
    for (const side of i % 2 ? ['a', 'b'] : ['b', 'a']) {
      const t0 = performance.now();
      await (side === 'a' ? a() : b());
      if (i >= 100) (side === 'a' ? as : bs).push(performance.now() - t0);
    }
  }
  return [as, bs];
}

export async function run(): Promise<void> {
  const h = await startHost();
  try {
    await h.api('PATCH', '/tools/config', { limits: { maxCallsPerMinute: 100000, maxOutputBytes: 16384 } });
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }));
    const args = { expression: '2 * (3 + 4) ^ 2 / sqrt(16)' };
    const [mcp, rest] = await interleaved(
      1000,
      () => client.callTool({ name: 'calc', arguments: args }),
      () => h.api('POST', `/tools/bundles/${CORE}/tools/calc/version/v1/invoke`, { args }),
    );
    console.log(row('tools/call over MCP vs REST invoke, p50', quantile(mcp, 0.5), quantile(rest, 0.5)));
    console.log(row('tools/call over MCP vs REST invoke, p95', quantile(mcp, 0.95), quantile(rest, 0.95)));
    const [, engine] = await interleaved(
      300,
      () => client.callTool({ name: 'calc', arguments: args }),
      () => h.core.invocations.invoke({ bundleID: CORE, slug: 'calc', version: 'v1' }, { args }),
    );
    console.log(row('tools/call over MCP vs the engine alone, p50', quantile(mcp, 0.5), quantile(engine, 0.5)));

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
    const lists: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < 30; i++) {
      let t0 = performance.now();
      const { tools } = await client.listTools();
      lists.push(performance.now() - t0);
      t0 = performance.now();
      JSON.parse(JSON.stringify({ tools }));
      plain.push(performance.now() - t0);
    }
    console.log(row('tools/list, 10,009 tools, p50 (vs JSON round trip)', quantile(lists, 0.5), quantile(plain, 0.5)));
    await client.close();

    // list_changed across processes: a stdio server (its own process, watching the folder).
    const stdio = new Client({ name: 'bench-stdio', version: '1' });
    await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--data-dir', h.dataDir, 'mcp'], stderr: 'ignore' }));
    const latencies: number[] = [];
    const toggles: number[] = [];
    for (let i = 0; i < 20; i++) {
      const seen = new Promise<number>((resolve) => stdio.setNotificationHandler('notifications/tools/list_changed', () => resolve(performance.now())));
      const t0 = performance.now();
      await h.api('PATCH', `/tools/bundles/${CORE}/tools/calc/version/v1`, { isEnabled: i % 2 === 1 });
      toggles.push(performance.now() - t0);
      latencies.push((await seen) - t0);
    }
    console.log(row('list_changed after a toggle in another process, p95', quantile(latencies, 0.95), quantile(toggles, 0.95)));
    await stdio.close();
  } finally {
    await h.close();
    await rm(h.dataDir, { recursive: true, force: true }).catch(() => undefined);
  }
}
