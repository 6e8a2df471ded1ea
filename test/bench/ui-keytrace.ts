/**
 * What one search key's time holds, read from a Chromium trace: the first key typed at the first
 * paint, then in a settled window the first key of a new query and the key after it. For each key
 * (its tw:search measure: keystroke → results painted) the trace events of the page's main thread
 * inside it, summed by name (nested events are counted inside their parents too), and the
 * raster and GPU work of the other threads. For reading, not a figure: the load is printed.
 *
 * Run alone: npx tsx test/bench/ui-keytrace.ts (TW_BENCH_RUNS windows, 2 by default)
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { openRendererRig } from './renderer-rig.js';
import { waitForMark } from './ui.js';
import { fmt } from './util.js';
import { traced, type TraceEvent } from './trace.js';

const TOKEN = 'bench-keytrace';

const CATEGORIES = 'devtools.timeline,blink.user_timing,v8.execute,disabled-by-default-devtools.timeline,cc,gpu';

/** Types `key` and waits for its tw:search measure (the `nth` of the page). */
async function typeKey(page: Page, key: string, nth: number): Promise<void> {
  await page.keyboard.type(key);
  await page.waitForFunction((n) => performance.getEntriesByName('tw:search').length >= n, nth, { timeout: 10_000 });
}

function report(label: string, events: TraceEvent[], q: string): void {
  const mark = events.find((e) => e.name === `tw:search-input:${q}` && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n' || e.ph === 'b'));
  const measure = events.filter((e) => e.name === 'tw:search' && (e.ph === 'b' || e.ph === 'e'));
  if (!mark || measure.length < 2) {
    console.log(`  ${label}: marks not found in the trace`);
    return;
  }
  const start = measure.find((e) => e.ph === 'b')!.ts;
  const end = measure.find((e) => e.ph === 'e')!.ts;
  const main = events.filter((e) => e.pid === mark.pid && e.tid === mark.tid && e.ph === 'X' && e.ts < end && e.ts + (e.dur ?? 0) > start);
  // Self time by name: each event's duration less its children's (events nest on one thread).
  const sums = new Map<string, number>();
  const sorted = [...main].sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const stack: { e: TraceEvent; child: number }[] = [];
  const close = (until: number) => {
    while (stack.length && stack.at(-1)!.e.ts + (stack.at(-1)!.e.dur ?? 0) <= until) {
      const { e, child } = stack.pop()!;
      const name = e.name === 'EventDispatch' ? `EventDispatch(${String(e.args?.data?.['type'] ?? '?')})` : e.name;
      sums.set(name, (sums.get(name) ?? 0) + ((e.dur ?? 0) - child) / 1000);
      if (stack.length) stack.at(-1)!.child += e.dur ?? 0;
    }
  };
  for (const e of sorted) {
    close(e.ts);
    stack.push({ e, child: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  const top = [...sums].sort((a, b) => b[1] - a[1]).slice(0, 16);
  const elements = main
    .filter((e) => e.name === 'UpdateLayoutTree')
    .map((e) => Number((e.args as { elementCount?: number } | undefined)?.elementCount ?? e.args?.data?.['elementCount'] ?? 0));
  const other = events.filter((e) => e.ph === 'X' && !(e.pid === mark.pid && e.tid === mark.tid) && e.ts < end && e.ts > start);
  const otherSums = new Map<string, number>();
  for (const e of other) if (/Raster|GPU|Draw|Commit|Activate/i.test(e.name)) otherSums.set(e.name, (otherSums.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
  console.log(`  ${label}: ${fmt((end - start) / 1000)}, load ${loadavg()[0]!.toFixed(2)}`);
  console.log(`    main thread, self time: ${top.map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(', ')}`);
  console.log(`    style recalcs: ${elements.length} (${elements.join(', ')} elements)`);
  console.log(
    `    other threads: ${[...otherSums]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([n, ms]) => `${n} ${ms.toFixed(1)}`)
      .join(', ')}`,
  );
}

export async function run(): Promise<void> {
  const runs = Number(process.env['TW_BENCH_RUNS'] ?? 2);
  const rig = await openRendererRig({ token: TOKEN, others: [], watch: false, dataPrefix: 'tw-bench-keytrace-' });
  try {
    const url = rig.urls.get('ours')!;
    const warm = await rig.browser.context.newPage();
    await warm.goto(`${url}/#token=${TOKEN}`);
    await waitForMark(warm, 'tw:toollist-painted');
    await warm.close();
    for (let i = 0; i < runs; i++) {
      const page = await rig.browser.context.newPage();
      const cdp = await page.context().newCDPSession(page);
      await page.goto(`${url}/#token=${TOKEN}`);
      await waitForMark(page, 'tw:toollist-painted');
      const box = page.getByTestId('search-box');
      await box.focus();
      report('first key at the paint ("w")', await traced(cdp, CATEGORIES, () => typeKey(page, 'w', 1)), 'w');
      await box.fill('');
      await page.keyboard.press('Escape');
      await page.waitForTimeout(8000);
      await box.focus();
      report('settled window, first key of a new query ("i")', await traced(cdp, CATEGORIES, () => typeKey(page, 'i', 2)), 'i');
      report('the key after it ("in")', await traced(cdp, CATEGORIES, () => typeKey(page, 'n', 3)), 'in');
      report('and the next ("inv")', await traced(cdp, CATEGORIES, () => typeKey(page, 'v', 4)), 'inv');
      await page.close();
    }
  } finally {
    await rig.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
