/**
 * The app's start in real Chromium against the real host: what the first screen asks for before
 * its rows paint, and that live updates lose nothing while the event stream is still connecting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import type { Page, Route } from 'playwright-core';
import { api, chromiumAvailable, startHost, watchPageProblems, type Browser, type Host } from './harness.js';
import { openBrowser } from './fixture.js';
import { AFTER_PAINT_QUIET_MS } from '../../renderer/src/api/first-screen.js';

let host: Host;
let browser: Browser;

const painted = (page: Page) => page.waitForFunction(() => performance.getEntriesByName('tw:toollist-painted').length > 0, null, { timeout: 60_000 });

/**
 * The API requests the page sent, as `path?query`, with whether each left before the first rows
 * painted, and before the app's code started (tw:app-start, main.tsx).
 */
async function requests(page: Page): Promise<{ url: string; beforePaint: boolean; beforeApp: boolean }[]> {
  return (await page.evaluate(`(() => {
    const paint = performance.getEntriesByName('tw:toollist-painted')[0].startTime;
    const app = performance.getEntriesByName('tw:app-start')[0].startTime;
    return performance.getEntriesByType('resource')
      .filter((e) => !e.name.includes('/assets/') && !e.name.endsWith('/first-requests.js'))
      .map((e) => ({ url: e.name.replace(location.origin, ''), beforePaint: e.startTime < paint, beforeApp: e.startTime < app }));
  })()`)) as { url: string; beforePaint: boolean; beforeApp: boolean }[];
}

describe.skipIf(!chromiumAvailable())('first screen', () => {
  beforeAll(async () => {
    [host, browser] = await Promise.all([startHost(), openBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  it('asks, before its rows paint, only for what it shows and each once; the Trash, schedules and approvals follow', async () => {
    const page = await browser.context.newPage();
    const problems = watchPageProblems(page);
    await page.goto(`${host.url}/#token=${host.token}`);
    await painted(page);
    const sent = (await requests(page)).filter((r) => r.beforePaint && !r.url.startsWith('/tools/events'));
    const firstScreen = [
      '/tools/bundles?includeDisabled=true&deleted=exclude&pageSize=1000',
      '/tools/config',
      '/tools/problems',
      '/tools/tools?includeDisabled=true&recommendedPageSize=100',
    ];
    expect(sent.map((r) => r.url).sort()).toEqual(firstScreen);
    // Sent by public/first-requests.js while the entry chunk still loads, not after it ran (boot.ts), and taken by the app, not asked again.
    expect(
      sent
        .filter((r) => r.beforeApp)
        .map((r) => r.url)
        .sort(),
    ).toEqual(firstScreen);
    // Deferred, not dropped: the sidebar's Trash and schedule counts and the approvals panel ask once the list is up.
    await expect
      .poll(
        async () =>
          (await requests(page))
            .map((r) => r.url.split('?')[0]!)
            .filter((u) => /approvals|schedules/.test(u))
            .sort(),
        { timeout: 10_000 },
      )
      .toEqual(['/tools/approvals', '/tools/schedules']);
    await expect.poll(async () => (await requests(page)).some((r) => r.url.includes('deleted=only')), { timeout: 10_000 }).toBe(true);
    // And not at the paint itself: a key typed into the fresh window comes first (first-screen.ts, AFTER_PAINT_QUIET_MS).
    const deferredAfterPaint = (await page.evaluate(`(() => {
      const paint = performance.getEntriesByName('tw:toollist-painted')[0].startTime;
      return performance.getEntriesByType('resource').filter((e) => /approvals|schedules|deleted=only/.test(e.name)).map((e) => e.startTime - paint);
    })()`)) as number[];
    expect(deferredAfterPaint).toHaveLength(3);
    for (const ms of deferredAfterPaint) expect(ms).toBeGreaterThanOrEqual(AFTER_PAINT_QUIET_MS - 20);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("keeps the link's token for the tab only once the first screen has settled, or as the page goes: a reload at the paint stays signed in", async () => {
    const page = await browser.context.newPage();
    const problems = watchPageProblems(page);
    // When the page first reaches for sessionStorage.
    await page.addInitScript(`(() => {
      const own = Object.getOwnPropertyDescriptor(window, 'sessionStorage') ? window : Window.prototype;
      const d = Object.getOwnPropertyDescriptor(own, 'sessionStorage');
      Object.defineProperty(window, 'sessionStorage', { configurable: true, get() { window.__storageAt ??= performance.now(); return d.get.call(window); } });
    })()`);
    await page.goto(`${host.url}/#token=${host.token}`);
    await painted(page);
    // The address has lost the token, and the tab's first sessionStorage access (a synchronous round trip) waits for the first screen to settle.
    expect(await page.evaluate(() => location.hash)).toBe('#/tools');
    await page.waitForFunction(() => performance.getEntriesByName('tw:first-screen-settled').length > 0, null, { timeout: 30_000 });
    const [storageAt, settledAt] = (await page.evaluate(`[window.__storageAt, performance.getEntriesByName('tw:first-screen-settled')[0].startTime]`)) as [
      number | undefined,
      number,
    ];
    expect(storageAt).toBeGreaterThanOrEqual(settledAt);
    expect(await page.evaluate(() => sessionStorage.getItem('toolwright.token'))).toBe(host.token);
    await page.close();
    // A reload at the paint, before the first screen settles (a new tab: a session storage of its own): the token is kept as the page goes.
    const again = await browser.context.newPage();
    const againProblems = watchPageProblems(again);
    await again.goto(`${host.url}/#token=${host.token}`);
    await painted(again);
    await again.reload();
    await painted(again);
    await again.getByTestId('bundle-list').waitFor();
    expect(await again.getByTestId('signin-token').count()).toBe(0);
    expect([...problems, ...againProblems]).toEqual([]);
    await again.close();
  });

  it('renders the frame with its data and rows in its first commit; the bundles past the first screen follow', async () => {
    // More bundles than the sidebar renders before the list has painted (Sidebar.tsx, firstBundleRows: 21 at this window height).
    const slugs = Array.from({ length: 45 }, (_, i) => `many-${String(i).padStart(2, '0')}`);
    await Promise.all(slugs.map((slug) => api(host, 'bundles.put', { bundleID: uuidv7(), bundle: { slug, displayName: slug, isEnabled: true } })));
    const page = await browser.context.newPage();
    const problems = watchPageProblems(page);
    // React's commits, counted through the hook React DevTools uses, with what each left in the DOM.
    await page.addInitScript(`
      window.__commits = [];
      window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
        supportsFiber: true, renderers: new Map(), isDisabled: false,
        inject() { return 1; }, checkDCE() {}, onScheduleFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
        onCommitFiberRoot() {
          window.__commits.push({ t: performance.now(), rows: document.querySelectorAll('[data-testid="tool-scroll"] [role="row"]').length,
            bundles: document.querySelectorAll('[data-testid="bundle-list"] li').length });
        },
      };`);
    await page.goto(`${host.url}/#token=${host.token}`);
    await painted(page);
    const { commits, paint } = (await page.evaluate(
      `({ commits: window.__commits, paint: performance.getEntriesByName('tw:toollist-painted')[0].startTime })`,
    )) as {
      commits: { t: number; rows: number; bundles: number }[];
      paint: number;
    };
    // Before: the frame with its loading states first, then each answer in a commit of its own, then the rows (5–11 commits).
    expect(commits[0]!.rows).toBeGreaterThan(0);
    expect(commits[0]!.bundles).toBeGreaterThan(0);
    expect(commits.filter((c) => c.t < paint).length).toBeLessThanOrEqual(2);
    // Every bundle is in the sidebar once the list is up.
    for (const slug of [slugs[0]!, slugs[44]!]) await page.getByTestId(`bundle-${slug}`).waitFor({ timeout: 10_000 });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a change made after the first page was read and before the event stream connected, and live changes after it', async () => {
    const page = await browser.context.newPage();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/tools/events', async (route: Route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${host.url}/#token=${host.token}`);
    await painted(page);
    await page.getByTestId('bundle-list').getByText('core', { exact: false }).first().waitFor();
    // The store changes while the page has read its bundles and its stream is not open yet: no event can reach it.
    const missed = uuidv7();
    await api(host, 'bundles.put', { bundleID: missed, bundle: { slug: 'made-in-the-gap', displayName: 'Made in the gap', isEnabled: true } });
    await page.waitForTimeout(300);
    expect(await page.getByTestId('bundle-made-in-the-gap').count()).toBe(0);
    release();
    await page.getByTestId('bundle-made-in-the-gap').waitFor({ timeout: 15_000 });
    // And the stream, now open, carries what happens next.
    await api(host, 'bundles.put', { bundleID: uuidv7(), bundle: { slug: 'made-after', displayName: 'Made after', isEnabled: true } });
    await page.getByTestId('bundle-made-after').waitFor({ timeout: 15_000 });
    await page.close();
  });
  it("renders a key's results in view in the key's own commit and the rest of the 20 after it", async () => {
    const bundleID = uuidv7();
    await api(host, 'bundles.put', { bundleID, bundle: { slug: 'gauges', displayName: 'Gauges', isEnabled: true } });
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        api(host, 'tools.put', {
          bundleID,
          slug: `gauge-${String(i).padStart(2, '0')}`,
          version: 'v1',
          tool: { displayName: `Gauge ${i}`, description: 'Reads a gauge', type: 'function', impl: { function: 'core.uuid' }, argSchema: { type: 'object' } },
        }),
      ),
    );
    const page = await browser.context.newPage();
    const problems = watchPageProblems(page);
    await page.goto(`${host.url}/#token=${host.token}`);
    await painted(page);
    // How many results each DOM change left in the list, from the first that showed any.
    await page.evaluate(`(() => {
      window.__hitCounts = [];
      new MutationObserver(() => {
        const n = document.querySelectorAll('[data-testid="search-results"] li[role="option"]:not(.hit-all)').length;
        if (n && window.__hitCounts.at(-1) !== n) window.__hitCounts.push(n);
      }).observe(document.body, { childList: true, subtree: true });
    })()`);
    await page.getByTestId('search-box').pressSequentially('gauge');
    await expect.poll(() => page.evaluate('window.__hitCounts.at(-1)'), { timeout: 10_000 }).toBe(20);
    // Before: all 20 in the key's commit. The list shows about 7 without scrolling (Search.tsx, FIRST_HITS).
    expect(((await page.evaluate('window.__hitCounts')) as number[])[0]).toBeLessThanOrEqual(8);
    expect(problems).toEqual([]);
    await page.close();
  });
});
