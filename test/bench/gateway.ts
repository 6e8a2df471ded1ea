/**
 * The gateway (issues 19 and 32): the hop's cost — `echo` of an upstream stdio server called
 * through Toolwright (REST invoke, and tools/call of Toolwright's own MCP server in both protocol
 * eras) against the SDK's client calling the same server directly, interleaved, p50 beside the
 * goal (≤ 1.2× + 1 ms); the cold start of a stdio server to its first answered call; the resident
 * memory of an idle server process (to choose the idle-stop default from numbers); and tools/list
 * through Toolwright's MCP endpoint with 20 upstream servers of 50 tools each connected (goal:
 * p95 ≤ 50 ms, served from the store, no server asked) beside the SDK client listing one such
 * server directly. The servers are the tests' file-tools fixture, real child processes. The
 * machine's load is printed before and after: the figures mean little on a busy machine.
 *
 * The host is measured as shipped: `electron/host/serve.ts` in a process of its own (as `npm run
 * serve` starts it and as an agent meets it), the agents' clients (fetch, node:http, the SDK's
 * client in both eras) and the direct SDK client in this process, with no host inside it. Until
 * 2026-11-29 the whole host ran in this process beside the clients: then the host's work after an
 * answer (history, hooks, flushes, its GC) ran on the clients' thread before they could read the
 * answer, and the host's heap and timers slowed the direct call too. That former shape is kept as
 * a second, labelled set (BENCH_GATEWAY_IN_PROCESS=0 leaves it out), so the change of method
 * stays visible. Besides wall times the bench prints the CPU per call of this process (the
 * clients) and of the host's main thread (`/proc/<pid>/schedstat`), which load distorts less.
 *
 * BENCH_GATEWAY_CALLS sets the measured calls per path (default 50, as issue 32 counts them,
 * after 30 uncounted); BENCH_GATEWAY_LIST=0 leaves out the 20-server tools/list (to repeat the
 * hop's figures quickly).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../helpers/host.js';
import { startHostProcess } from './gateway/host-process.js';
import { addEchoServer, ECHO, echoServerCommand } from './gateway/echo-server.js';
import { plainHttpClient } from './gateway/plain-http.js';
import { fmt, quantile, row } from './util.js';

async function rssKiB(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) : undefined;
}

/** What the bench needs of a host, in its own process or in this one. */
interface BenchHost {
  url: string;
  token: string;
  api: TestHost['api'];
  /** The host's main thread's CPU so far (ms), when the host is a process of its own. */
  mainThreadMs?: () => number;
  pid?: number;
  close(): Promise<void>;
}

async function openHost(inProcess: boolean): Promise<BenchHost> {
  if (inProcess) return startHost();
  // BENCH_GATEWAY_HOST_NODE_OPTIONS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/x`): node options of the host process, to profile it.
  const nodeOptions = process.env['BENCH_GATEWAY_HOST_NODE_OPTIONS']?.split(' ').filter(Boolean);
  const h = await startHostProcess(nodeOptions ? { nodeOptions } : {});
  return { url: h.url, token: h.token, api: h.api, mainThreadMs: h.mainThreadMs, pid: h.child.pid!, close: h.close };
}

/**
 * Each call's wall time, and the CPU spent on it (ms) by this process (`cpu`) and by the host's
 * main thread (`hostCpu`, read from outside), which a busy machine distorts far less.
 */
async function interleaved(
  n: number,
  fns: (() => Promise<unknown>)[],
  warmup = 30,
  cpu?: number[][],
  hostCpu?: { read: () => number; out: number[][] },
): Promise<number[][]> {
  const out = fns.map(() => [] as number[]);
  for (let i = 0; i < n + warmup; i++) {
    const order = i % 2 ? fns.map((_, k) => k) : fns.map((_, k) => k).reverse();
    for (const k of order) {
      const h0 = i >= warmup ? hostCpu?.read() : undefined;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await fns[k]!();
      if (i < warmup) continue;
      out[k]!.push(performance.now() - t0);
      const used = process.cpuUsage(c0);
      cpu?.[k]?.push((used.user + used.system) / 1000);
      if (hostCpu && h0 !== undefined) hostCpu.out[k]!.push(hostCpu.read() - h0);
    }
  }
  return out;
}

const CALLS = Number(process.env['BENCH_GATEWAY_CALLS'] ?? 50);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const mean = (s: number[]) => s.reduce((a, b) => a + b, 0) / s.length;

/** A p50 beside the direct call's and the goal ≤ 1.2× + 1 ms, met or missed. */
function hopRow(label: string, ours: number[], base: number[]): string {
  const p50 = quantile(ours, 0.5);
  const direct = quantile(base, 0.5);
  const goal = 1.2 * direct + 1;
  return `${row(label, p50, direct)}   goal ≤ ${fmt(goal)}: ${p50 <= goal ? 'met' : 'MISSED'}`;
}

const SERVERS = 20;
const TOOLS_PER_SERVER = 50;

/** tools/list of Toolwright's /mcp with SERVERS upstream servers of TOOLS_PER_SERVER tools each, all running. */
async function manyServers(dir: string): Promise<void> {
  const h = await openHost(false);
  const direct = new Client({ name: 'bench-direct', version: '1' });
  const agent = new Client({ name: 'bench-agent', version: '1' });
  try {
    const toolsFile = join(dir, 'fifty.json');
    const tools = Array.from({ length: TOOLS_PER_SERVER }, (_, i) => ({
      ...ECHO,
      name: `tool_${i}`,
      description: `Tool number ${i} of a server with many tools; it repeats what it is given`,
    }));
    await writeFile(toolsFile, JSON.stringify({ tools }));
    const bundleIDs: string[] = [];
    for (let s = 0; s < SERVERS; s++) {
      const bundleID = uuidv7();
      bundleIDs.push(bundleID);
      await h.api('PUT', `/tools/bundles/${bundleID}`, {
        slug: `server-${s}`,
        source: { kind: 'mcp', transport: 'stdio', ...echoServerCommand(toolsFile) },
      });
    }
    const t0 = performance.now();
    await Promise.all(
      bundleIDs.map(async (id) => {
        const sync = await h.api('POST', `/tools/bundles/${id}/sync`);
        if (sync.status !== 200) throw new Error(`sync failed: ${JSON.stringify(sync.body)}`);
      }),
    );
    const syncAll = performance.now() - t0;
    for (const id of bundleIDs) {
      const items = (await h.api('GET', `/tools/tools?bundleIDs=${id}&includeDisabled=true&limit=${TOOLS_PER_SERVER}`)).body.items as { slug: string }[];
      for (const t of items) await h.api('PATCH', `/tools/bundles/${id}/tools/${t.slug}/version/v1`, { isEnabled: true });
    }
    const states = await Promise.all(bundleIDs.map(async (id) => (await h.api('GET', `/tools/bundles/${id}/server`)).body.state as string));
    const ready = states.filter((s) => s === 'ready').length;
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }));
    await direct.connect(new StdioClientTransport({ ...echoServerCommand(toolsFile), stderr: 'pipe' }));
    const bypass = { cacheMode: 'bypass' } as never;
    const listed = (await agent.listTools(undefined, bypass)).tools.length;
    console.log(`  tools/list, host in its own process; load before ${load()}`);
    const listStart = process.hrtime.bigint() / 1000n;
    const [viaToolwright, base] = await interleaved(300, [() => agent.listTools(undefined, bypass), () => direct.listTools(undefined, bypass)], 50);
    // The loop's [start, end] on the monotonic clock in µs, as a --cpu-prof of the host counts time.
    if (process.env['BENCH_GATEWAY_HOST_NODE_OPTIONS']) console.log(`  list loop window (µs): [${listStart}, ${process.hrtime.bigint() / 1000n}]`);
    console.log(
      `  ${SERVERS} upstream servers × ${TOOLS_PER_SERVER} tools: synced in ${fmt(syncAll)} (in parallel), ${ready}/${SERVERS} running; Toolwright's tools/list holds ${listed} tools`,
    );
    console.log(
      row(
        `tools/list via Toolwright MCP (${listed} tools) vs one server direct (${TOOLS_PER_SERVER}), p50`,
        quantile(viaToolwright!, 0.5),
        quantile(base!, 0.5),
      ),
    );
    // The same list as a bare 2026 request (node:http, JSON.parse only): the host's part and the
    // transfer, without the SDK client's checks of a thousand tools.
    const plain = plainHttpClient(h.url, h.token);
    const MODERN = '2026-07-28';
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'bench-plain', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const bare = () =>
      plain.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta } }, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' });
    const bareCheck = (await bare()).body as { result?: { tools?: unknown[] } };
    if (bareCheck.result?.tools?.length !== listed) throw new Error(`the bare tools/list answered ${JSON.stringify(bareCheck).slice(0, 300)}`);
    const [bareTimes, sdkTimes] = await interleaved(300, [bare, () => agent.listTools(undefined, bypass)], 50);
    plain.close();
    console.log(row(`tools/list (${listed} tools), bare node:http request vs the SDK client, p50`, quantile(bareTimes!, 0.5), quantile(sdkTimes!, 0.5)));
    console.log(row(`tools/list (${listed} tools), bare node:http request vs the SDK client, p95`, quantile(bareTimes!, 0.95), quantile(sdkTimes!, 0.95)));
    const p95 = quantile(viaToolwright!, 0.95);
    console.log(
      `${row(`tools/list via Toolwright MCP (${listed} tools) vs one server direct (${TOOLS_PER_SERVER}), p95`, p95, quantile(base!, 0.95))}   goal ≤ 50 ms: ${p95 <= 50 ? 'met' : 'MISSED'}`,
    );
    console.log(`  load after ${load()}`);
  } finally {
    await agent.close().catch(() => undefined);
    await direct.close().catch(() => undefined);
    await h.close();
  }
}

/** The hop's figures against one host: its own process (the goal's shape) or this one (the former shape). */
async function hop(dir: string, inProcess: boolean): Promise<void> {
  const h = await openHost(inProcess);
  const direct = new Client({ name: 'bench-direct', version: '1' });
  const agents: Client[] = [];
  try {
    const { bundleID, toolsFile } = await addEchoServer(h, dir);

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

    await direct.connect(new StdioClientTransport({ ...echoServerCommand(toolsFile), stderr: 'pipe' }));
    const connectAgent = async (name: string, options: ConstructorParameters<typeof Client>[1]) => {
      const client = new Client({ name, version: '1' }, options);
      agents.push(client);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${h.url}/mcp?bundles=files`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }),
      );
      return client;
    };
    const legacy = await connectAgent('bench-agent-2025', {});
    const modern = await connectAgent('bench-agent-2026', { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const args = { message: 'hello' };
    const invokePath = `/tools/bundles/${bundleID}/tools/echo/version/v1/invoke`;
    const plain = plainHttpClient(h.url, h.token);
    const check = await plain.post(invokePath, { args });
    if (!(check.body as { ok?: boolean }).ok) throw new Error(`REST call failed: ${JSON.stringify(check.body)}`);
    console.log(`  ${CALLS} echo calls per path, interleaved, after 30 uncounted; load before ${load()}`);
    const cpu = [[], [], [], [], []] as number[][];
    const hostCpu = h.mainThreadMs ? { read: h.mainThreadMs, out: [[], [], [], [], []] as number[][] } : undefined;
    const [rest, mcp2025, mcp2026, base, restPlain] = await interleaved(
      CALLS,
      [
        () => h.api('POST', invokePath, { args }),
        () => legacy.callTool({ name: 'echo', arguments: args }),
        () => modern.callTool({ name: 'echo', arguments: args }),
        () => direct.callTool({ name: 'echo', arguments: args }),
        () => plain.post(invokePath, { args }),
      ],
      30,
      cpu,
      hostCpu,
    );
    plain.close();
    console.log(hopRow('echo via Toolwright REST vs the SDK client direct, p50', rest!, base!));
    console.log(hopRow('echo via Toolwright REST, node:http keep-alive client (not fetch), p50', restPlain!, base!));
    console.log(hopRow('echo via Toolwright MCP 2025-11-25 vs direct, p50', mcp2025!, base!));
    console.log(hopRow('echo via Toolwright MCP 2026-07-28 vs direct, p50', mcp2026!, base!));
    console.log(row('echo via Toolwright REST vs direct, p95', quantile(rest!, 0.95), quantile(base!, 0.95)));
    // The servers run in child processes for every path. A mean: the history, audit and counters
    // flush in the background, in whichever call's window.
    const [restCpu, mcp2025Cpu, mcp2026Cpu, baseCpu, restPlainCpu] = cpu.map(mean);
    const whose = inProcess ? 'this process (clients and host)' : 'this process (the clients)';
    console.log(row(`CPU of ${whose} per call, REST (fetch) vs direct, mean`, restCpu!, baseCpu!));
    console.log(row(`CPU of ${whose} per call, REST (node:http) vs direct, mean`, restPlainCpu!, baseCpu!));
    console.log(row(`CPU of ${whose} per call, MCP 2025 vs direct, mean`, mcp2025Cpu!, baseCpu!));
    console.log(row(`CPU of ${whose} per call, MCP 2026 vs direct, mean`, mcp2026Cpu!, baseCpu!));
    if (hostCpu) {
      const [hRest, h2025, h2026, hBase, hPlain] = hostCpu.out.map(mean);
      const line = (label: string, v: number) => `  CPU of the host's main thread per call, ${label}, mean`.padEnd(80) + fmt(v);
      console.log(line('REST (fetch)', hRest!));
      console.log(line('REST (node:http)', hPlain!));
      console.log(line('MCP 2025', h2025!));
      console.log(line('MCP 2026', h2026!));
      console.log(line('direct (the host idle: its timers)', hBase!));
    }
    console.log(`  load after ${load()} (1 / 5 / 15 min, ${availableParallelism()} cores)`);

    const pid = (await h.api('GET', `/tools/bundles/${bundleID}/server`)).body.pid as number | undefined;
    const rss = pid ? await rssKiB(pid) : undefined;
    const hostRss = h.pid ? await rssKiB(h.pid) : Math.round(process.memoryUsage().rss / 1024);
    console.log(
      `  resident memory of the idle server process: ${rss ? `${(rss / 1024).toFixed(1)} MiB` : 'n/a'} (the host${inProcess ? ', with this process' : "'s process"}: ${((hostRss ?? NaN) / 1024).toFixed(0)} MiB)`,
    );
  } finally {
    for (const a of agents) await a.close().catch(() => undefined);
    await direct.close().catch(() => undefined);
    await h.close();
  }
}

export async function run(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'tw-bench-gateway-'));
  console.log("  -- the host in its own process (serve.ts), as shipped: the goal's figures --");
  await hop(dir, false);
  if (process.env['BENCH_GATEWAY_IN_PROCESS'] !== '0') {
    console.log('  -- the host in this process, beside the clients (the method before 2026-11-29, for comparison) --');
    await hop(dir, true);
  }
  if (process.env['BENCH_GATEWAY_LIST'] !== '0') await manyServers(dir);
}
