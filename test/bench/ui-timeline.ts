/**
 * Where a first render's time goes, this renderer against another build, interleaved on one host
 * and data set (renderer-rig.ts): for each first render of 10,000 tools (no HTTP cache), a
 * Chromium trace of the page's main thread up to the paint mark, read as
 * - the paint mark (tw:toollist-painted), the first row's paint by Element Timing (the browser's
 *   own paint time, a check on the mark), the app's start (tw:app-start, after the entry has run)
 *   and mark − start (the app's own share, which the machine's load and the download move less);
 * - the entry's evaluation (v8.evaluateModule), the page's script tasks, and style, layout and paint.
 * Medians per build, with the load. On a shared machine the differences that repeat across runs
 * mean more than any one figure.
 *
 * Run alone: TW_BENCH_OTHER_RENDERER=<folder of another renderer build> npx tsx test/bench/ui-timeline.ts
 * (TW_BENCH_RUNS, 8 by default, renders per build).
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { firstRowPainted, TAG_FIRST_ROW, waitForMark } from './ui.js';
import { openRendererRig } from './renderer-rig.js';
import { fmt, median } from './util.js';
import { traced } from './trace.js';

const TOKEN = 'bench-timeline';

const FIGURES = [
  'html',
  'entryIn',
  'cssIn',
  'earlyJs',
  'evalStart',
  'appStart',
  'entryEval',
  'afterStart',
  'painted',
  'element',
  'script',
  'style',
  'layout',
  'paint',
] as const;
type Figures = Record<(typeof FIGURES)[number], number>;

export async function run(): Promise<void> {
  const other = process.env['TW_BENCH_OTHER_RENDERER'];
  if (!other || !existsSync(join(other, 'index.html'))) throw new Error('set TW_BENCH_OTHER_RENDERER to the folder of another renderer build');
  const runs = Number(process.env['TW_BENCH_RUNS'] ?? 8);
  const untraced = process.env['TW_BENCH_UNTRACED'] === '1';
  const rig = await openRendererRig({ token: TOKEN, others: [['other', other]], watch: false, dataPrefix: 'tw-bench-timeline-' });
  const results = new Map<string, Figures[]>([
    ['ours', []],
    ['other', []],
  ]);
  const loads: number[] = [];
  try {
    for (const url of rig.urls.values()) {
      const warm = await rig.browser.context.newPage();
      await warm.goto(`${url}/#token=${TOKEN}`);
      await waitForMark(warm, 'tw:toollist-painted');
      await warm.close();
    }
    for (let i = 0; i < runs; i++) {
      for (const name of i % 2 ? ['other', 'ours'] : ['ours', 'other']) {
        const page = await rig.browser.context.newPage();
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        await page.addInitScript(TAG_FIRST_ROW);
        let marks = { painted: NaN, appStart: NaN, html: NaN, entryIn: NaN, cssIn: NaN };
        let element = NaN;
        const act = async () => {
          await page.goto(`${rig.urls.get(name)!}/#token=${TOKEN}`);
          await waitForMark(page, 'tw:toollist-painted');
          marks = (await page.evaluate(`(() => {
            const loaded = (re) => performance.getEntriesByType('resource').find((e) => re.test(e.name))?.responseEnd ?? NaN;
            return {
              painted: performance.getEntriesByName('tw:toollist-painted')[0].startTime,
              appStart: performance.getEntriesByName('tw:app-start')[0].startTime,
              html: performance.getEntriesByType('navigation')[0].responseEnd,
              entryIn: loaded(/\\/assets\\/index-[^/]*\\.js$/),
              cssIn: loaded(/\\/assets\\/index-[^/]*\\.css$/),
            };
          })()`)) as typeof marks;
          element = (await firstRowPainted(page)) ?? NaN;
        };
        // Tracing costs the page too: with devtools.timeline on, V8 captures stacks (timers, requests) and
        // collects source positions for the frames, re-parsing the entry's top level once (47–92 ms at load 8).
        const events = untraced ? (await act(), []) : await traced(cdp, 'devtools.timeline,blink.user_timing,v8.execute,v8', act);
        await page.close();
        loads.push(loadavg()[0]!);
        // The page's main thread: the renderer thread that ran the paint mark.
        const mark = events.find((e) => e.name === 'tw:toollist-painted');
        const main = mark ? events.filter((e) => e.pid === mark.pid && e.tid === mark.tid && e.ph === 'X' && e.ts <= mark.ts) : [];
        const sum = (...names: string[]) => main.filter((e) => names.includes(e.name)).reduce((n, e) => n + (e.dur ?? 0) / 1000, 0);
        // Trace time → the page's clock, through the paint mark (its trace event and its startTime).
        const pageTime = (ts: number) => (mark ? marks.painted + (ts - mark.ts) / 1000 : NaN);
        const evaluation = main.find((e) => e.name === 'v8.evaluateModule');
        const early = main.find((e) => e.name === 'EvaluateScript' && String(e.args?.data?.['url'] ?? '').endsWith('/first-requests.js'));
        const traceOnly = (v: number) => (untraced ? NaN : v);
        results.get(name)!.push({
          ...marks,
          element,
          afterStart: marks.painted - marks.appStart,
          evalStart: evaluation ? pageTime(evaluation.ts) : NaN,
          earlyJs: early ? (early.dur ?? 0) / 1000 : NaN,
          entryEval: traceOnly(sum('v8.evaluateModule')),
          script: traceOnly(sum('FunctionCall')),
          style: traceOnly(sum('UpdateLayoutTree')),
          layout: traceOnly(sum('Layout')),
          paint: traceOnly(sum('Paint')),
        });
      }
    }
    console.log(`  ${runs} first renders per build, interleaved, one host and data set (10,000 tools); other build: ${other}`);
    console.log(`  load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; medians, ms:`);
    console.log(`  ${'build'.padEnd(8)}${FIGURES.map((f) => f.padStart(11)).join('')}`);
    for (const [name, rows] of results) {
      const cells = FIGURES.map((f) => {
        const values = rows.map((r) => r[f]).filter((v) => Number.isFinite(v));
        return (values.length ? fmt(median(values)) : '—').padStart(11);
      });
      console.log(`  ${name.padEnd(8)}${cells.join('')}`);
    }
  } finally {
    await rig.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
