/**
 * Cards render in real Chromium exactly as the tester renders them (sanitiser bundled from
 * renderer/src/card/sanitize.ts, srcdoc in <iframe sandbox="">), next to a loopback listener
 * that every case in the XSS corpus points at. The listener must receive zero requests. A
 * control renders the same corpus unsanitised and must reach the listener, so the test can fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'vite';
import { fileURLToPath } from 'node:url';
import { launchBrowser, chromiumAvailable, screenshot, type Browser } from './harness.js';
import { XSS_CORPUS } from './card-xss-corpus.js';

const hits: string[] = [];
let listener: Server;
let beacon = '';
let browser: Browser;
let sanitizerBundle = '';

async function bundleSanitizer(): Promise<string> {
  const entry = fileURLToPath(new URL('../../renderer/src/card/sanitize.ts', import.meta.url));
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
    [browser, sanitizerBundle] = await Promise.all([launchBrowser(), bundleSanitizer()]);
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
    const rendered = await page.evaluate(async (list) => {
      const api = (window as unknown as { CardSanitizer: { buildCardDocument(i: unknown): string } }).CardSanitizer;
      const host = document.getElementById('cards')!;
      const loads = list.map(
        (c) =>
          new Promise<string>((resolve) => {
            const frame = document.createElement('iframe');
            frame.setAttribute('sandbox', '');
            frame.title = c.name;
            frame.addEventListener('load', () => resolve(c.name));
            frame.srcdoc = api.buildCardDocument({ html: c.html, foreground: '#111', scheme: 'light' });
            host.appendChild(frame);
          }),
      );
      return Promise.all(loads);
    }, cases);
    expect(rendered).toHaveLength(XSS_CORPUS.length);
    // Let lazy fetches (fonts, backgrounds, pings) fire if anything slipped through.
    await page.mouse.move(10, 10);
    await page.waitForTimeout(1500);
    await screenshot(page, 'card-sanitizer-corpus');
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
