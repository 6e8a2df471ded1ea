/**
 * Where the bare search fetch's time goes (`bench -- ui`'s keystroke baseline): the same 50
 * sequential search requests (the bench's query prefixes) timed
 * - from Node against the same host (the host and loopback alone);
 * - from a page of the same origin that runs no app (Chromium's fetch path alone);
 * - from the app's page left settled (8 s after its first paint);
 * - from the app's page right after `bench -- ui`'s 50 keys, where `bench -- ui` takes its baseline.
 * In the pages each request is split by resource timing into queued (fetch() → request sent),
 * waiting (request sent → first byte), download (first byte → last byte) and page (last byte →
 * JSON parsed: the main thread's share), and the long animation frames over the loop are counted.
 * Rounds interleave the four; p50 / p95 per state, with the load.
 *
 * Run alone: npx tsx test/bench/ui-fetch.ts (TW_BENCH_RUNS rounds, 2 by default)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser, startHost, type Host } from '../e2e/harness.js';
import { firstRender, keystrokes, QUERY_PREFIXES, warmUp, writeDataset } from './ui.js';
import { fmt, quantile } from './util.js';

interface FetchTiming {
  total: number;
  queued: number;
  waiting: number;
  download: number;
  page: number;
  bytes: number;
}

interface LoopResult {
  fetches: FetchTiming[];
  longFrames: number;
  longFramesMs: number;
  longFramesScriptMs: number;
  scripts: string[];
}

/** The loop, run in the page: each request's phases by resource timing, and the long animation frames meanwhile. */
async function pageLoop(page: Page, token: string): Promise<LoopResult> {
  return (await page.evaluate(`(async () => {
    const queries = ${JSON.stringify(QUERY_PREFIXES)};
    const token = ${JSON.stringify(token)};
    performance.clearResourceTimings();
    performance.setResourceTimingBufferSize(1000);
    const long = { n: 0, ms: 0, script: 0, scripts: new Map() };
    const observer = PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')
      ? new PerformanceObserver((list) => {
          for (const e of list.getEntries()) {
            long.n++;
            long.ms += e.duration;
            for (const s of e.scripts) {
              long.script += s.duration;
              const key = (s.invoker || '?') + ' ' + (s.sourceFunctionName || '') + ' ' + (s.sourceURL || '').split('/').pop();
              long.scripts.set(key, (long.scripts.get(key) || 0) + s.duration);
            }
          }
        })
      : undefined;
    observer?.observe({ type: 'long-animation-frame' });
    const fetches = [];
    for (const q of queries) {
      const url = '/tools/tools/search?q=' + encodeURIComponent(q.trim()) + '&includeDisabled=true&pageSize=20';
      const t0 = performance.now();
      const res = await fetch(url, { headers: { Authorization: 'Bearer ' + token } });
      await res.json();
      const t1 = performance.now();
      const r = performance.getEntriesByType('resource').filter((e) => e.name.endsWith(url)).at(-1);
      fetches.push(r
        ? { total: t1 - t0, queued: r.requestStart - t0, waiting: r.responseStart - r.requestStart, download: r.responseEnd - r.responseStart, page: t1 - r.responseEnd, bytes: r.encodedBodySize }
        : { total: t1 - t0, queued: 0, waiting: 0, download: 0, page: 0, bytes: 0 });
    }
    await new Promise((r) => setTimeout(r, 100));
    observer?.disconnect();
    const scripts = [...long.scripts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => k + ' ' + v.toFixed(0) + ' ms');
    return { fetches, longFrames: long.n, longFramesMs: long.ms, longFramesScriptMs: long.script, scripts };
  })()`)) as LoopResult;
}

async function nodeLoop(host: Host): Promise<LoopResult> {
  const fetches: FetchTiming[] = [];
  for (const q of QUERY_PREFIXES) {
    const t0 = performance.now();
    const res = await fetch(`${host.url}/tools/tools/search?q=${encodeURIComponent(q.trim())}&includeDisabled=true&pageSize=20`, {
      headers: { Authorization: `Bearer ${host.token}` },
    });
    const text = await res.text();
    JSON.parse(text);
    fetches.push({ total: performance.now() - t0, queued: 0, waiting: 0, download: 0, page: 0, bytes: text.length });
  }
  return { fetches, longFrames: 0, longFramesMs: 0, longFramesScriptMs: 0, scripts: [] };
}

function report(state: string, r: LoopResult): void {
  const q = (pick: (f: FetchTiming) => number) => {
    const xs = r.fetches.map(pick);
    return `${fmt(quantile(xs, 0.5))} / ${fmt(quantile(xs, 0.95))}`;
  };
  const load = loadavg()[0]!.toFixed(2);
  console.log(
    `  ${state.padEnd(22)} total ${q((f) => f.total).padEnd(18)} queued ${q((f) => f.queued).padEnd(18)} waiting ${q((f) => f.waiting).padEnd(18)} ` +
      `download ${q((f) => f.download).padEnd(18)} page ${q((f) => f.page).padEnd(18)} load ${load}`,
  );
  if (r.longFrames || r.fetches[0]?.bytes)
    console.log(
      `  ${''.padEnd(22)} answer ${quantile(
        r.fetches.map((f) => f.bytes / 1024),
        0.5,
      ).toFixed(
        1,
      )} KB p50; long frames ${r.longFrames} (${fmt(r.longFramesMs)}, script ${fmt(r.longFramesScriptMs)})${r.scripts.length ? ': ' + r.scripts.join('; ') : ''}`,
    );
}

export async function run(): Promise<void> {
  if (!chromiumAvailable()) throw new Error('no Chromium at /usr/bin/chromium');
  const rounds = Number(process.env['TW_BENCH_RUNS'] ?? 2);
  const dataDir = await mkdtemp(join(tmpdir(), 'tw-bench-ui-fetch-'));
  let host: Host | undefined;
  const browser = await launchBrowser();
  try {
    await writeDataset(dataDir);
    host = await startHost({ dataDir });
    await warmUp(host);
    console.log('  50 sequential searches (p50 / p95 ms per request; phases by resource timing)');
    for (let round = 1; round <= rounds; round++) {
      console.log(` round ${round}`);
      report('Node', await nodeLoop(host));

      const blank = await browser.context.newPage();
      // A document of the same origin that runs no app code.
      await blank.goto(`${host.url}/first-requests.js`);
      report('blank page', await pageLoop(blank, host.token));
      await blank.close();

      const settled = await browser.context.newPage();
      await firstRender(settled, host);
      await settled.waitForTimeout(8000);
      report('app, settled', await pageLoop(settled, host.token));
      await settled.close();

      const typed = await browser.context.newPage();
      await firstRender(typed, host);
      await keystrokes(typed);
      report('app, after the keys', await pageLoop(typed, host.token));
      await typed.close();
    }
  } finally {
    await browser.close();
    await host?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
