/**
 * The gateway (issue 19): a tool of an upstream MCP server called through Toolwright (REST
 * invoke, and MCP tools/call of Toolwright's own server) against the SDK's client calling the
 * same stdio server directly (goal: p50 ≤ 1.2× + 1 ms); the cold start of a stdio server to its
 * first answered call; and the resident memory of an idle server process (to choose the idle-stop
 * default from numbers). The server is the tests' file-tools fixture, a real child process.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { v7 as uuidv7 } from 'uuid';
import { startHost } from '../helpers/host.js';
import { fmt, quantile, row } from './util.js';

const FIXTURE = join(import.meta.dirname, '../fixtures/mcp/file-tools-server.mjs');
const ECHO = {
  name: 'echo',
  description: 'Repeats',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
  annotations: { readOnlyHint: true },
};

async function rssKiB(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) : undefined;
}

async function interleaved(n: number, fns: (() => Promise<unknown>)[]): Promise<number[][]> {
  const out = fns.map(() => [] as number[]);
  for (let i = 0; i < n + 50; i++) {
    const order = i % 2 ? fns.map((_, k) => k) : fns.map((_, k) => k).reverse();
    for (const k of order) {
      const t0 = performance.now();
      await fns[k]!();
      if (i >= 50) out[k]!.push(performance.now() - t0);
    }
  }
  return out;
}

export async function run(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'tw-bench-gateway-'));
  const toolsFile = join(dir, 'tools.json');
  await writeFile(toolsFile, JSON.stringify({ tools: [ECHO] }));
  const h = await startHost();
  const direct = new Client({ name: 'bench-direct', version: '1' });
  try {
    await h.api('PATCH', '/tools/config', { limits: { maxCallsPerMinute: 100000, maxOutputBytes: 16384 } });
    const bundleID = uuidv7();
    await h.api('PUT', `/tools/bundles/${bundleID}`, {
      slug: 'files',
      source: { kind: 'mcp', transport: 'stdio', command: process.execPath, args: [FIXTURE, toolsFile] },
    });

    // Cold start: the sync starts the server, lists and records; the first call starts nothing more.
    const t0 = performance.now();
    const sync = await h.api('POST', `/tools/bundles/${bundleID}/sync`);
    const coldSync = performance.now() - t0;
    if (sync.status !== 200) throw new Error(`sync failed: ${JSON.stringify(sync.body)}`);
    await h.api('PATCH', `/tools/bundles/${bundleID}/tools/echo/version/v1`, { isEnabled: true });
    await h.api('POST', `/tools/bundles/${bundleID}/server/stop`);
    const t1 = performance.now();
    const first = await h.api('POST', `/tools/bundles/${bundleID}/tools/echo/version/v1/invoke`, { args: { message: 'cold' } });
    const coldCall = performance.now() - t1;
    if (!first.body.ok) throw new Error(`first call failed: ${JSON.stringify(first.body)}`);
    console.log(`  cold start of the stdio server: sync ${fmt(coldSync)} (start, list, record), first call after a stop ${fmt(coldCall)}`);

    await direct.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE, toolsFile], stderr: 'pipe' }));
    const agent = new Client({ name: 'bench-agent', version: '1' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${h.url}/mcp?bundles=files`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }),
    );
    const args = { message: 'hello' };
    const [rest, mcp, base] = await interleaved(500, [
      () => h.api('POST', `/tools/bundles/${bundleID}/tools/echo/version/v1/invoke`, { args }),
      () => agent.callTool({ name: 'echo', arguments: args }),
      () => direct.callTool({ name: 'echo', arguments: args }),
    ]);
    console.log(row('tools/call via Toolwright REST vs the SDK client direct, p50', quantile(rest!, 0.5), quantile(base!, 0.5)));
    console.log(row('tools/call via Toolwright MCP (2025) vs direct, p50', quantile(mcp!, 0.5), quantile(base!, 0.5)));
    console.log(row('tools/call via Toolwright REST vs direct, p95', quantile(rest!, 0.95), quantile(base!, 0.95)));
    await agent.close();

    const pid = (await h.api('GET', `/tools/bundles/${bundleID}/server`)).body.pid as number | undefined;
    const rss = pid ? await rssKiB(pid) : undefined;
    const hostRss = Math.round(process.memoryUsage().rss / 1024);
    console.log(
      `  resident memory of the idle server process: ${rss ? `${(rss / 1024).toFixed(1)} MiB` : 'n/a'} (this process, host included: ${(hostRss / 1024).toFixed(0)} MiB)`,
    );
  } finally {
    await direct.close().catch(() => undefined);
    await h.close();
  }
}
