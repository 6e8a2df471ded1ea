/**
 * Startup bench, on 10,000 tools in 200 bundles (the UI bench's data set), each figure beside a
 * plain baseline from the same run and the machine's 1-minute load average:
 * - host ready: spawning the headless host (tsx electron/host/serve.ts) → its "listening" line,
 *   and → the first page of the tool list answered (the store read and indexed). Baseline: the
 *   same tsx start of a bare HTTP server printing the same line.
 * - UI first render of 10,000 tools: navigation start → rows painted, no HTTP cache; goal
 *   ≤ 500 ms. Baseline: the first list page fetched alone from the page.
 * - keystroke → results painted p95 while another process writes tools (a plain Node process
 *   rewriting tool.json files every 20 ms, as an editor or a git checkout would); goal ≤ 50 ms.
 *   Baseline: the same queries as bare search fetches, with the writer still running.
 *
 * Run alone: npx tsx test/bench/startup.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os, { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { chromiumAvailable, launchBrowser, PROJECT_ROOT, startHost, type Host } from '../e2e/harness.js';
import { firstRender, keystrokes, listFetchBaseline, searchFetchBaseline, warmUp, writeDataset } from './ui.js';
import { fmt, median, quantile } from './util.js';

const STARTS = 3;
const FIRST_RENDER_RUNS = 5;
const WRITE_EVERY_MS = 20;
const LISTENING = /Toolwright listening on (http:\/\/127\.0\.0\.1:\d+)/;

function line(label: string, ours: string, base: string, note = ''): void {
  console.log(`  ${label.padEnd(50)} ours ${ours.padStart(10)}   baseline ${base.padStart(10)}   load ${loadavg()[0]!.toFixed(2).padEnd(6)} ${note}`);
}

/** Milliseconds from spawn to the listening line, and the child (still running). */
function timeToListening(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ ms: number; url: string; child: ChildProcess }> {
  const t0 = performance.now();
  const child = spawn('npx', ['tsx', ...args], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, ...env, FORCE_COLOR: '0' },
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (b: Buffer) => {
      output += b.toString();
      const m = LISTENING.exec(output);
      if (m) resolve({ ms: performance.now() - t0, url: m[1]!, child });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening:\n${output}`)));
  });
}

export async function stopGroup(child: ChildProcess): Promise<void> {
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  if (gone() || !child.pid) return;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid, 'SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  // A child ended by the signal has no exit code, only its signal.
  if (!gone()) process.kill(-child.pid, 'SIGKILL');
}

const BARE_SERVER = `require('node:http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () { console.log('Toolwright listening on http://127.0.0.1:' + this.address().port); });`;

/** Polls the first page of the tool list until it answers; milliseconds since t0. */
async function firstListAnswer(url: string, token: string, t0: number): Promise<number> {
  for (;;) {
    const res = await fetch(`${url}/tools/tools?includeDisabled=true&recommendedPageSize=100`, { headers: { Authorization: `Bearer ${token}` } }).catch(
      () => undefined,
    );
    if (res?.ok) {
      await res.json();
      return performance.now() - t0;
    }
    await res?.body?.cancel();
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function hostReady(dataDir: string): Promise<void> {
  const listening: number[] = [];
  const answered: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const token = `bench-token-${i}-${Date.now()}`;
    const t0 = performance.now();
    const host = await timeToListening(['electron/host/serve.ts', '--data-dir', dataDir, '--port', '0'], { TOOLWRIGHT_TOKEN: token });
    listening.push(host.ms);
    answered.push(await firstListAnswer(host.url, token, t0));
    await stopGroup(host.child);
    const plain = await timeToListening(['-e', BARE_SERVER]);
    bare.push(plain.ms);
    await stopGroup(plain.child);
  }
  line(`host start → listening, median of ${STARTS}`, fmt(median(listening)), fmt(median(bare)), 'baseline: tsx starting a bare HTTP server');
  line(`host start → first tool page answered, median of ${STARTS}`, fmt(median(answered)), fmt(median(bare)), '(10,000 tools read and indexed)');
}

/** A plain Node process that rewrites tool.json files (a new description each time) until killed; at most 5 minutes. */
export async function startWriter(dataDir: string): Promise<ChildProcess> {
  const files: string[] = [];
  for (const bundle of (await readdir(join(dataDir, 'bundles'))).slice(0, 20)) {
    for (const tool of (await readdir(join(dataDir, 'bundles', bundle, 'tools'))).slice(0, 5))
      files.push(join(dataDir, 'bundles', bundle, 'tools', tool, 'tool.json'));
  }
  const script = `
    const fs = require('node:fs');
    const files = JSON.parse(process.argv[1]);
    let n = 0;
    const end = Date.now() + 300000;
    const timer = setInterval(() => {
      if (Date.now() > end) process.exit(0);
      const file = files[n++ % files.length];
      const tool = JSON.parse(fs.readFileSync(file, 'utf8'));
      tool.description = 'rewritten by the bench writer, ' + n;
      fs.writeFileSync(file + '.tmp', JSON.stringify(tool, null, 2) + '\\n');
      fs.renameSync(file + '.tmp', file);
    }, ${WRITE_EVERY_MS});`;
  return spawn(process.execPath, ['-e', script, JSON.stringify(files)], { stdio: ['ignore', 'ignore', 'inherit'], detached: true });
}

export async function run(): Promise<void> {
  if (!chromiumAvailable()) throw new Error('no Chromium at /usr/bin/chromium');
  const dataDir = await mkdtemp(join(tmpdir(), 'tw-bench-startup-'));
  let host: Host | undefined;
  let writer: ChildProcess | undefined;
  const browser = await launchBrowser();
  try {
    await writeDataset(dataDir);
    // The host serves out/renderer; built once here, so no start below includes a build.
    await build({ configFile: join(PROJECT_ROOT, 'renderer/vite.config.ts'), logLevel: 'silent' });
    console.log(`  10,000 tools in 200 bundles; Node ${process.versions.node}; load ${loadavg()[0]!.toFixed(2)} on ${os.cpus().length} cores`);
    await hostReady(dataDir);

    host = await startHost({ dataDir });
    await warmUp(host);
    const painted: number[] = [];
    const fetches: number[] = [];
    for (let i = 0; i < FIRST_RENDER_RUNS; i++) {
      const page = await browser.context.newPage();
      painted.push((await firstRender(page, host)).painted);
      fetches.push(await listFetchBaseline(page));
      await page.close();
    }
    line(
      `UI first render of 10,000 tools, median of ${FIRST_RENDER_RUNS}`,
      fmt(median(painted)),
      fmt(median(fetches)),
      'goal ≤ 500 ms; baseline: first list page fetch alone',
    );
    line(`UI first render of 10,000 tools, worst of ${FIRST_RENDER_RUNS}`, fmt(Math.max(...painted)), fmt(Math.max(...fetches)));

    const page = await browser.context.newPage();
    await firstRender(page, host);
    writer = await startWriter(dataDir);
    await new Promise((r) => setTimeout(r, 1000));
    const requests = new Map<string, number>();
    const countRequest = (r: { url(): string }) => {
      // tools (the list), tools/search, bundles, schedules…
      const path = new URL(r.url()).pathname
        .replace(/^\/tools\//, '')
        .split('/')
        .slice(0, 2)
        .join('/');
      requests.set(path, (requests.get(path) ?? 0) + 1);
    };
    page.on('request', countRequest);
    const typingStart = performance.now();
    const keys = (await keystrokes(page)).map((k) => k.ms);
    const typingSeconds = (performance.now() - typingStart) / 1000;
    page.off('request', countRequest);
    const base = await searchFetchBaseline(page);
    line(`keystroke → painted p50, writer running (${keys.length} keys)`, fmt(quantile(keys, 0.5)), fmt(quantile(base, 0.5)), 'baseline: bare search fetch');
    line('keystroke → painted p95, writer running', fmt(quantile(keys, 0.95)), fmt(quantile(base, 0.95)), `goal ≤ 50 ms; writes every ${WRITE_EVERY_MS} ms`);
    // What the page asked the host for while typing: each key's search, and the refetches the writer's change events caused.
    const perSecond = [...requests].sort((a, b) => b[1] - a[1]).map(([path, n]) => `${path} ${(n / typingSeconds).toFixed(1)}/s`);
    console.log(`  page requests while typing (${typingSeconds.toFixed(1)} s): ${perSecond.join(', ')}`);
    await page.close();
  } finally {
    if (writer) await stopGroup(writer);
    await browser.close();
    await host?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
