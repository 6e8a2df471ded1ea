/**
 * A Toolwright card as an MCP App in a real Apps host: the host side of
 * @modelcontextprotocol/ext-apps (AppBridge, PostMessageTransport; test/e2e/fixtures/apps-host.ts,
 * bundled by esbuild) in Chromium puts the app's html, read over MCP with the SDK's client, in a
 * sandboxed frame and hands it a real tools/call result; the frame shows the tool's values.
 * Hostile card html, once through the engine's sanitiser and once raw (as a server that skipped
 * it would send), runs nothing and fetches nothing: a loopback listener counts the requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { chromiumAvailable, screenshot, type Browser } from './harness.js';
import { openBrowser } from './fixture.js';
import { attributeWithMarkup, textAttributesBlanked, XSS_CORPUS } from './card-xss-corpus.js';
import { startHost, type TestHost } from '../helpers/host.js';
import { bundleFile, engineTool, harness, toolFile, type Harness } from '../helpers/engine-fixtures.js';
import { toCallResult } from '../../electron/core/agent-surface/definitions.js';
import { cardAppOf } from '../../electron/core/agent-surface/resources.js';
import { cardAppHtml } from '../../electron/host/mcp/server/card-apps.js';
import type { AgentTool } from '../../electron/core/agents/agent-tools.js';

const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };

let host: TestHost;
let client: Client;
let browser: Browser;
let hostBundle = '';
let listener: Server;
let beacon = '';
const hits: string[] = [];

async function bundleAppsHost(): Promise<string> {
  const out = await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/apps-host.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    // Half the size: each test's page parses it.
    minify: true,
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

/** The host page; `bridge: false` leaves out the Apps host (a page that renders no app need not parse its 0.7 MB). */
async function hostPage(opts: { bridge?: boolean } = {}): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setContent('<!doctype html><html><body style="font:14px system-ui;margin:8px"><h1 style="font-size:16px">MCP Apps host</h1></body></html>');
  if (opts.bridge !== false) await page.addScriptTag({ content: hostBundle });
  await page.evaluate(() => {
    const got: unknown[] = [];
    (window as unknown as { pwned: unknown[] }).pwned = got;
    window.addEventListener('message', (e) => {
      if (e.data && typeof e.data === 'object' && 'pwned' in e.data) got.push(e.data);
    });
  });
  return page;
}

interface Rendering {
  id: string;
  html: string;
  input: Record<string, unknown>;
  result: CallToolResult;
}

/** Puts each app in a frame of its own, all at once: each waits only for its own frame's handshake. */
async function render(page: Page, renderings: Rendering[]): Promise<void> {
  await page.evaluate(
    (all) =>
      Promise.all(
        all.map(({ id, html, input, result }) =>
          (window as unknown as { renderApp(...a: unknown[]): Promise<void> }).renderApp(id, html, input, JSON.parse(JSON.stringify(result))),
        ),
      ),
    JSON.parse(JSON.stringify(renderings)) as Rendering[],
  );
}

describe.skipIf(!chromiumAvailable())('a card as an MCP App in a real Apps host', () => {
  beforeAll(async () => {
    listener = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(200, { 'Access-Control-Allow-Origin': '*' });
      res.end('x');
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    beacon = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    const connected = async () => {
      host = await startHost();
      client = new Client({ name: 'apps-host', version: '1' }, MODERN);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${host.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${host.token}` } } }),
      );
    };
    [browser, hostBundle] = await Promise.all([openBrowser(), bundleAppsHost(), connected()]);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await host?.close();
    await new Promise((r) => listener?.close(r));
  });

  it('renders the calculator card from a real tools/call result inside the sandboxed frame', async () => {
    const tools = (await client.listTools()).tools;
    const calc = tools.find((t) => t._meta?.['dev.toolwright/slug'] === 'calc' && (t._meta?.['ui'] as { resourceUri?: string } | undefined)?.resourceUri)!;
    expect(calc, 'the built-in calculator lists its app').toBeDefined();
    const appUri = (calc._meta!['ui'] as { resourceUri: string }).resourceUri;
    const [content] = (await client.readResource({ uri: appUri })).contents;
    const html = (content as { text: string }).text;
    const args = { expression: '(2+3)*8.5' };
    const result = (await client.callTool({ name: calc.name, arguments: args })) as CallToolResult;
    expect(result.isError).toBeFalsy();

    const page = await hostPage();
    await render(page, [{ id: 'calc', html, input: args, result }]);
    const frame = page.frameLocator('#calc');
    await expect.poll(() => frame.locator('#card').innerText()).toContain('(2+3)*8.5 = 42.5');
    await expect.poll(() => frame.locator('#title').innerText()).toBe('Calculator');
    expect(await page.evaluate(() => (window as unknown as { shown: Record<string, { initialized: boolean }> }).shown['calc']!.initialized)).toBe(true);
    // The app told the host its size, and the host fitted the frame to it.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { shown: Record<string, { sizes: unknown[] }> }).shown['calc']!.sizes.length))
      .toBeGreaterThan(0);
    await screenshot(page, 'card-app-calc');
    await page.close();
  });

  describe('hostile card html', () => {
    let engine: Harness;
    const file = toolFile({ slug: 'probe', displayName: 'Probe', card: { enabled: true, title: 'Probe', accentColor: '#8e24aa' } });
    const tool: AgentTool = { name: 'probe', file, bundle: bundleFile({ bundleID: file.bundleID }), safety: 'readOnly' };
    const cases = () => XSS_CORPUS.map((c) => ({ name: c.name, html: `<p class="case">${c.name}</p>${c.html.replaceAll('{{BEACON}}', beacon)}` }));
    const handlers = [
      `<script>parent.postMessage({pwned: 'inline'}, '*')</script>`,
      `<img src="x" onerror="parent.postMessage({pwned: 'handler'}, '*')">`,
      `<a id="js" href="javascript:parent.postMessage({pwned: 'url'}, '*')">click me</a>`,
      `<meta http-equiv="refresh" content="0;url=${'{{BEACON}}'}/refresh">`,
      `<b id="value">forty-two</b>`,
    ].join('');
    beforeAll(async () => {
      engine = await harness();
    });
    afterAll(async () => {
      await engine?.cleanup();
    });

    it('through the engine (sanitised): every case renders its text, nothing runs, nothing is fetched', { timeout: 120_000 }, async () => {
      const page = await hostPage();
      hits.length = 0;
      const renderings: Rendering[] = [];
      for (const [i, c] of [...cases(), { name: 'handlers', html: handlers.replaceAll('{{BEACON}}', beacon) }].entries()) {
        engine.runner.behaviour = () => ({ value: { case: c.name }, card: { html: c.html } });
        const r = await engine.engine.invoke(engineTool(file), tool.bundle, { args: { city: 'Oslo' } });
        expect(r.ok, JSON.stringify(r.error)).toBe(true);
        const result = toCallResult(tool, r);
        const sent = (result._meta?.['dev.toolwright/card'] as { html: string }).html;
        // Text inside a title="…" is inert (escaped, as the core sanitiser's own test reads it), so it is blanked before the check.
        expect(attributeWithMarkup(sent), c.name).toBeUndefined();
        expect(textAttributesBlanked(sent), c.name).not.toMatch(/<script|\son[a-z]+\s*=|javascript:|<meta/i);
        renderings.push({ id: `case-${i}`, html: cardAppHtml(cardAppOf(tool)), input: { city: 'Oslo' }, result });
      }
      await render(page, renderings);
      await expect.poll(() => page.frameLocator('#case-0').locator('#card').innerText()).toContain('script element');
      await expect.poll(() => page.frameLocator(`#case-${XSS_CORPUS.length}`).locator('#value').innerText()).toBe('forty-two');
      await page.frameLocator(`#case-${XSS_CORPUS.length}`).locator('#js').click();
      await page.mouse.move(10, 10);
      await page.waitForTimeout(1500);
      await screenshot(page, 'card-app-hostile-sanitised');
      expect(hits).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { pwned: unknown[] }).pwned)).toEqual([]);
      await page.close();
    });

    it('raw, as a server that skipped the sanitiser would send it: the frame still runs nothing and fetches nothing', async () => {
      const page = await hostPage();
      hits.length = 0;
      // Two frames: the handlers alone, and the whole corpus in one card (nothing in it may run, so it needs no frame of its own per case).
      const raw = [
        handlers.replaceAll('{{BEACON}}', beacon),
        cases()
          .map((c) => c.html)
          .join('\n'),
      ];
      await render(
        page,
        raw.map((html, i) => ({
          id: `raw-${i}`,
          html: cardAppHtml(cardAppOf(tool)),
          input: {},
          result: { content: [{ type: 'text', text: 'raw' }], _meta: { 'dev.toolwright/card': { title: 'Raw', html } } },
        })),
      );
      await expect.poll(() => page.frameLocator('#raw-0').locator('#value').innerText()).toBe('forty-two');
      await expect.poll(() => page.frameLocator('#raw-1').locator('#card').innerText()).toContain('script element');
      // The frame applied the sanitiser's rules again, svg (in its own namespace) included.
      expect(await page.frameLocator('#raw-1').locator('#card svg, #card script, #card img, #card style, #card meta, #card base').count()).toBe(0);
      await page.frameLocator('#raw-0').locator('#js').click();
      await page.mouse.move(10, 10);
      await page.waitForTimeout(1500);
      await screenshot(page, 'card-app-hostile-raw');
      expect(hits).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { pwned: unknown[] }).pwned)).toEqual([]);
      await page.close();
    });

    it('control: the same raw html in the host page itself does reach the listener and runs its handler', async () => {
      const page = await hostPage({ bridge: false });
      hits.length = 0;
      await page.evaluate(
        (html) => {
          const div = document.createElement('div');
          div.innerHTML = html;
          document.body.appendChild(div);
        },
        cases()
          .filter((c) => !/meta refresh|base href|form action/.test(c.name))
          .map((c) => c.html)
          .join('\n') + handlers.replace(/<meta[^>]*>/, ''),
      );
      await expect.poll(() => hits.includes('/img')).toBe(true);
      await expect.poll(() => page.evaluate(() => (window as unknown as { pwned: unknown[] }).pwned.length)).toBeGreaterThan(0);
      await page.close();
    });
  });
});
