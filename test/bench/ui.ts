/**
 * UI bench, in Chromium against `npm run serve` on 10,000 tools (200 bundles), read from the
 * renderer's own performance marks:
 * - JS the renderer ships, per chunk: the entry (what the first screen loads), the card frame's
 *   chunk and everything it loads, the lazy chunks. Baseline: the same app built as one chunk.
 * - first render of the tool list: navigation start → rows painted (tw:toollist-painted);
 *   goal ≤ 500 ms. Baseline: fetching the first list page from the same page, no rendering.
 * - keystroke → results painted in the search box (tw:search measures); goal p95 ≤ 50 ms.
 *   Baseline: the same queries as bare fetches of the search route from the page.
 * - scrolling the virtualised list: frame intervals while wheel-scrolling, beside idle frames.
 *
 * The machine's 1-minute load average is printed beside each timing: on the shared 2-core
 * machine these run with other work going on, and the figures mean little without it.
 *
 * Run alone: npx tsx test/bench/ui.ts
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os, { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { canonicalJson } from '../../shared/canonical.js';
import { BUNDLE_KEY_ORDER, TOOL_KEY_ORDER } from '../../shared/schemas.js';
import { chromiumAvailable, launchBrowser, startHost, type Host } from '../e2e/harness.js';
import { makeDataset } from './search.js';
import { fmt, quantile, median } from './util.js';
import { chunkHolding, packagesIn, rendererChunks, staticClosure, type ChunkInfo } from '../helpers/renderer-chunks.js';

const TOOLS = 10_000;
const BUNDLES = 200;
const FIRST_RENDER_RUNS = 5;
const QUERIES = ['weather', 'invoice', 'calendar', 'forcast', 'stock price', 'météo', 'report'];
/** What the search box asks for as the queries are typed, key by key (a trailing space asks nothing new). */
export const QUERY_PREFIXES = QUERIES.flatMap((q) => Array.from({ length: q.length }, (_, i) => q.slice(0, i + 1)).filter((p) => p.trim()));

/** Writes the data set as files, the way another editor or a git checkout would. */
export async function writeDataset(dataDir: string): Promise<void> {
  const { bundles, tools } = makeDataset(42, TOOLS, BUNDLES);
  for (const b of bundles) {
    const dir = join(dataDir, 'bundles', b.bundleID);
    await mkdir(join(dir, 'tools'), { recursive: true });
    await writeFile(join(dir, 'bundle.json'), canonicalJson({ ...b, softDeletedAt: null }, BUNDLE_KEY_ORDER));
  }
  const jobs: Promise<void>[] = [];
  for (const t of tools) {
    const dir = join(dataDir, 'bundles', t.bundleID, 'tools', t.toolID);
    jobs.push(
      mkdir(dir, { recursive: true }).then(() => writeFile(join(dir, 'tool.json'), canonicalJson({ ...t, impl: { function: 'core.calc' } }, TOOL_KEY_ORDER))),
    );
    if (jobs.length >= 200) await Promise.all(jobs.splice(0));
  }
  await Promise.all(jobs);
}

/**
 * Waits in the page for a performance mark with a PerformanceObserver. Not waitForFunction: that
 * compiles Playwright's injected script in the page while it starts (188 ms of the main thread in
 * a trace at load 17, in the middle of the first render it was to measure).
 */
export async function waitForMark(page: Page, name: string, timeoutMs = 60_000): Promise<void> {
  const seen = await page.evaluate(
    ([mark, ms]) =>
      new Promise<boolean>((resolve) => {
        if (performance.getEntriesByName(mark).length) return resolve(true);
        const observer = new PerformanceObserver((list) => {
          if (!list.getEntriesByName(mark).length) return;
          observer.disconnect();
          resolve(true);
        });
        observer.observe({ type: 'mark' });
        setTimeout(() => resolve(performance.getEntriesByName(mark).length > 0), ms);
      }),
    [name, timeoutMs] as const,
  );
  if (!seen) throw new Error(`no ${name} mark within ${timeoutMs} ms`);
}

export interface RenderTiming {
  painted: number;
  /**
   * When the browser painted the first row's name (Element Timing: the frame's paint time, read
   * from outside the app's code), or undefined where the API is missing. A check on the app's mark.
   */
  elementPainted: number | undefined;
  /** The slowest API response the first render waited for (resource timing). */
  slowestApi: number;
}

/**
 * Tags the first tool row's name for Element Timing as it enters the DOM: a MutationObserver's
 * callback runs in the task that inserted it, before the frame that paints it.
 */
export const TAG_FIRST_ROW = `(() => {
  const tag = () => {
    const name = document.querySelector('[data-testid="tool-scroll"] .tool-name');
    if (!name) return false;
    name.setAttribute('elementtiming', 'tw-first-row');
    return true;
  };
  const observer = new MutationObserver(() => tag() && observer.disconnect());
  observer.observe(document, { childList: true, subtree: true });
})()`;

export async function firstRender(page: Page, host: Host): Promise<RenderTiming> {
  // Every load fetches the app's files again, as a first start would (no HTTP cache).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.addInitScript(TAG_FIRST_ROW);
  await page.goto(`${host.url}/#token=${host.token}`);
  await waitForMark(page, 'tw:toollist-painted');
  const timing = await page.evaluate(() => {
    const painted = performance.getEntriesByName('tw:toollist-painted')[0]!.startTime;
    const api = performance
      .getEntriesByType('resource')
      .filter((e) => e.name.includes('/tools/') && e.startTime < painted && !e.name.includes('/tools/events'));
    return { painted, slowestApi: Math.max(0, ...api.map((e) => e.duration)) };
  });
  return { ...timing, elementPainted: await firstRowPainted(page) };
}

/** The browser's own paint time of the row TAG_FIRST_ROW tagged (Element Timing), or undefined without it. */
export async function firstRowPainted(page: Page): Promise<number | undefined> {
  return (await page.evaluate(`new Promise((resolve) => {
    if (!PerformanceObserver.supportedEntryTypes.includes('element')) return resolve(undefined);
    const observer = new PerformanceObserver((list) => {
      const e = list.getEntries().find((x) => x.identifier === 'tw-first-row');
      if (e) { observer.disconnect(); resolve(e.renderTime || e.loadTime); }
    });
    observer.observe({ type: 'element', buffered: true });
    setTimeout(() => resolve(undefined), 2000);
  })`)) as number | undefined;
}

export async function listFetchBaseline(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const token = sessionStorage.getItem('toolwright.token');
    const t0 = performance.now();
    // The app's first page (FIRST_TOOL_PAGE_SIZE in renderer/src/api/queries.ts): what the first render waits for.
    const res = await fetch('/tools/tools?includeDisabled=true&recommendedPageSize=100', { headers: { Authorization: `Bearer ${token}` } });
    await res.json();
    return performance.now() - t0;
  });
}

export interface KeyTiming {
  /** What was typed so far, and how many keys into the run. */
  q: string;
  nth: number;
  ms: number;
  /** Keystroke → the search request left; the request's time on the wire; its answer → painted. */
  phases?: { before: number; wire: number; after: number };
  /** When the key was typed (the page's clock). */
  at: number;
}

/** A long animation frame (over 50 ms) seen while keys were typed, with its heaviest scripts. */
export interface TypingFrame {
  start: number;
  duration: number;
  /** Style, layout and paint at its end. */
  render: number;
  scripts: { what: string; ms: number }[];
}

/** Collects the long animation frames from now on into window.__twLoaf (read by typingFrames). */
const WATCH_LONG_FRAMES = `(() => {
  window.__twLoaf = [];
  if (!PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')) return;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      window.__twLoaf.push({
        start: e.startTime,
        duration: e.duration,
        render: e.renderStart ? e.startTime + e.duration - e.renderStart : 0,
        scripts: e.scripts.map((s) => ({ what: (s.invoker || '?') + (s.sourceFunctionName ? ' ' + s.sourceFunctionName : ''), ms: s.duration })),
      });
  }).observe({ type: 'long-animation-frame' });
})()`;

export async function typingFrames(page: Page): Promise<{ frames: TypingFrame[]; settledAt: number | undefined }> {
  return (await page.evaluate(`({
    frames: window.__twLoaf || [],
    settledAt: performance.getEntriesByName('tw:first-screen-settled')[0]?.startTime,
  })`)) as { frames: TypingFrame[]; settledAt: number | undefined };
}

/** What the long frames during a key held: "frame 80 ms (render 12): IdleRequestCallback r 38, …". */
export function framesDuring(key: KeyTiming, frames: readonly TypingFrame[]): string {
  const during = frames.filter((f) => f.start < key.at + key.ms && f.start + f.duration > key.at);
  return during
    .map((f) => {
      const top = [...f.scripts].sort((a, b) => b.ms - a.ms).slice(0, 2);
      return `${f.duration.toFixed(0)} ms (render ${f.render.toFixed(0)}${top.length ? ': ' + top.map((s) => `${s.what} ${s.ms.toFixed(0)}`).join(', ') : ''})`;
    })
    .join('; ');
}

export async function keystrokes(page: Page): Promise<KeyTiming[]> {
  const box = page.getByTestId('search-box');
  const out: KeyTiming[] = [];
  await page.evaluate(WATCH_LONG_FRAMES);
  for (const q of QUERIES) {
    await box.fill('');
    await page.evaluate(() => {
      performance.clearMeasures('tw:search');
      performance.clearResourceTimings();
      performance.setResourceTimingBufferSize(1000);
    });
    await box.focus();
    let expected = 0;
    let previous = '';
    for (let i = 0; i < q.length; i++) {
      const ch = q[i]!;
      await page.keyboard.type(ch);
      // A trailing space searches the same words again: nothing new to paint.
      const typed = q.slice(0, i + 1).trim();
      if (typed === previous) continue;
      previous = typed;
      expected++;
      await page.waitForFunction((n) => performance.getEntriesByName('tw:search').length >= n, expected, { timeout: 10_000 }).catch(() => undefined);
    }
    const measures = await page.evaluate(() => {
      const searches = performance.getEntriesByType('resource').filter((r) => r.name.includes('/tools/tools/search?'));
      return performance.getEntriesByName('tw:search').map((e) => {
        const q = String((e as PerformanceMeasure).detail?.q);
        // This key's request: the last one for its query that left after the key.
        const url = `q=${encodeURIComponent(q)}&`;
        const req = searches.filter((r) => r.name.includes(url) && r.startTime >= e.startTime - 1).at(0) as PerformanceResourceTiming | undefined;
        const phases = req
          ? { before: req.startTime - e.startTime, wire: req.responseEnd - req.startTime, after: e.startTime + e.duration - req.responseEnd }
          : undefined;
        return { q, ms: e.duration, at: e.startTime, ...(phases ? { phases } : {}) };
      });
    });
    out.push(...measures.map((m, i) => ({ ...m, nth: out.length + i + 1 })));
  }
  return out;
}

export async function searchFetchBaseline(page: Page): Promise<number[]> {
  // Once the page's deferred start (which waits for the keys to pause) has run and a second more:
  // the bare fetch's own time, not the app's background work that the keys were spared.
  await waitForMark(page, 'tw:first-screen-settled', 30_000).catch(() => undefined);
  await page.waitForTimeout(1500);
  return page.evaluate(async (queries) => {
    const token = sessionStorage.getItem('toolwright.token');
    const times: number[] = [];
    for (const q of queries) {
      const t0 = performance.now();
      const res = await fetch(`/tools/tools/search?q=${encodeURIComponent(q.trim())}&includeDisabled=true&pageSize=20`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      await res.json();
      times.push(performance.now() - t0);
    }
    return times;
  }, QUERY_PREFIXES);
}

/** What the long frames of a scroll held (the Long Animation Frames API: each frame over 50 ms). */
export interface LongFrames {
  count: number;
  /** Script run in them: event handlers, React's scheduler tasks, animation-frame callbacks. */
  scriptMs: number;
  /** Their rendering update: style, layout, paint and the commit to the compositor. */
  renderMs: number;
  /** The rest: tasks without script (input dispatch, hit tests, garbage collection) and waiting for the CPU. */
  otherMs: number;
}

/** rAF intervals while wheel-scrolling the list versus while idle, and what the long frames held. */
async function scrollFrames(page: Page): Promise<{ scrolling: number[]; idle: number[]; long: LongFrames }> {
  // A string, not a function: the bundler's helpers (__name) do not exist in the page.
  const collect = (ms: number) =>
    page.evaluate(`new Promise((resolve) => {
      const deltas = [];
      const long = { count: 0, scriptMs: 0, renderMs: 0, otherMs: 0 };
      const observer = typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')
        ? new PerformanceObserver((list) => {
            for (const e of list.getEntries()) {
              const script = e.scripts.reduce((n, s) => n + s.duration, 0);
              const render = e.renderStart ? e.startTime + e.duration - e.renderStart : 0;
              long.count++;
              long.scriptMs += script;
              long.renderMs += render;
              long.otherMs += Math.max(0, e.duration - script - render);
            }
          })
        : undefined;
      observer?.observe({ type: 'long-animation-frame' });
      let last = performance.now();
      const end = last + ${ms};
      const tick = (now) => {
        deltas.push(now - last);
        last = now;
        if (now < end) requestAnimationFrame(tick);
        else {
          // Entries of the last frames are delivered after it ends.
          setTimeout(() => {
            observer?.disconnect();
            resolve({ deltas: deltas.slice(1), long });
          }, 100);
        }
      };
      requestAnimationFrame(tick);
    })`) as Promise<{ deltas: number[]; long: LongFrames }>;
  const idle = await collect(1000);
  const scroller = page.getByTestId('tool-scroll');
  const box = await scroller.boundingBox();
  await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
  const scrolling = collect(2500);
  for (let i = 0; i < 50; i++) {
    await page.mouse.wheel(0, 2400);
    await page.waitForTimeout(40);
  }
  const done = await scrolling;
  return { scrolling: done.deltas, idle: idle.deltas, long: done.long };
}

/**
 * Right after start the host is still reading and indexing 10,000 files (the first HTML took
 * ~0.9 s to arrive in trials), and after it listens it counts every tool's context cost in the
 * background (the tokenizer, seconds of CPU for 10,000 tools). The UI is measured on a settled
 * host: once it answers and has said `context.counted` (or after 90 s), not during its start.
 */
export async function warmUp(host: Host): Promise<void> {
  const auth = { Authorization: `Bearer ${host.token}` };
  const counted = untilEvent(host, 'context.counted', 90_000);
  for (let i = 0; i < 3; i++) {
    await (await fetch(`${host.url}/`)).text();
    await (await fetch(`${host.url}/tools/tools?includeDisabled=true&recommendedPageSize=1000`, { headers: auth })).text();
    await (await fetch(`${host.url}/tools/tools/search?q=weather`, { headers: auth })).text();
  }
  const heard = await counted;
  if (!heard) console.log('  (the host did not say context.counted within 90 s; measuring anyway)');
  await new Promise((r) => setTimeout(r, 2000));
}

/** Whether the host's event stream carries an event of this type within `ms`. */
async function untilEvent(host: Host, type: string, ms: number): Promise<boolean> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), ms);
  try {
    const res = await fetch(`${host.url}/tools/events`, { headers: { Authorization: `Bearer ${host.token}` }, signal: stop.signal });
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if (text.includes(`"type":"${type}"`)) return true;
      text = text.slice(-200);
    }
    return false;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
}

/** The 1-minute load average, and how many cores there are to share it. */
function load(): string {
  return `load ${loadavg()[0]!.toFixed(2)}`;
}

function line(label: string, ours: string, base: string, note = ''): void {
  console.log(`  ${label.padEnd(46)} ours ${ours.padStart(10)}   baseline ${base.padStart(10)}   ${load().padEnd(10)} ${note}`);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function chunkLine(label: string, chunks: readonly ChunkInfo[], note = ''): void {
  const bytes = chunks.reduce((n, c) => n + c.bytes, 0);
  const gzip = chunks.reduce((n, c) => n + c.gzipBytes, 0);
  console.log(`  ${label.padEnd(46)} ${kb(bytes).padStart(10)}   gzip ${kb(gzip).padStart(9)}   ${note}`);
}

/** JS bytes per chunk: what loads first, what the card frame brings, what comes on demand. */
async function bundleReport(): Promise<void> {
  const chunks = await rendererChunks();
  const single = await rendererChunks({ inlineDynamicImports: true });
  const entry = chunks.find((c) => c.isEntry)!;
  const card = chunkHolding(chunks, 'renderer/src/features/card/CardFrame.tsx')!;
  const total = chunks.reduce((n, c) => n + c.bytes, 0);
  console.log(`  renderer JS, minified (vite build); ${chunks.length} chunks, ${kb(total)} in all`);
  chunkLine('baseline: the same app as one chunk', single, 'what every start would load without lazy loading');
  chunkLine(`entry ${entry.fileName}`, [entry], 'the first screen (tool list, sidebar, search)');
  const cardClosure = staticClosure(chunks, card).filter((c) => c !== entry);
  const editors = ['@codemirror/view', '@rjsf/core'].filter((p) => packagesIn(cardClosure).has(p));
  chunkLine(`card frame ${card.fileName}`, cardClosure, `with what it loads besides the entry; editors in it: ${editors.join(', ') || 'none'}`);
  const lazy = chunks.filter((c) => c !== entry && c !== card).sort((a, b) => b.bytes - a.bytes);
  for (const c of lazy.slice(0, 8)) {
    const names = [...packagesIn([c])].slice(0, 3).join(', ');
    chunkLine(`  ${c.isDynamicEntry ? 'lazy' : 'shared'} ${c.fileName}`, [c], names);
  }
  if (lazy.length > 8) chunkLine(`  ${lazy.length - 8} more lazy chunks`, lazy.slice(8));
}

export async function run(): Promise<void> {
  if (!chromiumAvailable()) throw new Error('no Chromium at /usr/bin/chromium');
  const dataDir = await mkdtemp(join(tmpdir(), 'tw-bench-ui-'));
  let host: Host | undefined;
  await bundleReport();
  const browser = await launchBrowser();
  try {
    await writeDataset(dataDir);
    host = await startHost({ dataDir });
    await warmUp(host);
    console.log(`  ${TOOLS.toLocaleString()} tools in ${BUNDLES} bundles; Chromium headless, 1280×820; ${load()} on ${os.cpus().length} cores`);

    const renders: RenderTiming[] = [];
    const fetches: number[] = [];
    for (let i = 0; i < FIRST_RENDER_RUNS; i++) {
      const page = await browser.context.newPage();
      renders.push(await firstRender(page, host));
      fetches.push(await listFetchBaseline(page));
      await page.close();
    }
    const painted = renders.map((r) => r.painted);
    line('first render of the tool list, first load', fmt(painted[0]!), fmt(fetches[0]!), `slowest API answer in it: ${fmt(renders[0]!.slowestApi)}`);
    line(
      `first render of the tool list, median of ${FIRST_RENDER_RUNS}`,
      fmt(median(painted)),
      fmt(median(fetches)),
      'goal ≤ 500 ms; baseline: first list page fetch alone',
    );
    line(
      `first render of the tool list, worst of ${FIRST_RENDER_RUNS}`,
      fmt(Math.max(...painted)),
      fmt(Math.max(...fetches)),
      '(navigation start → rows painted, no HTTP cache)',
    );
    const byBrowser = renders.flatMap((r) => (r.elementPainted === undefined ? [] : [r.elementPainted]));
    if (byBrowser.length)
      line(
        `  the first row's paint (Element Timing), median`,
        fmt(median(byBrowser)),
        fmt(median(fetches)),
        `the browser's own paint time of the first row's name, a check on the app's mark (${byBrowser.length} of ${renders.length})`,
      );

    const page = await browser.context.newPage();
    await firstRender(page, host);
    const timings = await keystrokes(page);
    const keys = timings.map((k) => k.ms);
    const base = await searchFetchBaseline(page);
    line(`keystroke → results painted p50 (${keys.length} keys)`, fmt(quantile(keys, 0.5)), fmt(quantile(base, 0.5)), 'baseline: bare search fetch');
    line('keystroke → results painted p95', fmt(quantile(keys, 0.95)), fmt(quantile(base, 0.95)), 'goal ≤ 50 ms');
    const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, 5);
    console.log(`    slowest keys: ${slowest.map((k) => `#${k.nth} "${k.q}" ${fmt(k.ms)}`).join(', ')}`);
    const typing = await typingFrames(page);
    const first = timings[0]!.at;
    const settled = typing.settledAt === undefined ? 'not during the keys' : `${fmt(typing.settledAt - first)} after key #1`;
    console.log(`    the deferred start (first-screen gate settled): ${settled}; keys typed over ${fmt(timings.at(-1)!.at - first)}`);
    for (const k of slowest) {
      const held = framesDuring(k, typing.frames);
      console.log(`      #${k.nth} at +${fmt(k.at - first)}: ${held ? `long frames ${held}` : 'no long frame'}`);
    }
    const phase = (name: 'before' | 'wire' | 'after') => timings.flatMap((k) => (k.phases ? [k.phases[name]] : []));
    console.log(
      `    where a key's time goes, p50 / p95: key → request left ${fmt(quantile(phase('before'), 0.5))} / ${fmt(quantile(phase('before'), 0.95))}; ` +
        `request ${fmt(quantile(phase('wire'), 0.5))} / ${fmt(quantile(phase('wire'), 0.95))}; ` +
        `answer → painted ${fmt(quantile(phase('after'), 0.5))} / ${fmt(quantile(phase('after'), 0.95))} (${phase('wire').length} of ${timings.length} keys matched to their request)`,
    );

    await page.getByTestId('search-box').fill('');
    await page.keyboard.press('Escape');
    const frames = await scrollFrames(page);
    line('frame interval while scrolling 10k rows p50', fmt(quantile(frames.scrolling, 0.5)), fmt(quantile(frames.idle, 0.5)), 'baseline: idle frames');
    line(
      'frame interval while scrolling 10k rows p95',
      fmt(quantile(frames.scrolling, 0.95)),
      fmt(quantile(frames.idle, 0.95)),
      `rows in DOM: ${await page.locator('.vrow').count()}`,
    );
    const over = frames.scrolling.filter((d) => d > 20).length;
    const lf = frames.long;
    console.log(
      `  ${'frames over 20 ms while scrolling'.padEnd(46)} ${String(over).padStart(5)} of ${frames.scrolling.length}   ${load().padEnd(10)} ` +
        `long frames (> 50 ms): ${lf.count}, holding script ${fmt(lf.scriptMs)}, style/layout/paint ${fmt(lf.renderMs)}, other ${fmt(lf.otherMs)}`,
    );
    await page.close();
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
