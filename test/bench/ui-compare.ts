/**
 * This renderer against another build of it (an older commit's), interleaved in one run on one
 * core and one data set, so the machine's load falls on both alike: first render of 10,000
 * tools and keystroke → results painted, as in ui.ts. The other build's folder comes from
 * TW_BENCH_OTHER_RENDERER (for instance `git worktree add /tmp/old <commit>`, then
 * `npx vite build --config renderer/vite.config.ts --outDir /tmp/old-renderer` there).
 *
 * Keys typed right after the first paint (a fresh window, typed into at once, where the deferred
 * start-up work lands) are counted apart from keys typed into a settled window.
 *
 * With TW_BENCH_WRITER=1 a plain Node process rewrites tool.json files every 20 ms while the
 * keys are typed (startup.ts's writer; the core watches the data folder, as the host does).
 *
 * Run alone: TW_BENCH_OTHER_RENDERER=/tmp/old-renderer npx tsx test/bench/ui-compare.ts
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { waitForMark } from './ui.js';
import { openRendererRig } from './renderer-rig.js';
import { fmt, median, quantile } from './util.js';

const RUNS = 6;
const QUERIES = ['weather', 'invoice', 'calendar', 'forcast', 'stock price', 'météo', 'report'];
const TOKEN = 'bench-compare';
/** Past the first screen's settling (500 ms after the paint, then an idle moment) and the warm-up after it. */
const SETTLE_WAIT_MS = 3000;

async function keystrokes(page: Page, q: string, fresh = false): Promise<number[]> {
  await page.bringToFront(); // a page in the background gets no animation frames
  const box = page.getByTestId('search-box');
  if (!fresh) {
    await box.fill('');
    await page.waitForTimeout(200);
  }
  await page.evaluate(() => performance.clearMeasures('tw:search'));
  await box.focus();
  let expected = 0;
  let previous = '';
  for (let i = 0; i < q.length; i++) {
    await page.keyboard.type(q[i]!);
    const typed = q.slice(0, i + 1).trim();
    if (typed === previous) continue;
    previous = typed;
    expected++;
    await page.waitForFunction((n) => performance.getEntriesByName('tw:search').length >= n, expected, { timeout: 10_000 }).catch(() => undefined);
  }
  return (await page.evaluate(`performance.getEntriesByName('tw:search').map((e) => e.duration)`)) as number[];
}

export async function run(): Promise<void> {
  const other = process.env['TW_BENCH_OTHER_RENDERER'];
  if (!other || !existsSync(join(other, 'index.html'))) throw new Error('set TW_BENCH_OTHER_RENDERER to the folder of another renderer build');
  const withWriter = process.env['TW_BENCH_WRITER'] === '1';
  const rig = await openRendererRig({ token: TOKEN, others: [['other', other]], watch: withWriter, dataPrefix: 'tw-bench-compare-' });
  const { browser } = rig;
  const urls = { ours: rig.urls.get('ours')!, other: rig.urls.get('other')! };
  try {
    const open = async (url: string, noCache: boolean) => {
      const page = await browser.context.newPage();
      if (noCache) await (await page.context().newCDPSession(page)).send('Network.setCacheDisabled', { cacheDisabled: true });
      await page.goto(`${url}/#token=${TOKEN}`);
      await waitForMark(page, 'tw:toollist-painted');
      return page;
    };
    const renders = { ours: [] as number[], other: [] as number[] };
    const earlyKeys = { ours: [] as number[], other: [] as number[] };
    const loads: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      for (const v of (i % 2 ? ['other', 'ours'] : ['ours', 'other']) as ('ours' | 'other')[]) {
        const page = await open(urls[v], true);
        renders[v].push((await page.evaluate(`performance.getEntriesByName('tw:toollist-painted')[0].startTime`)) as number);
        earlyKeys[v].push(...(await keystrokes(page, QUERIES[i % QUERIES.length]!, true)));
        loads.push(loadavg()[0]!);
        await page.close();
      }
    }
    // The first key into a window left alone past the first screen's settling (first-screen.ts),
    // the moment the search's warm-up (SearchWarmup.tsx) has had: the first results list's mount.
    const settledFirstKey = { ours: [] as number[], other: [] as number[] };
    for (let i = 0; i < RUNS; i++) {
      for (const v of (i % 2 ? ['other', 'ours'] : ['ours', 'other']) as ('ours' | 'other')[]) {
        const page = await open(urls[v], true);
        await page.waitForTimeout(SETTLE_WAIT_MS);
        const [first] = await keystrokes(page, QUERIES[i % QUERIES.length]!.slice(0, 1), true);
        if (first !== undefined) settledFirstKey[v].push(first);
        loads.push(loadavg()[0]!);
        await page.close();
      }
    }
    const pages = { ours: await open(urls.ours, false), other: await open(urls.other, false) };
    const keys = { ours: [] as number[], other: [] as number[] };
    if (withWriter) {
      await rig.startWriter();
      await new Promise((r) => setTimeout(r, 1000));
    }
    for (const [i, q] of [...QUERIES, ...QUERIES].entries()) {
      for (const v of (i % 2 ? ['other', 'ours'] : ['ours', 'other']) as ('ours' | 'other')[]) {
        keys[v].push(...(await keystrokes(pages[v], q)));
        loads.push(loadavg()[0]!);
      }
    }
    const load = `load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`;
    console.log(
      `  interleaved, one core and data set (10,000 tools)${withWriter ? ', a writer rewriting tool.json every 20 ms while typing' : ''}; other build: ${other}`,
    );
    const row = (label: string, a: number, b: number, note: string) =>
      console.log(`  ${label.padEnd(44)} ours ${fmt(a).padStart(10)}   other build ${fmt(b).padStart(10)}   ${load}  ${note}`);
    row(`first render, median of ${RUNS}`, median(renders.ours), median(renders.other), 'goal ≤ 500 ms');
    row(`first render, worst of ${RUNS}`, Math.max(...renders.ours), Math.max(...renders.other), '');
    row(`keys right after the paint p50 (${earlyKeys.ours.length} keys)`, quantile(earlyKeys.ours, 0.5), quantile(earlyKeys.other, 0.5), '');
    row('keys right after the paint p95', quantile(earlyKeys.ours, 0.95), quantile(earlyKeys.other, 0.95), '');
    row(`first key into a settled window, median of ${RUNS}`, median(settledFirstKey.ours), median(settledFirstKey.other), '');
    row(`first key into a settled window, worst of ${RUNS}`, Math.max(...settledFirstKey.ours), Math.max(...settledFirstKey.other), '');
    row(`keystroke → painted p50 (${keys.ours.length} keys)`, quantile(keys.ours, 0.5), quantile(keys.other, 0.5), '');
    row('keystroke → painted p95', quantile(keys.ours, 0.95), quantile(keys.other, 0.95), 'goal ≤ 50 ms');
  } finally {
    await rig.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
