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
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CDPSession, Page } from 'playwright-core';
import { build } from 'vite';
import { createCore } from '../../electron/core/app-core.js';
import { createRestServer } from '../../electron/host/rest/server.js';
import { chromiumAvailable, launchBrowser, PROJECT_ROOT } from '../e2e/harness.js';
import { startWriter, stopGroup } from './startup.js';
import { waitForMark, writeDataset } from './ui.js';
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
  if (!chromiumAvailable()) throw new Error('no Chromium at /usr/bin/chromium');
  const other = process.env['TW_BENCH_OTHER_RENDERER'];
  if (other && !existsSync(join(other, 'index.html'))) throw new Error(`no renderer build in ${other}`);
  const ours = await mkdtemp(join(tmpdir(), 'tw-bench-renderer-'));
  const dataDir = await mkdtemp(join(tmpdir(), 'tw-bench-profile-'));
  await build({ configFile: join(PROJECT_ROOT, 'renderer/vite.config.ts'), logLevel: 'silent', build: { outDir: ours, emptyOutDir: true } });
  await writeDataset(dataDir);
  const core = await createCore({ dataDir, docker: false, watch: true });
  const browser = await launchBrowser();
  const builds = other
    ? ([
        ['ours', ours],
        ['other', other],
      ] as const)
    : ([['ours', ours]] as const);
  const urls = new Map<string, string>();
  const apps = [];
  let writer: Awaited<ReturnType<typeof startWriter>> | undefined;
  const loads: number[] = [];
  try {
    for (const [name, dir] of builds) {
      const app = await createRestServer({ core, token: TOKEN, rendererDir: dir, mcp: core });
      await app.listen({ host: '127.0.0.1', port: 0 });
      apps.push(app);
      urls.set(name, `http://127.0.0.1:${(app.server.address() as { port: number }).port}`);
    }
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
    writer = await startWriter(dataDir);
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
    if (writer) await stopGroup(writer);
    await browser.close();
    for (const app of apps) await app.close();
    await core.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(ours, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
