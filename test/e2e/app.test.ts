/**
 * The app end to end: real Chromium against `npm run serve` on a temporary data directory.
 * One host and one browser page for the whole file; the tests run in order and build on each
 * other (the tool created in one is searched for in the next). Screenshots of every screen go
 * to test-results/e2e/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Frame, Page, Route } from 'playwright-core';
import { api, PROJECT_ROOT, chromiumAvailable, RestError, screenshot, type Browser, type Host } from './harness.js';
import { openAppSession, type AppSession } from './fixture.js';

const CORE = '0190a000-0000-7000-8000-00000000c0e0';
const CALC_ARGS = {
  type: 'object',
  properties: { expression: { type: 'string', minLength: 1 } },
  required: ['expression'],
  additionalProperties: false,
};

let app: AppSession;
let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
const travel = uuidv7();

async function setCodeMirror(testId: string, text: string): Promise<void> {
  const editor = page.getByTestId(testId);
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

async function openBundle(slug: string): Promise<void> {
  await page.getByTestId(`bundle-${slug}`).locator('.bundle-open').click();
  await page.getByTestId('tool-table').or(page.locator('.state-empty')).first().waitFor();
}

async function toolIn(bundleID: string, slug: string) {
  return api(host, 'tools.get', { bundleID, slug, version: 'v1' });
}

const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'transfer');

/** The same export over REST, as a script would fetch it: exports are deterministic, so the bytes must match. */
async function restExport(bundleIDs: string[]): Promise<Buffer> {
  const res = await fetch(`${host.url}/tools/bundles/export?bundleIDs=${bundleIDs.join(',')}`, { headers: { Authorization: `Bearer ${host.token}` } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** Clicks something that downloads, and answers the download's name and bytes. */
async function downloadFrom(click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  // The shared Chromium runs in another process: the file is read through the connection, not from its path.
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return { name: download.suggestedFilename(), bytes: Buffer.concat(chunks) };
}

/** Starts a drag of files over the window, as the OS does: a DataTransfer holding them, kept for the drop. */
async function dragFilesOver(files: { name: string; bytes: Buffer; type?: string }[]): Promise<void> {
  await page.evaluate(
    (list) => {
      const dt = new DataTransfer();
      for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
      (window as unknown as { __drag: DataTransfer }).__drag = dt;
      const target = document.querySelector('main')!;
      target.dispatchEvent(new DragEvent('dragenter', { bubbles: true, cancelable: true, dataTransfer: dt }));
      target.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: dt }));
    },
    files.map((f) => ({ name: f.name, b64: f.bytes.toString('base64'), type: f.type ?? '' })),
  );
}

async function dropDragged(): Promise<void> {
  await page.evaluate(() => {
    const dt = (window as unknown as { __drag: DataTransfer }).__drag;
    document.querySelector('main')!.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }));
  });
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe.skipIf(!chromiumAvailable())('Toolwright in Chromium', () => {
  beforeAll(async () => {
    app = await openAppSession({
      seed: async (host) => {
        await api(host, 'bundles.put', {
          bundleID: travel,
          bundle: { slug: 'travel', displayName: 'Travel', description: 'Trips and money', isEnabled: true },
        });
      },
    });
    ({ host, browser, page, problems } = app);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('keeps the token out of the address bar and shows the bundles with counts and badges', async () => {
    expect(page.url()).not.toContain('token');
    const core = page.getByTestId('bundle-core');
    await expect.poll(() => core.textContent()).toMatch(/built-in/);
    expect(Number(await core.locator('.count').textContent())).toBeGreaterThan(0);
    await page.getByTestId('tool-table').waitFor();
    await screenshot(page, '01-all-tools');
  });

  it('switches a bundle off at once and rolls a refused switch back with a message', async () => {
    const sw = page.getByTestId('bundle-switch-travel');
    await sw.click();
    await expect.poll(() => sw.isChecked()).toBe(false);
    await page.getByTestId('toast-success').filter({ hasText: 'Travel is off' }).waitFor();
    expect((await api(host, 'bundles.get', { bundleID: travel })).isEnabled).toBe(false);

    // A switch the core refuses: the network answers 409 for this one PATCH.
    await page.route(`**/tools/bundles/${travel}`, (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 409,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'BUNDLE_DELETED', message: 'the bundle was deleted meanwhile' } }),
          })
        : route.continue(),
    );
    await sw.click();
    await page.getByTestId('toast-error').filter({ hasText: 'the bundle was deleted meanwhile' }).waitFor();
    await expect.poll(() => sw.isChecked()).toBe(false);
    await screenshot(page, '02-bundle-switch-rolled-back');
    await page.unroute(`**/tools/bundles/${travel}`);

    await sw.click();
    await expect.poll(async () => (await api(host, 'bundles.get', { bundleID: travel })).isEnabled).toBe(true);
  });

  it('creates a tool with rules checked as you type and the server error shown at its field', async () => {
    await openBundle('travel');
    await screenshot(page, '03-empty-bundle');
    await page.getByTestId('new-tool').click();
    const slug = page.getByTestId('tool-slug');
    await slug.fill('fx rate');
    await expect.poll(() => page.locator('.field.has-error').first().textContent()).toMatch(/whitespace \(U\+0020\) at position 3/);
    await screenshot(page, '04a-tool-editor-slug-rule');
    await slug.fill('fx-rate');
    await expect.poll(() => page.locator('.field.has-error').count()).toBe(0);
    await page.getByTestId('tool-name').fill('FX rate');
    await page.getByTestId('tool-description').fill('Exchange rate between two currencies (Frankfurter API)');
    await setCodeMirror(
      'arg-schema',
      JSON.stringify({ type: 'object', properties: { from: { type: 'string', enum: ['EUR', 'USD'] }, to: { type: 'string' } }, required: ['from'] }, null, 2),
    );
    const url = page.getByTestId('http-url');
    await url.fill('https://api.frankfurter.app/latest?from=${from}&to=${too}');
    await expect.poll(() => page.getByTestId('http-url-problems').textContent()).toMatch(/\$\{too\} is neither/);
    expect(await page.locator('mark.ph-unknown').textContent()).toBe('${too}');
    await url.fill('https://api.frankfurter.app/latest?from=${from}&to=${to}&key=${FX_KEY}');
    await expect.poll(() => page.locator('mark.ph-secret-missing').textContent()).toBe('${FX_KEY}');
    await expect.poll(() => page.getByTestId('host-status').textContent()).toMatch(/not in allowed hosts/);
    await page.getByTestId('card-enabled').check();
    await page.getByTestId('card-title').fill('{{from}} → {{to}}');
    await page.getByTestId('card-accent').fill('#c2410c');
    await screenshot(page, '04b-tool-editor-card');
    // Every <select> keeps an input's height (the Authentication one once grew to 220 px).
    const auth = page.getByLabel('Authentication', { exact: true });
    await auth.selectOption('hmac');
    await auth.scrollIntoViewIfNeeded();
    const selectHeights = await page.locator('select').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    expect(selectHeights.length).toBeGreaterThan(4);
    expect(Math.max(...selectHeights)).toBeLessThanOrEqual(36);
    await screenshot(page, '04c-tool-editor-auth');
    await auth.selectOption('none');

    // The core refuses the host (not in allowedHosts): the message lands under the URL field.
    await page.getByTestId('tool-save').click();
    await expect.poll(() => page.getByTestId('http-url-problems').textContent()).toMatch(/allowedHosts/);
    await screenshot(page, '05-tool-editor-server-error');
    await page.getByTestId('allow-host').click();
    await expect.poll(() => page.getByTestId('host-status').textContent()).toMatch(/is an allowed host/);
    await page.getByTestId('tool-save').click();
    await page.getByTestId('tool-detail').waitFor();
    expect(await page.locator('#tool-title').textContent()).toBe('FX rate');
    const saved = await toolIn(travel, 'fx-rate');
    expect(saved.impl).toMatchObject({ method: 'GET', urlTemplate: 'https://api.frankfurter.app/latest?from=${from}&to=${to}&key=${FX_KEY}' });
    expect(saved.card).toMatchObject({ enabled: true, title: '{{from}} → {{to}}', accentColor: '#c2410c' });
    expect(saved.availability.ok).toBe(false);
    expect(await page.getByTestId('availability-reason').textContent()).toMatch(/FX_KEY/);
    await screenshot(page, '06-tool-detail-unavailable');
  });

  it('edits the tool with tools.update and keeps its identity', async () => {
    const before = await toolIn(travel, 'fx-rate');
    await page.getByTestId('edit-tool').click();
    await page.getByTestId('tool-name').fill('Currency rate');
    await page.getByTestId('tool-save').click();
    await expect.poll(() => page.locator('#tool-title').textContent()).toBe('Currency rate');
    const after = await toolIn(travel, 'fx-rate');
    expect(after.toolID).toBe(before.toolID);
    expect(after.createdAt).toBe(before.createdAt);
    expect(after.displayName).toBe('Currency rate');
    expect(after.modifiedAt > before.modifiedAt || after.modifiedAt !== before.modifiedAt).toBe(true);
  });

  it('finds the tool from the Ctrl+K palette with matches highlighted, and opens it with the keyboard', async () => {
    await page.getByTestId('bundle-core').locator('.bundle-open').click();
    await page.keyboard.press('Control+K');
    const input = page.getByTestId('palette-input');
    await input.waitFor();
    await input.pressSequentially('currency', { delay: 30 });
    const hit = page.getByTestId('hit-fx-rate');
    await hit.waitFor();
    expect((await hit.locator('mark').allTextContents()).map((t) => t.toLowerCase())).toContain('currency');
    await screenshot(page, '07-palette');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#tool-title').textContent()).toBe('Currency rate');
    expect(await page.getByTestId('palette').isVisible()).toBe(false);
  });

  it('opens a result from the always-visible search box', async () => {
    const box = page.getByTestId('search-box');
    await box.fill('calculator');
    await page.getByTestId('hit-calc').waitFor();
    await screenshot(page, '08-search-box');
    await box.press('Enter');
    await expect.poll(() => page.locator('#tool-title').textContent()).toBe('Calculator');
  });

  it("never shows a cleared query's results for a new one, says it is searching when the answer is slow, and keeps the last results while a query is refined", async () => {
    const box = page.getByTestId('search-box');
    await box.fill('calculator');
    await page.getByTestId('hit-calc').waitFor();
    await box.fill('');
    // Each query's answer is held until the test lets it go.
    const held = new Map<string, () => void>();
    const routes = ['uuid', 'uui'].map((q) => ({
      match: (url: URL) => url.pathname.endsWith('/tools/tools/search') && url.searchParams.get('q') === q,
      handler: async (route: Route) => {
        await new Promise<void>((release) => held.set(q, release));
        await route.continue();
      },
    }));
    for (const r of routes) await page.route(r.match, r.handler);
    try {
      await box.fill('uuid');
      await expect.poll(() => held.has('uuid')).toBe(true);
      // The new query's answer is out: no row of the cleared "calculator" meanwhile.
      expect(await page.getByTestId('hit-calc').count()).toBe(0);
      // An answer that keeps the person waiting is said to be coming.
      await page.getByTestId('search-results').getByRole('status').filter({ hasText: 'Searching…' }).waitFor();
      held.get('uuid')!();
      await page.getByTestId('hit-uuid').waitFor();
      await box.press('Backspace');
      await expect.poll(() => held.has('uui')).toBe(true);
      // A refinement: the results of "uuid" stay on screen while those of "uui" are out.
      expect(await page.getByTestId('hit-uuid').count()).toBe(1);
      held.get('uui')!();
      await expect.poll(() => page.getByRole('listbox', { name: 'Search results' }).getAttribute('aria-busy')).toBe('false');
    } finally {
      held.forEach((release) => release());
      for (const r of routes) await page.unroute(r.match, r.handler);
      await box.fill('');
    }
  });

  it('runs a tool in the tester and shows the result, the card in a sandboxed frame and the history', async () => {
    await page.locator('#arg_expression').fill('2*(3+4)');
    await page.getByTestId('run').click();
    const panel = page.getByTestId('result-panel');
    await expect.poll(() => panel.locator('.result-meta').textContent(), { timeout: 20_000 }).toMatch(/ok/);
    expect(await page.getByTestId('result-value').textContent()).toContain('14');
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: host.url });
    await page.getByTestId('copy-result').click();
    await expect.poll(async () => JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as unknown).toMatchObject({ value: 14 });
    const frameEl = page.getByTestId('result-card-iframe');
    expect(await frameEl.getAttribute('sandbox')).toBe('allow-scripts');
    expect(await page.getByTestId('result-card').locator('.card-title-text').textContent()).toBe('2*(3+4)');
    const isCardFrame = (f: Frame) => f.parentFrame() === page.mainFrame() && f.url() === 'about:srcdoc';
    // The frame's navigation reaches this process a moment after its element is in the page.
    await expect.poll(() => page.frames().some(isCardFrame)).toBe(true);
    const frame = page.frames().find(isCardFrame);
    expect(frame).toBeTruthy();
    await expect.poll(() => frame!.locator('body').textContent()).toContain('2*(3+4) = 14');
    expect(await frame!.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toMatch(
      /^default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-[A-Za-z0-9+/]+=*'$/,
    );
    await expect.poll(() => page.getByTestId('history-panel').locator('.history-item').count()).toBe(1);
    await screenshot(page, '09-tester-result-card');

    await page.getByTestId('history-rerun').first().click();
    await expect.poll(() => page.getByTestId('history-panel').locator('.history-item').count()).toBe(2);

    // Raw JSON mode: validated against argSchema before anything is sent.
    await page.getByTestId('mode-json').click();
    await setCodeMirror('args-json', '{"expression": 42}');
    await page.getByTestId('run').click();
    await expect.poll(() => page.getByTestId('args-errors').textContent()).toMatch(/expression must be string/);
    expect(await page.getByTestId('history-panel').locator('.history-item').count()).toBe(2);
    await setCodeMirror('args-json', '{"expression": "2+"}');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByTestId('result-error').textContent(), { timeout: 20_000 }).toMatch(/INVALID_ARGS/);
    await screenshot(page, '09b-tester-json-error');
    await page.getByTestId('mode-form').click();

    // A run's details expand; two picked runs are compared line by line.
    const history = page.getByTestId('history-panel');
    await history.getByTestId('history-details').first().locator('summary').click();
    expect(await history.getByTestId('history-details').first().textContent()).toMatch(/Arguments.*expression/s);
    const picks = history.getByTestId('history-pick');
    await picks.nth(0).check();
    await picks.nth(1).check();
    const compare = page.getByTestId('history-compare');
    await compare.waitFor();
    expect(await compare.textContent()).toMatch(/identical|differ/);
    expect(await compare.textContent()).toContain('2*(3+4)');
    await screenshot(page, '09c-history-compare');
  });

  it('refuses editing a built-in: read-only view with only the enable switch', async () => {
    const edit = page.getByTestId('edit-tool');
    expect(await edit.textContent()).toBe('View definition');
    await edit.click();
    await page.getByTestId('builtin-readonly').waitFor();
    expect(await page.getByTestId('tool-slug').isDisabled()).toBe(true);
    expect(await page.getByTestId('tool-save').count()).toBe(0);
    expect(await page.locator('[data-testid="arg-schema"]').getAttribute('contenteditable')).toBe('false');
    await screenshot(page, '10-builtin-readonly');

    const calc = await api(host, 'tools.get', { bundleID: CORE, slug: 'calc', version: 'v1' });
    const refused = await api(host, 'tools.update', {
      bundleID: CORE,
      slug: 'calc',
      version: 'v1',
      tool: { ...calc, displayName: 'Hacked' },
      ifModifiedAt: calc.modifiedAt,
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RestError);
    expect((refused as RestError).status).toBe(403);
    expect((refused as RestError).body.error?.code).toBe('BUILTIN_READONLY');

    const sw = page.getByTestId('builtin-enable');
    await sw.click();
    await expect.poll(async () => (await api(host, 'tools.get', { bundleID: CORE, slug: 'calc', version: 'v1' })).isEnabled).toBe(false);
    await sw.click();
    await expect.poll(async () => (await api(host, 'tools.get', { bundleID: CORE, slug: 'calc', version: 'v1' })).isEnabled).toBe(true);
  });

  it('asks before running a privileged tool and sends confirm only when the person agrees', async () => {
    await api(host, 'tools.put', {
      bundleID: travel,
      slug: 'wire-money',
      version: 'v1',
      tool: {
        displayName: 'Wire money',
        type: 'function',
        safety: 'privileged',
        argSchema: CALC_ARGS,
        impl: { function: 'core.calc' },
        card: { enabled: false },
      },
    });
    const unconfirmed = await api(host, 'tools.invoke', { bundleID: travel, slug: 'wire-money', version: 'v1', args: { expression: '1+1' } }).catch(
      (e: unknown) => e,
    );
    expect((unconfirmed as RestError).body.error?.code).toBe('CONFIRMATION_REQUIRED');

    await openBundle('travel');
    await page.getByTestId('tool-row-wire-money').click();
    await page.locator('#arg_expression').fill('40+2');
    await page.getByTestId('run').click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.getByText('privileged').waitFor();
    await screenshot(page, '11-privileged-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await dialog.isVisible()).toBe(false);
    expect((await api(host, 'tools.history', { bundleID: travel, slug: 'wire-money', version: 'v1' })).items).toHaveLength(0);

    await page.getByTestId('run').click();
    await dialog.getByRole('button', { name: 'Run it' }).click();
    await expect.poll(() => page.getByTestId('result-panel').locator('.result-meta').textContent(), { timeout: 20_000 }).toMatch(/ok/);
    expect(await page.getByTestId('result-value').textContent()).toContain('42');
    expect((await api(host, 'tools.history', { bundleID: travel, slug: 'wire-money', version: 'v1' })).items).toHaveLength(1);
  });

  it('moves a bundle to Trash and restores it', async () => {
    await openBundle('travel');
    await page.getByTestId('delete-bundle').click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Move to Trash' }).click();
    await expect.poll(() => page.getByTestId('bundle-travel').count()).toBe(0);
    await page.getByTestId('nav-trash').click();
    await page.getByTestId('trash-travel').waitFor();
    await screenshot(page, '12-trash');
    await page.getByTestId('restore-travel').click();
    await page.getByTestId('bundle-travel').waitFor();
    await expect.poll(() => page.getByTestId('trash-travel').count()).toBe(0);
    const restored = await api(host, 'bundles.get', { bundleID: travel });
    expect(restored.softDeletedAt ?? null).toBeNull();
    expect(restored.toolCount).toBe(2);
  });

  it('shows changes made outside the app without a reload', async () => {
    const outside = uuidv7();
    await api(host, 'bundles.put', { bundleID: outside, bundle: { slug: 'from-elsewhere', displayName: 'From elsewhere', isEnabled: true } });
    await page.getByTestId('bundle-from-elsewhere').waitFor({ timeout: 10_000 });
    await api(host, 'bundles.patch', { bundleID: outside, patch: { isEnabled: false } });
    await expect.poll(() => page.getByTestId('bundle-switch-from-elsewhere').isChecked(), { timeout: 10_000 }).toBe(false);
  });

  it('operates the tool list from the keyboard', async () => {
    await openBundle('core');
    const rows = page.locator('[role="row"][data-testid^="tool-row-"]');
    await rows.first().focus();
    const first = await rows.first().getAttribute('data-testid');
    await page.keyboard.press('ArrowDown');
    // The list moves focus on the next animation frame.
    const focusedRow = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    await expect.poll(focusedRow).not.toBe(first);
    expect(await focusedRow()).toMatch(/^tool-row-/);
    await page.keyboard.press('Enter');
    await page.getByTestId('tool-detail').waitFor();
    expect(await page.locator('#tool-title').textContent()).not.toBe('');
  });

  it('manages secrets and shows settings with the data directory', async () => {
    await page.getByTestId('nav-secrets').click();
    await page.getByTestId('add-secret').click();
    await page.getByTestId('secret-name').fill('fx_key');
    await page.getByTestId('secret-value').fill('sk-live-1234567890');
    await page.getByTestId('secret-save').click();
    await page.getByTestId('secret-FX_KEY').waitFor();
    expect(await page.getByTestId('secret-FX_KEY').textContent()).not.toContain('sk-live-1234567890');
    await screenshot(page, '13-secrets');
    await expect.poll(async () => (await toolIn(travel, 'fx-rate')).availability.ok).toBe(true);

    await page.getByTestId('nav-settings').click();
    await expect.poll(() => page.getByTestId('data-dir').textContent()).toBe(host.dataDir);
    expect(await page.getByTestId('allowed-hosts').textContent()).toContain('api.frankfurter.app');
    await screenshot(page, '14-settings');
    await page.emulateMedia({ colorScheme: 'dark' });
    await openBundle('core');
    await screenshot(page, '15-dark-theme');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it("shows at most three toasts, never over the editor's buttons", async () => {
    await openBundle('travel');
    await page.getByTestId('new-tool').click();
    await page.getByTestId('tool-slug').waitFor();
    const sw = page.getByTestId('bundle-switch-core');
    for (let i = 0; i < 4; i++) {
      await sw.click();
      const on = i % 2 === 1;
      await expect.poll(async () => (await api(host, 'bundles.get', { bundleID: CORE })).isEnabled).toBe(on);
      await expect
        .poll(() =>
          page
            .getByTestId('toast-success')
            .filter({ hasText: `Core is ${on ? 'on' : 'off'}` })
            .count(),
        )
        .toBeGreaterThan(0);
    }
    // Four were shown within a toast's lifetime; the newest three remain (the cap itself is unit-tested).
    const count = await page.getByTestId('toasts').locator('.toast').count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(3);
    const footer = (await page.locator('.editor-footer').boundingBox())!;
    await expect
      .poll(async () => {
        const boxes = await page
          .getByTestId('toasts')
          .locator('.toast')
          .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
        return boxes.some((b) => overlaps(b, footer));
      })
      .toBe(false);
    await screenshot(page, '17-toasts-over-editor');
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  it('copies OpenAI function definitions, to the clipboard or into a dialog when it is refused, and exports a selection', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: host.url });
    await openBundle('travel');
    await page.getByTestId('export-bundle').click();
    await page.getByTestId('copy-openai-bundle').click();
    await page.getByTestId('toast-success').filter({ hasText: 'Copied 2 OpenAI function definitions' }).waitFor();
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as unknown;
    expect(copied).toEqual((await api(host, 'tools.openaiFunctions', { bundleIDs: [travel] })).items);
    expect(JSON.stringify(copied)).toContain('"name":"fx-rate"');

    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    await page.getByRole('button', { name: 'All tools' }).click();
    await page.getByTestId('export-bundles').click();
    await page.getByTestId('copy-openai-all').click();
    const text = page.getByTestId('copy-text');
    await text.waitFor();
    expect(JSON.parse(await text.inputValue())).toEqual((await api(host, 'tools.openaiFunctions', {})).items);
    expect(await text.evaluate((t: HTMLTextAreaElement) => t.selectionEnd - t.selectionStart)).toBe((await text.inputValue()).length);
    await screenshot(page, '18-copy-fallback');
    await page.getByTestId('copy-dialog').getByRole('button', { name: 'Done' }).click();

    await page.getByTestId('export-bundles').click();
    await page.getByTestId('export-bundles-zip').click();
    // Everything but Travel unpicked: both built-in bundles (core, schedules) and the other one.
    await page.getByTestId('export-pick-core').uncheck();
    await page.getByTestId('export-pick-schedules').uncheck();
    await page.getByTestId('export-pick-from-elsewhere').uncheck();
    await screenshot(page, '19-export-dialog');
    const got = await downloadFrom(() => page.getByTestId('export-dialog-zip').click());
    expect(got.bytes.equals(await restExport([travel]))).toBe(true);
  });

  it('exports a bundle from its header and, dropped back on the window, imports it as a copy after a dry run', async () => {
    await openBundle('travel');
    // The menu opens from the keyboard on its first item.
    await page.getByTestId('export-bundle').focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('export-bundle-zip');
    await screenshot(page, '20-bundle-export-menu');
    const zip = await downloadFrom(() => page.keyboard.press('Enter'));
    expect(zip.name).toMatch(/\.zip$/);
    expect(zip.bytes.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    expect(zip.bytes.equals(await restExport([travel]))).toBe(true);
    await page.getByTestId('toast-success').filter({ hasText: zip.name }).last().waitFor();

    const before = (await api(host, 'bundles.list', { includeDisabled: true })).items.length;
    await dragFilesOver([{ name: zip.name, bytes: zip.bytes, type: 'application/zip' }]);
    await page.getByTestId('drop-overlay').waitFor();
    await screenshot(page, '21-drop-overlay');
    await dropDragged();
    expect(await page.getByTestId('drop-overlay').count()).toBe(0);

    // The dry run found Travel here: the person chooses; nothing is written before that.
    const dialog = page.getByTestId('conflict-dialog');
    await dialog.waitFor();
    expect(await page.getByTestId('conflict-list').textContent()).toContain('Travel');
    expect(await page.getByTestId('conflict-replace').isDisabled()).toBe(false);
    expect((await api(host, 'bundles.list', { includeDisabled: true })).items.length).toBe(before);
    await screenshot(page, '22-conflict-dialog');
    await page.getByTestId('conflict-import').click();

    const report = page.getByTestId('import-report');
    await report.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('report-done');
    expect(await page.getByTestId('report-summary').textContent()).toBe('1 created · 2 tools');
    expect(await page.getByTestId('report-created').textContent()).toMatch(/copy of Travel/);
    await screenshot(page, '23-import-report');
    const bundles = (await api(host, 'bundles.list', { includeDisabled: true })).items;
    expect(bundles.length).toBe(before + 1);
    const copy = bundles.find((b) => b.slug === 'travel-copy')!;
    expect(copy.toolCount).toBe(2);
    await page.getByTestId('report-created').getByRole('button', { name: 'Open' }).click();
    expect(await report.count()).toBe(0);
    await expect.poll(() => page.getByTestId('tool-row-fx-rate').count()).toBe(1);

    // A built-in cannot be replaced, and the dialog says why; skipping it imports nothing.
    await page.getByTestId('import-file-input').setInputFiles({ name: 'core.zip', mimeType: 'application/zip', buffer: await restExport([CORE]) });
    await dialog.waitFor();
    expect(await page.getByTestId('conflict-replace').isDisabled()).toBe(true);
    expect(await page.getByTestId('replace-blocked').textContent()).toMatch(/built-in/);
    await screenshot(page, '24-conflict-builtin');
    await page.getByTestId('conflict-skip').check();
    await page.getByTestId('conflict-import').click();
    await report.waitFor();
    expect(await report.locator('.modal-title').textContent()).toBe('Nothing was imported');
    expect(await page.getByTestId('report-skipped').textContent()).toMatch(/built-in/);
    await page.getByTestId('report-done').click();

    // Two dropped at once: a file of none of the four kinds is refused with what would work,
    // then a broken archive gets the core's reason; nothing is written.
    const count = (await api(host, 'bundles.list', { includeDisabled: true })).items.length;
    await dragFilesOver([
      { name: 'notes.txt', bytes: Buffer.from('hello') },
      { name: 'broken.zip', bytes: Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(64, 7)]) },
    ]);
    await dropDragged();
    await page.getByTestId('report-unsupported').waitFor();
    expect(await page.getByTestId('report-unsupported').textContent()).toMatch(/notes\.txt.*OpenAPI/);
    await page.getByTestId('report-done').click();
    await page.getByTestId('report-error').waitFor();
    expect(await report.locator('.modal-title').textContent()).toBe('This archive cannot be imported');
    expect(await page.getByTestId('report-error').textContent()).toMatch(/INVALID_INPUT/);
    await screenshot(page, '24b-import-error');
    await page.getByTestId('report-done').click();
    expect((await api(host, 'bundles.list', { includeDisabled: true })).items.length).toBe(count);
  });

  it('previews an OpenAPI document, asks for a base URL when the document has none, and allows its host only when confirmed', async () => {
    const fixture = await readFile(join(FIXTURES, 'inventory-openapi.json'));
    const relative = JSON.stringify({ ...JSON.parse(fixture.toString()), servers: [{ url: '/api' }] });
    const input = page.getByTestId('import-file-input');
    await input.setInputFiles({ name: 'relative-openapi.json', mimeType: 'application/json', buffer: Buffer.from(relative) });
    const dialog = page.getByTestId('openapi-dialog');
    await dialog.waitFor();
    expect(await page.getByTestId('dialog-error').textContent()).toMatch(/serverUrl/);
    await page.getByTestId('openapi-server-url').fill('https://stock.example.net/api');
    await page.getByTestId('openapi-preview').click();
    await expect.poll(() => page.getByTestId('openapi-hosts').textContent()).toContain('stock.example.net');
    await screenshot(page, '25-openapi-base-url');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const before = (await api(host, 'bundles.list', { includeDisabled: true })).items.length;
    await input.setInputFiles(join(FIXTURES, 'inventory-openapi.json'));
    await dialog.waitFor();
    const summary = await page.getByTestId('openapi-summary').textContent();
    expect(summary).toMatch(/inventory-api with \d+ http tools/);
    expect(await page.getByTestId('openapi-operations').textContent()).toContain('/items/{itemId}');
    expect(await page.getByTestId('openapi-hosts').textContent()).toContain('eu.inventory.example.com');
    expect((await api(host, 'bundles.list', { includeDisabled: true })).items.length).toBe(before);
    await screenshot(page, '26-openapi-preview');
    // The import itself is held at the network until the progress indicator has been seen.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/tools/bundles/import/openapi', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByTestId('openapi-import').click();
    const progress = page.getByTestId('transfer-progress');
    await progress.waitFor();
    expect(await progress.getByRole('progressbar').getAttribute('aria-label')).toBe('Importing inventory-openapi.json…');
    expect(await page.getByTestId('sidebar-import').isDisabled()).toBe(true);
    await screenshot(page, '26b-import-progress');
    release();
    await page.getByTestId('import-report').waitFor();
    await page.unroute('**/tools/bundles/import/openapi');
    expect(await progress.count()).toBe(0);
    const hosts = page.getByTestId('report-hosts');
    expect(await hosts.textContent()).toContain('eu.inventory.example.com');
    // Every operation is listed, imported or skipped, and the list filters.
    const items = page.getByTestId('report-items');
    expect(await items.textContent()).toMatch(/\d+ of \d+ imported/);
    await page.getByTestId('report-items-status').selectOption('all');
    const rows = items.locator('tbody tr');
    const all = await rows.count();
    expect(all).toBeGreaterThan(1);
    await page.getByTestId('report-items-filter').fill('{itemId}');
    await expect.poll(() => rows.count()).toBeLessThan(all);
    expect(await rows.first().textContent()).toContain('/items/{itemId}');
    await page.getByTestId('report-items-filter').fill('');
    await screenshot(page, '27-openapi-report');
    await page.getByTestId('report-allow-hosts').click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await api(host, 'config.get', {})).allowedHosts).not.toContain('eu.inventory.example.com');
    await page.getByTestId('report-allow-hosts').click();
    await confirm.getByRole('button', { name: 'Allow' }).click();
    await expect.poll(() => hosts.textContent()).toMatch(/Allowed/);
    const config = await api(host, 'config.get', {});
    expect(config.allowedHosts).toEqual(expect.arrayContaining(['eu.inventory.example.com', 'api.frankfurter.app']));
    await page.getByTestId('report-done').click();
    const imported = (await api(host, 'bundles.list', { includeDisabled: true })).items.find((b) => b.slug === 'inventory-api');
    expect(imported?.toolCount).toBeGreaterThan(0);
  });

  it('imports a SKILL.md picked with the Import button as a new bundle', async () => {
    await page.getByRole('button', { name: 'All tools' }).click();
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('import-files').click()]);
    expect(chooser.isMultiple()).toBe(true);
    await chooser.setFiles(join(FIXTURES, 'weather-skill.md'));
    await page.getByTestId('import-report').waitFor();
    expect(await page.getByTestId('report-created').textContent()).toMatch(/weather-skills/);
    expect(await page.getByTestId('report-hosts').textContent()).toContain('api.weather.example');
    await page.getByTestId('report-done').click();
    const skill = (await api(host, 'bundles.list', { includeDisabled: true })).items.find((b) => b.slug === 'weather-skills');
    expect(skill?.toolCount).toBeGreaterThan(1);
    expect((await api(host, 'config.get', {})).allowedHosts).not.toContain('api.weather.example');
  });

  it('imports a container-tool folder into the current bundle and lists the secrets it needs', async () => {
    await openBundle('from-elsewhere');
    await page.getByTestId('bundle-header-switch').click();
    await expect
      .poll(async () => (await api(host, 'bundles.list', { includeDisabled: true })).items.find((b) => b.slug === 'from-elsewhere')?.isEnabled)
      .toBe(true);
    await page.getByTestId('import-folder-input').setInputFiles(join(FIXTURES, 'word-count-container'));
    const dialog = page.getByTestId('container-dialog');
    await dialog.waitFor();
    expect(await page.getByTestId('container-target').locator('option:checked').textContent()).toBe('From elsewhere');
    await screenshot(page, '28-container-target');
    await page.getByTestId('container-import').click();
    const secrets = page.getByTestId('report-secrets');
    await secrets.waitFor();
    expect(await secrets.textContent()).toMatch(/STATS_API_KEY \(not set\)/);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, '29-container-report-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByTestId('report-open-secrets').click();
    await page.getByTestId('add-secret').waitFor();
    const bundleID = (await api(host, 'bundles.list', { includeDisabled: true })).items.find((b) => b.slug === 'from-elsewhere')!.bundleID;
    const tools = (await api(host, 'tools.list', { bundleIDs: [bundleID], includeDisabled: true })).items;
    expect(tools.map((t) => t.type)).toEqual(['container']);
  });

  it('stays usable at 900 px wide', async () => {
    await openBundle('core');
    await page.setViewportSize({ width: 900, height: 700 });
    await page.getByTestId('tool-row-calc').click();
    await page.getByTestId('run').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, '16-narrow-900px');
    await page.getByRole('button', { name: 'All tools' }).click();
    await page.getByTestId('import-files').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, '16b-narrow-all-tools');
    await page.setViewportSize({ width: 1280, height: 820 });
  });

  it('serves the renderer under a CSP that frames nothing (cards render in srcdoc frames all the same)', async () => {
    const res = await fetch(`${host.url}/`);
    expect(res.headers.get('content-security-policy')).toContain("frame-src 'none'");
  });

  it('ran without page errors or CSP violations', () => {
    expect(problems.filter((p) => !/status of 4\d\d/.test(p))).toEqual([]);
  });
});
