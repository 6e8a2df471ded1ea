/**
 * The page's own work, counted rather than timed (the machine is shared, so wall times swing
 * with load): CPU spent in script, style and layout, how many style recalculations, layouts and
 * React commits, and how many animation frames the page asked for. Once for the first render of
 * 10,000 tools (to the tw:toollist-painted mark, then the 3 s after it), once for typing the
 * searches with a writer rewriting tool.json every 20 ms. With TW_BENCH_OTHER_RENDERER set
 * (see ui-compare.ts), the same for that build, interleaved.
 *
 * Run alone: [TW_BENCH_OTHER_RENDERER=/tmp/old-renderer] npx tsx test/bench/ui-profile.ts
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CDPSession, Page } from 'playwright-core';
import { waitForMark } from './ui.js';
import { openRendererRig } from './renderer-rig.js';
import { median } from './util.js';

const RUNS = 4;
const QUERIES = ['weather', 'invoice', 'calendar', 'stock price', 'report'];
const TOKEN = 'bench-profile';
const METRICS = ['ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration', 'TaskDuration', 'RecalcStyleCount', 'LayoutCount'] as const;
type Figures = Record<(typeof METRICS)[number] | 'commits' | 'frames', number>;

/** Counts React commits (through the devtools hook React looks for) and animation-frame requests. */
const COUNTERS = `
  window.__twCount = { commits: 0, frames: 0 };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, renderers: new Map(), isDisabled: false,
    inject() { return 1; }, checkDCE() {}, onScheduleFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
    onCommitFiberRoot() { window.__twCount.commits++; },
  };
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) => { window.__twCount.frames++; return raf(cb); };
`;

async function snapshot(page: Page, cdp: CDPSession): Promise<Figures> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  const counts = (await page.evaluate('window.__twCount')) as { commits: number; frames: number };
  const out = { ...counts } as Figures;
  for (const m of METRICS) out[m] = metrics.find((x) => x.name === m)?.value ?? 0;
  return out;
}

function minus(a: Figures, b: Figures): Figures {
  const out = { ...a };
  for (const k of Object.keys(a) as (keyof Figures)[]) out[k] = a[k] - b[k];
  return out;
}

function describe(runs: Figures[]): string {
  const m = (k: keyof Figures) => median(runs.map((r) => r[k]));
  const ms = (k: keyof Figures) => `${Math.round(m(k) * 1000)}`;
  return (
    `script ${ms('ScriptDuration')} ms, style ${ms('RecalcStyleDuration')} ms (${m('RecalcStyleCount')}×), ` +
    `layout ${ms('LayoutDuration')} ms (${m('LayoutCount')}×), tasks ${ms('TaskDuration')} ms; ${m('commits')} commits, ${m('frames')} rAF`
  );
}

export async function run(): Promise<void> {
  const other = process.env['TW_BENCH_OTHER_RENDERER'];
  if (other && !existsSync(join(other, 'index.html'))) throw new Error(`no renderer build in ${other}`);
  const rig = await openRendererRig({ token: TOKEN, others: other ? [['other', other]] : [], watch: true, dataPrefix: 'tw-bench-profile-' });
  const { browser, urls } = rig;
  const builds = [...urls.keys()].map((name) => [name] as const);
  const loads: number[] = [];
  try {
    const open = async (name: string) => {
      const page = await browser.context.newPage();
      await page.addInitScript(COUNTERS);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Performance.enable');
      await page.goto(`${urls.get(name)}/#token=${TOKEN}`);
      await waitForMark(page, 'tw:toollist-painted');
      return { page, cdp };
    };
    const first = new Map<string, Figures[]>();
    const settled = new Map<string, Figures[]>();
    for (let i = 0; i < RUNS; i++) {
      for (const [name] of i % 2 ? [...builds].reverse() : builds) {
        const { page, cdp } = await open(name);
        const atPaint = await snapshot(page, cdp);
        await page.waitForTimeout(3000);
        first.set(name, [...(first.get(name) ?? []), atPaint]);
        settled.set(name, [...(settled.get(name) ?? []), minus(await snapshot(page, cdp), atPaint)]);
        loads.push(loadavg()[0]!);
        await page.close();
      }
    }
    const typingPages = new Map<string, { page: Page; cdp: CDPSession }>();
    for (const [name] of builds) typingPages.set(name, await open(name));
    await new Promise((r) => setTimeout(r, 3000));
    await rig.startWriter();
    await new Promise((r) => setTimeout(r, 1000));
    const typing = new Map<string, Figures[]>();
    for (const [i, q] of QUERIES.entries()) {
      for (const [name] of i % 2 ? [...builds].reverse() : builds) {
        const { page, cdp } = typingPages.get(name)!;
        await page.bringToFront();
        const box = page.getByTestId('search-box');
        await box.fill('');
        await page.waitForTimeout(300);
        await box.focus();
        const before = await snapshot(page, cdp);
        await page.keyboard.type(q, { delay: 120 });
        await page.waitForTimeout(1500);
        typing.set(name, [...(typing.get(name) ?? []), minus(await snapshot(page, cdp), before)]);
        loads.push(loadavg()[0]!);
      }
    }
    console.log(`  10,000 tools; medians; load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
    for (const [name] of builds) {
      console.log(`  ${name}: to the list painted       ${describe(first.get(name)!)}`);
      console.log(`  ${name}: the 3 s after the paint   ${describe(settled.get(name)!)}`);
      console.log(`  ${name}: typing one query, writer  ${describe(typing.get(name)!)}`);
    }
  } finally {
    await rig.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
