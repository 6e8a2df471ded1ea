/** The browser host opened without its token: a sign-in page that explains and takes the token. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { api, chromiumAvailable, screenshot, startHost, watchPageProblems, type Browser, type Host } from './harness.js';
import { openBrowser } from './fixture.js';

let host: Host;
let browser: Browser;
let page: Page;

describe.runIf(chromiumAvailable())('sign-in without a token', () => {
  beforeAll(async () => {
    [host, browser] = await Promise.all([startHost(), openBrowser()]);
    page = await browser.context.newPage();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  it('explains where the token comes from, refuses a wrong one, and opens the app with the right one', async () => {
    const problems = watchPageProblems(page);
    await page.goto(`${host.url}/`);
    const signin = page.getByTestId('signin');
    await signin.waitFor();
    expect(await signin.textContent()).toMatch(/npm run serve/);
    expect(await signin.textContent()).toMatch(/TOOLWRIGHT_TOKEN/);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('signin-token');
    await screenshot(page, 'signin');
    await page.getByTestId('signin-token').fill('not-the-token');
    await page.getByTestId('signin-submit').click();
    await expect.poll(() => page.locator('#signin-error').textContent()).toMatch(/refused/);
    await page.getByTestId('signin-token').fill(host.token);
    await page.getByTestId('signin-submit').click();
    await page.getByTestId('bundle-list').waitFor();
    // 401s of the refused attempt are expected; nothing else may go wrong.
    expect(problems.filter((p) => !/401/.test(p))).toEqual([]);
  }, 60_000);

  it('gives every view an address: reload keeps it, Back and Forward move through it, a deep link opens it', async () => {
    await page.getByTestId('nav-settings').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/settings');
    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByTestId('bundle-core').locator('.bundle-open').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#\/bundle\/0190a000/);
    await page.getByTestId('tool-row-calc').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/tool/0190a000-0000-7000-8000-00000000c0e0/calc/v1');
    await page.goBack();
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#\/bundle\//);
    await page.goBack();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.goForward();
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#\/bundle\//);
    // A link to a tool opens it directly (same tab session: the token is kept for the tab).
    await page.goto(`${host.url}/#/tool/0190a000-0000-7000-8000-00000000c0e0/uuid/v1`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent()).toMatch(/UUID/);
  }, 60_000);

  it('Space on a focused row does not switch the tool off; the switch keeps one accessible name', async () => {
    await page.goto(`${host.url}/#/bundle/0190a000-0000-7000-8000-00000000c0e0`);
    const row = page.getByTestId('tool-row-calc');
    await row.waitFor();
    await row.focus();
    await page.keyboard.press('Space');
    await new Promise((r) => setTimeout(r, 400));
    expect(await page.getByTestId('tool-row-calc').getByRole('switch').isChecked()).toBe(true);
    await page.keyboard.press('Enter');
    const sw = page.getByTestId('tool-enabled');
    await sw.waitFor();
    expect(await sw.getAttribute('aria-label')).toBe('Enabled');
    await sw.click();
    await expect.poll(() => sw.isChecked()).toBe(false);
    expect(await sw.getAttribute('aria-label')).toBe('Enabled');
    await sw.click();
    await expect.poll(() => sw.isChecked()).toBe(true);
  }, 60_000);

  it('keeps a broken tool.json visible where it was, with its path and reason, and counts problems in the sidebar', async () => {
    const bundleID = '01a20000-0000-7000-8000-00000000b0b0';
    await api(host, 'bundles.put', { bundleID, bundle: { slug: 'fragile', displayName: 'Fragile' } });
    const dir = join(host.dataDir, 'bundles', bundleID, 'tools', '01a20000-0000-7000-8000-00000000dead');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'tool.json'), '{"slug": "half-written",');
    await page.goto(`${host.url}/#/bundle/${bundleID}`);
    const broken = page.getByTestId('broken-files');
    await broken.waitFor({ timeout: 15_000 });
    expect(await broken.textContent()).toContain('tool.json');
    // writeFile empties the file before it writes, as many editors do: the watcher may see the empty file first.
    await expect.poll(() => broken.textContent(), { timeout: 15_000 }).toMatch(/not valid JSON \(syntax error at line 1/);
    await expect.poll(() => page.getByTestId('problems-badge').textContent()).toMatch(/1 problem/);
    await screenshot(page, 'broken-file');
  }, 60_000);

  it('shows what a deleted bundle holds, deletes it for good after a confirmation, and empties the Trash', async () => {
    for (const slug of ['old-stuff', 'older-stuff']) {
      const bundleID = slug === 'old-stuff' ? '01a20000-0000-7000-8000-0000000000a1' : '01a20000-0000-7000-8000-0000000000a2';
      await api(host, 'bundles.put', { bundleID, bundle: { slug, displayName: slug } });
      await api(host, 'tools.put', {
        bundleID,
        slug: 'thing',
        version: 'v1',
        tool: { type: 'function', displayName: 'Thing', impl: { function: 'core.uuid' }, argSchema: { type: 'object' } },
      });
      await api(host, 'bundles.delete', { bundleID });
    }
    await page.goto(`${host.url}/#/trash`);
    const card = page.getByTestId('trash-old-stuff');
    await card.waitFor();
    await card.getByText('What is inside').click();
    await expect.poll(() => page.getByTestId('trash-tools-old-stuff').textContent()).toContain('thing@v1');
    await screenshot(page, 'trash');
    await page.getByTestId('purge-old-stuff').click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete for good' }).click();
    await card.waitFor({ state: 'detached' });
    await page.getByTestId('empty-trash').click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Empty Trash' }).click();
    await page.getByText('Trash is empty').waitFor();
    expect((await api(host, 'bundles.list', { deleted: 'only' })).items).toEqual([]);
  }, 60_000);

  it('offers the servers an OpenAPI document lists, and the preview follows the one picked', async () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 'Two Servers', version: '1.0.0' },
      servers: [
        { url: 'https://api.two.example/v1', description: 'production' },
        { url: 'https://sandbox.two.example/v1', description: 'sandbox' },
      ],
      paths: { '/ping': { get: { operationId: 'ping', responses: { '200': { description: 'ok' } } } } },
    };
    await page.goto(`${host.url}/#/tools`);
    await page.getByTestId('import-file-input').setInputFiles({ name: 'two.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
    const dialog = page.getByTestId('openapi-dialog');
    await dialog.waitFor();
    await expect.poll(() => page.getByTestId('openapi-hosts').textContent()).toContain('api.two.example');
    await page.getByTestId('openapi-servers').selectOption('https://sandbox.two.example/v1');
    await page.getByTestId('openapi-preview').click();
    await expect.poll(() => page.getByTestId('openapi-hosts').textContent()).toContain('sandbox.two.example');
    await screenshot(page, 'openapi-servers');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  }, 60_000);
});
