/**
 * Where the page's main thread goes, for reading rather than for a figure: a renderer build is
 * served on the 10,000-tool data set and Chromium records, for the first render, one query typed
 * and two seconds of wheel-scrolling,
 * - every React commit: when, which component's state or which context changed to cause it
 *   (read off the fiber tree through the devtools hook, so it needs no React profiling build), and
 *   how many components rendered in it;
 * - the JS CPU profile's heaviest functions (self time) and the style, layout and task time.
 * Component names need an unminified build: TW_BENCH_TRACE_RENDERER=<folder of
 * `npx vite build --config renderer/vite.config.ts --minify false --outDir <folder>`>; without it
 * this checkout's renderer is built unminified into a temporary folder.
 *
 * Run alone: npx tsx test/bench/ui-trace.ts [first|keys|scroll]...
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import type { CDPSession, Page } from 'playwright-core';
import { createCore } from '../../electron/core/app-core.js';
import { createHttpHost } from '../../electron/host/http-host.js';
import { launchBrowser, PROJECT_ROOT } from '../e2e/harness.js';
import { waitForMark, writeDataset } from './ui.js';

const TOKEN = 'bench-trace';

/** Counts each commit's causes: state hooks whose value changed, and context values that changed. */
const COMMIT_WATCH = `
  window.__twCommits = [];
  const nameOf = (f) => { const t = f.type; return !t ? '?' : typeof t === 'string' ? t : t.displayName || t.name || (t.render && (t.render.displayName || t.render.name)) || (t.type && (t.type.displayName || t.type.name)) || '(anon)'; };
  const isEffect = (s) => s && typeof s === 'object' && 'create' in s && 'tag' in s;
  const walk = (fiber, out) => {
    let stack = [fiber];
    while (stack.length) {
      const f = stack.pop();
      if (!f) continue;
      const alt = f.alternate;
      if ((f.flags & 1) && typeof f.type !== 'string') out.rendered++;
      if (alt && (f.flags & 1)) {
        if (f.tag === 0 || f.tag === 11 || f.tag === 14 || f.tag === 15) {
          let h = f.memoizedState, ha = alt.memoizedState, i = 0;
          while (h && ha) {
            if (h.queue && !isEffect(h.memoizedState) && h.memoizedState !== ha.memoizedState) out.causes.push(nameOf(f) + '#' + i);
            h = h.next; ha = ha.next; i++;
          }
        } else if (f.tag === 1 && f.memoizedState !== alt.memoizedState) out.causes.push(nameOf(f) + '(class state)');
        else if (f.tag === 10 && f.memoizedProps && alt.memoizedProps && f.memoizedProps.value !== alt.memoizedProps.value) out.causes.push('context ' + (f.type && (f.type.displayName || (f.type._context && f.type._context.displayName)) || nameOf(f)));
      }
      if (!alt && (f.flags & 1) && typeof f.type !== 'string') { out.mounted++; const n = nameOf(f); out.names[n] = (out.names[n] || 0) + 1; }
      stack.push(f.sibling);
      // A subtree React bailed out of keeps its children (the same fibers as before): not rendered in this commit.
      if (!alt || f.child !== alt.child) stack.push(f.child);
    }
  };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, renderers: new Map(), isDisabled: false,
    inject() { return 1; }, checkDCE() {}, onScheduleFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
    onCommitFiberRoot(id, root) {
      const out = { t: Math.round(performance.now()), causes: [], rendered: 0, mounted: 0, names: {}, vrows: document.querySelectorAll('.vrow').length, nodes: document.getElementsByTagName('*').length };
      const t0 = performance.now();
      walk(root.current, out);
      out.walkMs = Math.round(performance.now() - t0);
      window.__twCommits.push(out);
    },
  };
`;

interface Commit {
  t: number;
  causes: string[];
  rendered: number;
  mounted: number;
  names: Record<string, number>;
  vrows: number;
  nodes: number;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

async function profiled<T>(cdp: CDPSession, what: () => Promise<T>): Promise<{ result: T; top: string[]; metrics: Record<string, number> }> {
  const metric = async () => {
    const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
    return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
  };
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  const before = await metric();
  await cdp.send('Profiler.start');
  const result = await what();
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
  const after = await metric();
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (let i = 0; i < profile.samples.length; i++) {
    const n = byId.get(profile.samples[i]!)!;
    const f = n.callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  }
  const top = [...self.entries()]
    .filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(program)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([k, ms]) => `${ms.toFixed(1).padStart(7)} ms  ${k}`);
  const metrics: Record<string, number> = {};
  for (const k of ['ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration', 'TaskDuration'])
    metrics[k] = Math.round(((after[k] ?? 0) - (before[k] ?? 0)) * 1000);
  for (const k of ['RecalcStyleCount', 'LayoutCount', 'Nodes']) metrics[k] = (after[k] ?? 0) - (before[k] ?? 0);
  return { result, top, metrics };
}

function printCommits(commits: Commit[], since = 0): void {
  for (const c of commits) {
    const counts = new Map<string, number>();
    for (const cause of c.causes) counts.set(cause, (counts.get(cause) ?? 0) + 1);
    const causes = [...counts].map(([k, n]) => (n > 1 ? `${k}×${n}` : k)).join(', ');
    const names = Object.entries(c.names ?? {})
      .sort((a, b) => b[1] - a[1])
      .slice(0, c.mounted < 60 ? 40 : 6)
      .map(([k, v]) => `${k}×${v}`)
      .join(' ');
    console.log(
      `    +${String(c.t - since).padStart(6)} ms  rendered ${String(c.rendered).padStart(4)} (mounted ${String(c.mounted).padStart(4)}; ${c.vrows} rows, ${c.nodes} elements)  ${causes || '(first mount)'}${names ? `  mounted: ${names}` : ''}`,
    );
  }
}

async function open(page: Page, url: string): Promise<CDPSession> {
  await page.addInitScript(COMMIT_WATCH);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.goto(url);
  return cdp;
}

export async function run(): Promise<void> {
  const wanted = new Set(process.argv.slice(2).filter((a) => ['first', 'early', 'keys', 'scroll'].includes(a)));
  const all = wanted.size === 0;
  let rendererDir = process.env['TW_BENCH_TRACE_RENDERER'];
  const temp: string[] = [];
  if (!rendererDir) {
    rendererDir = await mkdtemp(join(tmpdir(), 'tw-bench-trace-renderer-'));
    temp.push(rendererDir);
    await build({
      configFile: join(PROJECT_ROOT, 'renderer/vite.config.ts'),
      logLevel: 'silent',
      build: { outDir: rendererDir, emptyOutDir: true, minify: false },
    });
  }
  const dataDir = process.env['TW_BENCH_TRACE_DATA'] ?? (await mkdtemp(join(tmpdir(), 'tw-bench-trace-data-')));
  if (!process.env['TW_BENCH_TRACE_DATA']) {
    temp.push(dataDir);
    await writeDataset(dataDir);
  }
  const core = await createCore({ dataDir, docker: false, watch: false });
  const app = await createHttpHost({ core, token: TOKEN, rendererDir, mcp: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/#token=${TOKEN}`;
  const browser = await launchBrowser();
  try {
    // Warm the host (its first answers build caches) before anything is measured.
    const warm = await browser.context.newPage();
    await warm.goto(url);
    await waitForMark(warm, 'tw:toollist-painted');
    await warm.close();
    if (all || wanted.has('first')) {
      for (let i = 0; i < 2; i++) {
        const page = await browser.context.newPage();
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Performance.enable');
        const { result, top, metrics } = await profiled(cdp, async () => {
          await page.addInitScript(COMMIT_WATCH);
          await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
          await page.goto(url);
          await waitForMark(page, 'tw:toollist-painted');
          return (await page.evaluate(`({ painted: performance.getEntriesByName('tw:toollist-painted')[0].startTime, commits: window.__twCommits,
            marks: performance.getEntriesByType('mark').map((m) => m.name + '@' + Math.round(m.startTime)),
            api: performance.getEntriesByType('resource').filter((e) => e.name.includes('/tools/') || e.name.includes('.js') || e.name.includes('.css')).map((e) => e.name.split('/').pop().slice(0, 50) + ' ' + Math.round(e.startTime) + '→' + Math.round(e.responseEnd)) })`)) as {
            painted: number;
            commits: Commit[];
            marks: string[];
            api: string[];
          };
        });
        console.log(
          `  first render ${Math.round(result.painted)} ms, load ${loadavg()[0]!.toFixed(2)}; ${result.commits.length} commits before the paint mark`,
        );
        console.log(`    marks: ${result.marks.join('  ')}`);
        console.log(`    requests: ${result.api.join('  |  ')}`);
        printCommits(result.commits);
        console.log(`    page work: ${JSON.stringify(metrics)}`);
        for (const l of top.slice(0, 18)) console.log(`      ${l}`);
        await page.close();
      }
    }
    if (all || wanted.has('early')) {
      // Keys typed into a fresh window the moment its rows paint: what else the page does meanwhile.
      for (let i = 0; i < 2; i++) {
        const page = await browser.context.newPage();
        await open(page, url);
        await waitForMark(page, 'tw:toollist-painted');
        const box = page.getByTestId('search-box');
        await box.focus();
        for (const ch of 'weather') {
          const n = ((await page.evaluate(`performance.getEntriesByName('tw:search').length`)) as number) + 1;
          await page.keyboard.type(ch);
          await page.waitForFunction((k) => performance.getEntriesByName('tw:search').length >= k, n, { timeout: 10_000 }).catch(() => undefined);
        }
        await page.waitForTimeout(1500);
        const result = (await page.evaluate(`({ painted: performance.getEntriesByName('tw:toollist-painted')[0].startTime, commits: window.__twCommits,
          search: performance.getEntriesByName('tw:search').map((e) => e.detail.q + ' ' + Math.round(e.startTime) + '+' + Math.round(e.duration)),
          requests: performance.getEntriesByType('resource').filter((e) => e.name.includes('/tools/') && !e.name.includes('/search?')).map((e) => e.name.split('/tools/').pop().split('?')[0] + (e.name.includes('pageToken') ? '+next' : '') + ' ' + Math.round(e.encodedBodySize / 1024) + 'KB ' + Math.round(e.startTime) + '→' + Math.round(e.responseEnd)) })`)) as {
          painted: number;
          commits: Commit[];
          search: string[];
          requests: string[];
        };
        console.log(
          `  typing "weather" at the paint (${Math.round(result.painted)} ms), load ${loadavg()[0]!.toFixed(2)}; keys (query start+ms): ${result.search.join('  ')}`,
        );
        console.log(`    requests: ${result.requests.join('  |  ')}`);
        printCommits(result.commits.filter((c) => c.t >= result.painted - 50));
        await page.close();
      }
    }
    if (all || wanted.has('keys') || wanted.has('scroll')) {
      const page = await browser.context.newPage();
      const cdp = await open(page, url);
      await waitForMark(page, 'tw:toollist-painted');
      await page.waitForTimeout(1500);
      if (all || wanted.has('keys')) {
        const box = page.getByTestId('search-box');
        await box.focus();
        await page.evaluate(`window.__twCommits.length = 0; performance.clearMeasures('tw:search')`);
        const t0 = (await page.evaluate('performance.now()')) as number;
        const { result, top, metrics } = await profiled(cdp, async () => {
          for (const ch of 'invoice') {
            await page.keyboard.type(ch);
            await page.waitForTimeout(150);
          }
          await page.waitForTimeout(400);
          return (await page.evaluate(
            `({ commits: window.__twCommits, search: performance.getEntriesByName('tw:search').map((e) => Math.round(e.duration)) })`,
          )) as {
            commits: Commit[];
            search: number[];
          };
        });
        console.log(`  typing "invoice" (7 keys, 150 ms apart): keystroke → painted ${result.search.join(', ')} ms; load ${loadavg()[0]!.toFixed(2)}`);
        printCommits(result.commits, Math.round(t0));
        console.log(`    page work: ${JSON.stringify(metrics)}`);
        for (const l of top.slice(0, 18)) console.log(`      ${l}`);
        await box.fill('');
        await page.keyboard.press('Escape');
        await page.waitForTimeout(800);
      }
      if (all || wanted.has('scroll')) {
        const box = await page.getByTestId('tool-scroll').boundingBox();
        await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
        await page.evaluate(`window.__twCommits.length = 0`);
        const { result, top, metrics } = await profiled(cdp, async () => {
          const frames = page.evaluate(`new Promise((resolve) => { const d = []; let last = performance.now(); const end = last + 2000;
            const tick = (now) => { d.push(now - last); last = now; if (now < end) requestAnimationFrame(tick); else resolve(d.slice(1)); }; requestAnimationFrame(tick); })`) as Promise<
            number[]
          >;
          for (let i = 0; i < 40; i++) {
            await page.mouse.wheel(0, 2400);
            await page.waitForTimeout(40);
          }
          const d = (await frames).sort((a, b) => a - b);
          return { p50: d[Math.floor(d.length / 2)]!, p95: d[Math.floor(d.length * 0.95)]!, commits: (await page.evaluate('window.__twCommits')) as Commit[] };
        });
        const n = result.commits.length;
        const rendered = result.commits.reduce((s, c) => s + c.rendered, 0);
        console.log(
          `  scrolling 2 s: frame p50 ${result.p50.toFixed(1)} / p95 ${result.p95.toFixed(1)} ms; ${n} commits, ${(rendered / Math.max(1, n)).toFixed(1)} components rendered each; load ${loadavg()[0]!.toFixed(2)}`,
        );
        const counts = new Map<string, number>();
        for (const c of result.commits) for (const cause of new Set(c.causes)) counts.set(cause, (counts.get(cause) ?? 0) + 1);
        console.log(`    causes: ${[...counts].map(([k, v]) => `${k}×${v}`).join(', ')}`);
        console.log(`    page work: ${JSON.stringify(metrics)}`);
        for (const l of top.slice(0, 18)) console.log(`      ${l}`);
      }
      await page.close();
    }
  } finally {
    await browser.close();
    await app.close();
    await core.close();
    for (const dir of temp) await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
