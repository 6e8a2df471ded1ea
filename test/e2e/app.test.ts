/**
 * The app end to end: real Chromium against `npm run serve` on a temporary data directory.
 * One host and one browser page for the whole file; the tests run in order and build on each
 * other (the tool created in one is searched for in the next). Screenshots of every screen go
 * to test-results/e2e/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import type { Page } from 'playwright-core';
import { api, chromiumAvailable, launchBrowser, openApp, RestError, screenshot, startHost, watchPageProblems, type Browser, type Host } from './harness.js';

const CORE = '0190a000-0000-7000-8000-00000000c0e0';
const CALC_ARGS = {
  type: 'object',
  properties: { expression: { type: 'string', minLength: 1 } },
  required: ['expression'],
  additionalProperties: false,
};

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

describe.skipIf(!chromiumAvailable())('Toolwright in Chromium', () => {
  beforeAll(async () => {
    [host, browser] = await Promise.all([startHost(), launchBrowser()]);
    await api(host, 'bundles.put', { bundleID: travel, bundle: { slug: 'travel', displayName: 'Travel', description: 'Trips and money', isEnabled: true } });
    page = await browser.context.newPage();
    problems = watchPageProblems(page);
    await openApp(page, host);
  });

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
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
        ? route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: { code: 'BUNDLE_DELETED', message: 'the bundle was deleted meanwhile' } }) })
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

  it('runs a tool in the tester and shows the result, the card in a sandboxed frame and the history', async () => {
    await page.locator('#arg_expression').fill('2*(3+4)');
    await page.getByTestId('run').click();
    const panel = page.getByTestId('result-panel');
    await expect.poll(() => panel.locator('.result-meta').textContent(), { timeout: 20_000 }).toMatch(/ok/);
    expect(await page.getByTestId('result-value').textContent()).toContain('14');
    const frameEl = page.getByTestId('result-card-iframe');
    expect(await frameEl.getAttribute('sandbox')).toBe('');
    expect(await page.getByTestId('result-card').locator('.card-title-text').textContent()).toBe('2*(3+4)');
    const frame = page.frames().find((f) => f.parentFrame() === page.mainFrame() && f.url() === 'about:srcdoc');
    expect(frame).toBeTruthy();
    await expect.poll(() => frame!.locator('body').textContent()).toContain('2*(3+4) = 14');
    expect(await frame!.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toBe("default-src 'none'; style-src 'unsafe-inline'");
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
    const refused = await api(host, 'tools.update', { bundleID: CORE, slug: 'calc', version: 'v1', tool: { ...calc, displayName: 'Hacked' }, ifModifiedAt: calc.modifiedAt }).catch((e: unknown) => e);
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
      tool: { displayName: 'Wire money', type: 'function', safety: 'privileged', argSchema: CALC_ARGS, impl: { function: 'core.calc' }, card: { enabled: false } },
    });
    const unconfirmed = await api(host, 'tools.invoke', { bundleID: travel, slug: 'wire-money', version: 'v1', args: { expression: '1+1' } }).catch((e: unknown) => e);
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
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    expect(focused).not.toBe(first);
    expect(focused).toMatch(/^tool-row-/);
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

  it('stays usable at 900 px wide', async () => {
    await page.setViewportSize({ width: 900, height: 700 });
    await page.getByTestId('tool-row-calc').click();
    await page.getByTestId('run').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, '16-narrow-900px');
    await page.setViewportSize({ width: 1280, height: 820 });
  });

  it('ran without page errors or CSP violations', () => {
    expect(problems.filter((p) => !/status of 4\d\d/.test(p))).toEqual([]);
  });
});
