/**
 * Cards in the tester, in Chromium against `npm run serve`: an http tool against a loopback
 * server shows its card; the card's frame fits its content (a short card gets a short frame),
 * up to a cap past which the card scrolls inside (Show all lifts it); a height posted by anyone
 * but the card's own frame is ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import type { Frame, Page } from 'playwright-core';
import { api, chromiumAvailable, type Browser, type Host } from './harness.js';
import { openAppSession, type AppSession } from './fixture.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../helpers/loopback-http.js';
import { shoot } from './shots.js';
import { shellArgs } from '../helpers/shell-words.js';
import { CARD_CSP, CARD_MEASURE_SCRIPT } from '../../shared/card/sanitize.js';

let app: AppSession;
let host: Host;
let browser: Browser;
let page: Page;
let upstream: LoopbackServer;
let problems: string[];
const bundleID = uuidv7();
const LONG_LINES = 120;
const KEY = "sk-it's-(1)*!";

async function frameHeight(): Promise<number> {
  return (await page.getByTestId('result-card-iframe').boundingBox())!.height;
}

async function cardFrame(): Promise<Frame> {
  const frame = await (await page.getByTestId('result-card-iframe').elementHandle())!.contentFrame();
  if (!frame) throw new Error('no card frame');
  return frame;
}

async function run(slug: string, city: string): Promise<void> {
  await page.goto(`${host.url}/#/tool/${bundleID}/${slug}/v1`);
  await page.locator('#arg_city').fill(city);
  await page.getByTestId('run').click();
  await expect.poll(() => page.getByTestId('result-panel').locator('.result-meta').textContent(), { timeout: 20_000 }).toMatch(/ok/);
  await page.getByTestId('result-card').waitFor();
}

describe.skipIf(!chromiumAvailable())('cards in the tester', () => {
  beforeAll(async () => {
    upstream = await startLoopbackServer();
    upstream.route('/forecast', (req, res) => sendJson(res, 200, { city: req.query.get('city'), sky: 'sunny', high: 24 }));
    upstream.route('/report', (req, res) => {
      const body = Array.from({ length: LONG_LINES }, (_, i) => `line ${i + 1} of the report on ${req.query.get('city')}`).join('\n');
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(body);
    });
    app = await openAppSession({
      seed: async (host) => {
        // The settings and the bundle side by side, then the bundle's tools side by side.
        await Promise.all([
          api(host, 'config.patch', { patch: { allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true } }),
          api(host, 'bundles.put', { bundleID, bundle: { slug: 'cards', displayName: 'Cards', isEnabled: true } }),
        ]);
        const args = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
        await Promise.all([
          api(host, 'tools.put', {
            bundleID,
            slug: 'forecast',
            version: 'v1',
            tool: {
              type: 'http',
              displayName: 'Forecast',
              argSchema: args,
              impl: { method: 'GET', urlTemplate: upstream.url('/forecast') + '?city=${city}' },
              card: { enabled: true, title: 'Weather in {{city}}', accentColor: '#2a9d8f', backgroundColor: 'rgba(42,157,143,0.08)' },
            },
          }),
          api(host, 'tools.put', {
            bundleID,
            slug: 'report',
            version: 'v1',
            tool: {
              type: 'http',
              displayName: 'Report',
              argSchema: args,
              impl: { method: 'GET', urlTemplate: upstream.url('/report') + '?city=${city}', responseEncoding: 'text' },
              card: { enabled: true, title: 'Report on {{city}}' },
            },
          }),
          api(host, 'secrets.set', { name: 'FORECAST_KEY', value: KEY }).then(() =>
            api(host, 'tools.put', {
              bundleID,
              slug: 'keyed',
              version: 'v1',
              tool: {
                type: 'http',
                displayName: 'Keyed forecast',
                argSchema: args,
                impl: {
                  method: 'GET',
                  urlTemplate: upstream.url('/forecast') + '?city=${city}&key=${FORECAST_KEY}',
                  headers: { 'X-Api-Key': 'k ${FORECAST_KEY}' },
                },
                card: { enabled: true },
              },
            }),
          ),
        ]);
      },
    });
    ({ host, browser, page, problems } = app);
  });

  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  it("shows an http tool's card, in a frame as tall as the card", async () => {
    await run('forecast', 'Lyon');
    expect(upstream.hits('/forecast')).toBe(1);
    expect(await page.getByTestId('result-card').locator('.card-title-text').textContent()).toBe('Weather in Lyon');
    await expect.poll(async () => (await cardFrame()).locator('body').textContent()).toMatch(/"sky": "sunny"/);
    const content = await (await cardFrame()).evaluate(() => document.documentElement.getBoundingClientRect().height);
    // Fitted: the frame takes the card's own height (a few lines of JSON), not a fixed tall box.
    await expect.poll(frameHeight).toBeCloseTo(Math.ceil(content), 0);
    expect(await frameHeight()).toBeLessThan(200);
    expect(await (await cardFrame()).evaluate(() => document.scrollingElement!.scrollHeight <= window.innerHeight + 1)).toBe(true);
    expect(await page.getByTestId('result-card-expand').count()).toBe(0);
    await shoot(page, 'card-fitted', { scrollTo: 'result-panel' });
  });

  it('ignores a height posted by anything but the card frame itself', async () => {
    const before = await frameHeight();
    await page.evaluate(() => window.postMessage({ toolwrightCardHeight: 900 }, '*'));
    // Another frame running the very script a card runs (the only one the CSP admits) posts its own height.
    const posted = await page.evaluate(
      async ({ csp, script }) => {
        const heights: number[] = [];
        const other = document.createElement('iframe');
        window.addEventListener('message', (e) => e.source === other.contentWindow && heights.push(e.data.toolwrightCardHeight));
        other.setAttribute('sandbox', 'allow-scripts');
        // In view: Chromium does not lay out an offscreen cross-origin frame (render throttling), so one
        // appended below the app would post 0 and then nothing.
        other.style.cssText = 'position:fixed;top:0;left:0';
        other.srcdoc = `<meta http-equiv="Content-Security-Policy" content="${csp}"><div style="height:700px"></div><script>${script}</script>`;
        document.body.appendChild(other);
        for (let waited = 0; waited < 10_000 && !heights.some((h) => h >= 700); waited += 50) await new Promise((r) => setTimeout(r, 50));
        await new Promise((r) => setTimeout(r, 200)); // the app's listener had the same message by now
        other.remove();
        return heights;
      },
      { csp: CARD_CSP, script: CARD_MEASURE_SCRIPT },
    );
    expect(
      posted.some((h) => h >= 700),
      JSON.stringify(posted),
    ).toBe(true);
    expect(await frameHeight()).toBe(before);
  }, 30_000);

  it('keeps its height when its frame reports 0, as one not laid out yet does', async () => {
    const before = await frameHeight();
    expect(before).toBeGreaterThan(20);
    // Every height the app gives the frame, as React writes it.
    await page.evaluate(() => {
      const iframe = document.querySelector('[data-testid="result-card-iframe"]') as HTMLIFrameElement;
      const seen: string[] = ((window as unknown as { seenCardHeights: string[] }).seenCardHeights = []);
      new MutationObserver(() => seen.push(iframe.style.height)).observe(iframe, { attributes: true, attributeFilter: ['style'] });
    });
    await (await cardFrame()).evaluate(() => parent.postMessage({ toolwrightCardHeight: 0 }, '*'));
    await (await cardFrame()).evaluate((h) => parent.postMessage({ toolwrightCardHeight: h }, '*'), before - 10);
    await expect.poll(frameHeight).toBe(before - 10);
    await (await cardFrame()).evaluate((h) => parent.postMessage({ toolwrightCardHeight: h }, '*'), before);
    await expect.poll(frameHeight).toBe(before);
    expect(await page.evaluate(() => (window as unknown as { seenCardHeights: string[] }).seenCardHeights)).toEqual([`${before - 10}px`, `${before}px`]);
  });

  it('copies the request as cURL with secrets masked, or read from shell variables named like them', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: host.url });
    await run('keyed', 'Lyon');
    const sent = upstream.requests.at(-1)!;
    expect(sent.headers['x-api-key']).toBe(`k ${KEY}`);
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await page.getByTestId('copy-curl').click();
    await expect.poll(clipboard).toMatch(/^curl /);
    const masked = await clipboard();
    expect(masked).toContain('[redacted]');
    expect(masked).not.toContain('sk-it');
    await page.getByTestId('copy-curl-variables').click();
    await expect.poll(clipboard).toContain('${FORECAST_KEY}');
    const command = await clipboard();
    expect(command).not.toContain('sk-it');
    expect(command).not.toContain('[redacted]');
    await page.getByText('reads $FORECAST_KEY from your shell').waitFor();
    await shoot(page, 'copy-curl-variables', { scrollTo: 'result-panel' });
    // What a shell with the variable set hands to curl is the request the server got.
    const argv = shellArgs(command, { ...process.env, FORECAST_KEY: KEY });
    expect(argv).toContain(`x-api-key: k ${KEY}`);
    expect(new URL(argv.at(-1)!).searchParams.get('key')).toBe(KEY);
    expect(new URL(argv.at(-1)!).pathname + new URL(argv.at(-1)!).search).toBe(sent.url);
    // A tool without secrets offers only the masked copy.
    await run('forecast', 'Lyon');
    expect(await page.getByTestId('copy-curl').count()).toBe(1);
    expect(await page.getByTestId('copy-curl-variables').count()).toBe(0);
  });

  it('caps a long card, which scrolls inside its frame until Show all', async () => {
    await run('report', 'Nantes');
    await expect.poll(async () => (await cardFrame()).locator('pre').textContent()).toMatch(new RegExp(`line ${LONG_LINES} of the report on Nantes`));
    const content = await (await cardFrame()).evaluate(() => document.documentElement.getBoundingClientRect().height);
    expect(content).toBeGreaterThan(1000);
    await expect.poll(frameHeight).toBe(360);
    expect(await (await cardFrame()).evaluate(() => document.scrollingElement!.scrollHeight > window.innerHeight)).toBe(true);
    await shoot(page, 'card-capped', { scrollTo: 'result-panel', narrow: false });
    await page.getByTestId('result-card-expand').click();
    await expect.poll(frameHeight).toBeCloseTo(Math.ceil(content), 0);
    await page.getByTestId('result-card-expand').click();
    await expect.poll(frameHeight).toBe(360);
  });

  it('fits the preview card of the editor too', async () => {
    await page.goto(`${host.url}/#/tool/${bundleID}/forecast/v1/edit`);
    const preview = page.getByTestId('card-preview-iframe');
    await preview.waitFor();
    await expect.poll(async () => (await preview.boundingBox())!.height).toBeLessThan(80);
  });

  it('ran without page errors or CSP violations', () => {
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
