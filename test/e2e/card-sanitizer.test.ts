/**
 * Cards render in real Chromium exactly as the tester renders them (sanitiser bundled from
 * renderer/src/features/card/browserSanitizer.ts, srcdoc in <iframe sandbox="allow-scripts">), next to a loopback
 * listener that every case in the XSS corpus points at. The listener must receive zero requests,
 * and no script but the card's measuring one may run. A control renders the same corpus
 * unsanitised and must reach the listener, so the test can fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'vite';
import { fileURLToPath } from 'node:url';
import { chromiumAvailable, screenshot, type Browser } from './harness.js';
import { openBrowser } from './fixture.js';
import { XSS_CORPUS } from './card-xss-corpus.js';
import { CARD_CSP, CARD_MEASURE_SCRIPT, CARD_SANDBOX } from '../../shared/card/sanitize.js';

const hits: string[] = [];
let listener: Server;
let beacon = '';
let browser: Browser;
let sanitizerBundle = '';

async function bundleSanitizer(): Promise<string> {
  const entry = fileURLToPath(new URL('../../renderer/src/features/card/browserSanitizer.ts', import.meta.url));
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: false, lib: { entry, formats: ['iife'], name: 'CardSanitizer', fileName: 'card' } },
  });
  const outputs = Array.isArray(out) ? out : [out];
  const chunk = (outputs[0] as { output: { type: string; code?: string }[] }).output.find((o) => o.type === 'chunk');
  return chunk!.code!;
}

describe.skipIf(!chromiumAvailable())('card rendering in Chromium', () => {
  beforeAll(async () => {
    listener = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': '*' });
      res.end('x');
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    beacon = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    [browser, sanitizerBundle] = await Promise.all([openBrowser(), bundleSanitizer()]);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => listener?.close(r));
  });

  it('renders every hostile card without a single request reaching the listener', async () => {
    const page = await browser.context.newPage();
    await page.setContent('<!doctype html><html><body><main id="cards"></main></body></html>');
    await page.addScriptTag({ content: sanitizerBundle });
    const cases = XSS_CORPUS.map((c) => ({ name: c.name, html: c.html.replaceAll('{{BEACON}}', beacon) }));
    const rendered = await page.evaluate(
      async ({ list, sandbox }) => {
        const api = (window as unknown as { CardSanitizer: { buildCardDocument(i: unknown): string } }).CardSanitizer;
        const host = document.getElementById('cards')!;
        const messages: unknown[] = [];
        (window as unknown as { __messages: unknown[] }).__messages = messages;
        window.addEventListener('message', (e) => messages.push(e.data));
        const loads = list.map(
          (c) =>
            new Promise<string>((resolve) => {
              const frame = document.createElement('iframe');
              frame.setAttribute('sandbox', sandbox);
              frame.title = c.name;
              frame.addEventListener('load', () => resolve(c.name));
              frame.srcdoc = api.buildCardDocument({ html: c.html, foreground: '#111', scheme: 'light' });
              host.appendChild(frame);
            }),
        );
        return Promise.all(loads);
      },
      { list: cases, sandbox: CARD_SANDBOX },
    );
    expect(rendered).toHaveLength(XSS_CORPUS.length);
    // Let lazy fetches (fonts, backgrounds, pings) fire if anything slipped through.
    await page.mouse.move(10, 10);
    await page.waitForTimeout(1500);
    await screenshot(page, 'card-sanitizer-corpus');
    expect(hits).toEqual([]);
    // Every message came from a measuring script: a height, and nothing else.
    const messages = await page.evaluate(() => (window as unknown as { __messages: unknown[] }).__messages);
    expect(messages.length).toBeGreaterThanOrEqual(XSS_CORPUS.length);
    expect(messages.filter((m) => !(typeof m === 'object' && m !== null && Object.keys(m).join() === 'toolwrightCardHeight'))).toEqual([]);
    await page.close();
  });

  it('lets no script run in a card frame but the measuring one, even one the sanitiser would have missed', async () => {
    const page = await browser.context.newPage();
    await page.setContent('<!doctype html><html><body></body></html>');
    const injected = [
      `<script>parent.postMessage({pwned: 'inline'}, '*')</script>`,
      `<img src="${beacon}/x" onerror="parent.postMessage({pwned: 'handler'}, '*')">`,
      `<script src="${beacon}/external.js"></script>`,
      `<a id="js" href="javascript:parent.postMessage({pwned: 'url'}, '*')">x</a>`,
      `<script>${CARD_MEASURE_SCRIPT};parent.postMessage({pwned: 'riding on the hash'}, '*')</script>`,
    ].join('');
    // The document as buildCardDocument makes it, with the hostile markup put in raw (no sanitiser).
    const doc =
      `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CARD_CSP}"></head>` +
      `<body><p>card</p>${injected}<script>${CARD_MEASURE_SCRIPT}</script></body></html>`;
    await page.evaluate(
      async ({ doc, sandbox }) => {
        const got: unknown[] = [];
        (window as unknown as { __got: unknown[] }).__got = got;
        window.addEventListener('message', (e) => got.push(e.data));
        const frame = document.createElement('iframe');
        frame.setAttribute('sandbox', sandbox);
        frame.srcdoc = doc;
        document.body.appendChild(frame);
        await new Promise((r) => frame.addEventListener('load', r));
        await new Promise((r) => setTimeout(r, 800));
      },
      { doc, sandbox: CARD_SANDBOX },
    );
    await page.frames()[1]!.locator('#js').click();
    await page.waitForTimeout(300);
    const messages = await page.evaluate(() => (window as unknown as { __got: unknown[] }).__got);
    expect(messages.some((m) => typeof m === 'object' && m !== null && 'toolwrightCardHeight' in m)).toBe(true);
    expect(messages.filter((m) => typeof m === 'object' && m !== null && 'pwned' in m)).toEqual([]);
    expect(hits).toEqual([]);
    await page.close();
  });

  it('control: the same corpus unsanitised does reach the listener', async () => {
    const page = await browser.context.newPage();
    await page.setContent('<!doctype html><html><body></body></html>');
    const raw = XSS_CORPUS.map((c) => c.html.replaceAll('{{BEACON}}', beacon)).join('\n');
    await page.evaluate((html) => {
      const div = document.createElement('div');
      div.innerHTML = html;
      document.body.appendChild(div);
    }, raw);
    // Proof that both kinds of vector are live when unsanitised: a markup one (<img>) and at
    // least one carried by CSS (which of them the browser fetches first varies under load).
    const cssBorne = ['/bg', '/bg2', '/imageset', '/wkimageset', '/escaped', '/cursor', '/mask2', '/import2'];
    const deadline = Date.now() + 15_000;
    while (!(hits.length >= 5 && hits.includes('/img') && hits.some((h) => cssBorne.includes(h))) && Date.now() < deadline) await page.waitForTimeout(100);
    expect(hits.length).toBeGreaterThanOrEqual(5);
    expect(hits).toContain('/img');
    expect(hits.filter((h) => cssBorne.includes(h)).length).toBeGreaterThanOrEqual(1);
    hits.length = 0;
    await page.close();
  });
});
