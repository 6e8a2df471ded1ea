/**
 * The set-up every e2e file shares: the real host on a fresh data directory and a fresh browser
 * context (its own profile: no cookie, storage or permission from another file) started side by
 * side, the data a file needs put in through REST, and the app opened signed in, with its page
 * errors and CSP violations collected. The browser is the run's one Chromium (chromium.global.ts)
 * when Vitest provides it, else one launched for the file.
 */
import { chromium, type Browser as PlaywrightBrowser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';
import { openApp, startHost, watchPageProblems, type Browser, type Host } from './harness.js';

async function sharedOrOwnChromium(): Promise<PlaywrightBrowser> {
  const broker = inject('chromiumBroker');
  if (!broker) return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const res = await fetch(broker);
  const answer = await res.text();
  if (!res.ok) throw new Error(answer);
  return chromium.connect(answer);
}

/**
 * A fresh context in Chromium, 1280×820, light. Motion is reduced (the app's CSS drops its transitions
 * and entrance animations for it), so a screenshot or a contrast check never waits for one.
 */
export async function openBrowser(): Promise<Browser> {
  const browser = await sharedOrOwnChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 820 }, colorScheme: 'light', reducedMotion: 'reduce' });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
    },
  };
}

export interface AppSession {
  host: Host;
  browser: Browser;
  page: Page;
  /** Page errors and CSP violations so far (watchPageProblems). */
  problems: string[];
  close(): Promise<void>;
}

/** A browser with its page open and watched: made while the host starts, which takes longer. */
async function openBrowserAndPage(): Promise<{ browser: Browser; page: Page; problems: string[] }> {
  const browser = await openBrowser();
  try {
    const page = await browser.context.newPage();
    return { browser, page, problems: watchPageProblems(page) };
  } catch (e) {
    await browser.close();
    throw e;
  }
}

/** Starts the host and the browser (with its page) at once, seeds the host, and opens the signed-in app. */
export async function openAppSession(opts: { seed?: (host: Host) => Promise<unknown> } = {}): Promise<AppSession> {
  const [hostStarted, browserOpened] = await Promise.allSettled([startHost(), openBrowserAndPage()]);
  if (hostStarted.status === 'rejected' || browserOpened.status === 'rejected') {
    if (hostStarted.status === 'fulfilled') await hostStarted.value.stop();
    if (browserOpened.status === 'fulfilled') await browserOpened.value.browser.close();
    throw hostStarted.status === 'rejected' ? hostStarted.reason : (browserOpened as PromiseRejectedResult).reason;
  }
  const host = hostStarted.value;
  const { browser, page, problems } = browserOpened.value;
  const close = async () => {
    await Promise.all([browser.close(), host.stop()]);
  };
  try {
    await opts.seed?.(host);
    await openApp(page, host);
    return { host, browser, page, problems, close };
  } catch (e) {
    await close();
    throw e;
  }
}
