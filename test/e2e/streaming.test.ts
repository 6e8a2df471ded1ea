/**
 * The tester with streamed output, in Chromium against the real host (browser mode: REST with
 * `?stream=true`, read from fetch's ReadableStream): the output grows while the run goes, Stop
 * really stops it (the upstream request is closed, history says cancelled), and a run that
 * finishes shows its result as before, with the output it streamed kept below. Screenshots in
 * light and dark go to test-results/e2e/ (streaming-*.png).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { api, chromiumAvailable, screenshot, type Host } from './harness.js';
import { openAppSession, type AppSession } from './fixture.js';

const BUILD_LINES = [
  '[build] resolving 214 packages',
  '[build] compiling src/index.ts',
  '[build] compiling src/server/routes.ts',
  '[build] bundling 38 modules (1.2 MB)',
  '[test]  running 126 tests on 2 workers',
  '[test]  ✓ 64 passed',
  '[test]  ✓ 126 passed',
  '[image] writing layer 3/5',
];

let app: AppSession;
let host: Host;
let page: Page;
let problems: string[];
let upstream: Server;
let bundleID: string;
const open = new Set<ServerResponse>();
let releaseDeploy: () => void = () => undefined;

describe.runIf(chromiumAvailable())('the tester streams a run live and stops it', () => {
  beforeAll(async () => {
    upstream = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      if (req.url === '/build') {
        // A build log that never ends by itself: a line every 150 ms, then ticks.
        open.add(res);
        let i = 0;
        const timer = setInterval(() => res.write(`${BUILD_LINES[i] ?? `[image] pushing… ${i}`}\n`, () => i++), 150);
        res.on('close', () => {
          clearInterval(timer);
          open.delete(res);
        });
        return;
      }
      // A deploy that says three things, then waits for the test before it finishes.
      res.write('deploy: uploading bundle\ndeploy: warming 3 instances\ndeploy: switching traffic\n');
      new Promise<void>((resolve) => (releaseDeploy = resolve)).then(
        () => res.end('deploy: done in 4.2 s\n'),
        () => undefined,
      );
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const port = (upstream.address() as AddressInfo).port;
    app = await openAppSession({
      seed: async (host) => {
        await api(host, 'config.patch', { patch: { allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true } });
        bundleID = uuidv7();
        await api(host, 'bundles.put', { bundleID, bundle: { slug: 'ci', displayName: 'CI' } });
        for (const [slug, displayName, path] of [
          ['build', 'Build and test', '/build'],
          ['deploy', 'Deploy', '/deploy'],
        ] as const) {
          await api(host, 'tools.put', {
            bundleID,
            slug,
            version: 'v1',
            tool: {
              type: 'http',
              displayName,
              description: `${displayName}, with its log streamed`,
              impl: { method: 'GET', urlTemplate: `http://127.0.0.1:${port}${path}`, responseEncoding: 'text', timeoutMs: 60_000 },
              argSchema: { type: 'object', properties: {} },
            },
          });
        }
      },
    });
    ({ host, page, problems } = app);
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    upstream?.closeAllConnections();
    await new Promise((r) => upstream?.close(r));
  });

  it('grows the output while the run goes, and Stop really stops it', async () => {
    await page.goto(`${host.url}/#/tool/${bundleID}/build/v1`);
    await page.getByTestId('run').click();
    const live = page.getByTestId('live-output');
    await expect.poll(() => live.textContent(), { timeout: 20_000 }).toContain(BUILD_LINES[1]);
    const early = (await live.textContent()) ?? '';
    await expect.poll(() => live.textContent(), { timeout: 10_000 }).toContain(BUILD_LINES[6]);
    expect(((await live.textContent()) ?? '').length).toBeGreaterThan(early.length);
    expect(await page.getByTestId('run').textContent()).toContain('Running');
    expect(open.size).toBe(1);
    await screenshot(page, 'streaming-live-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'streaming-live-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 900, height: 820 });
    await screenshot(page, 'streaming-live-900');
    await page.setViewportSize({ width: 1280, height: 820 });

    await page.getByTestId('stop').click();
    const panel = page.getByTestId('result-panel');
    await expect.poll(() => panel.locator('.result-meta').textContent(), { timeout: 15_000 }).toContain('cancelled');
    expect(await page.getByTestId('result-error').textContent()).toContain('CANCELLED');
    await expect.poll(() => open.size, { timeout: 10_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('history-panel').textContent(), { timeout: 10_000 }).toMatch(/cancelled/i);
    await page.getByTestId('streamed-output').locator('summary').click();
    expect(await page.getByTestId('streamed-output-log').textContent()).toContain(BUILD_LINES[0]);
    await screenshot(page, 'streaming-stopped-light');
  }, 60_000);

  it('shows a finished run as before, with the output it streamed kept below', async () => {
    await page.goto(`${host.url}/#/tool/${bundleID}/deploy/v1`);
    await page.getByTestId('run').click();
    const live = page.getByTestId('live-output');
    await expect.poll(() => live.textContent(), { timeout: 20_000 }).toContain('deploy: switching traffic');
    expect(await page.getByTestId('stop').isVisible()).toBe(true);
    releaseDeploy();
    const panel = page.getByTestId('result-panel');
    await expect.poll(() => panel.locator('.result-meta').textContent(), { timeout: 15_000 }).toMatch(/ok/);
    expect(await page.getByTestId('result-value').textContent()).toContain('deploy: done in 4.2 s');
    expect(await page.getByTestId('streamed-output').isVisible()).toBe(true);
    expect(await live.count()).toBe(0);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByTestId('streamed-output').locator('summary').click();
    await screenshot(page, 'streaming-done-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(problems).toEqual([]);
  }, 60_000);
});
