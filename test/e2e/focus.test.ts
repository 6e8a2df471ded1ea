/**
 * Keyboard and screen-reader journeys in Chromium: focus lands on the new view after every kind
 * of navigation; dialogs keep Tab inside and give focus back to their opener; the approvals panel
 * and menus do the same; Escape in search; search and the tester's arguments have addresses; a
 * broken tool file stays visible; availability tells the truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { api, PROJECT_ROOT, chromiumAvailable, screenshot, type Browser, type Host } from './harness.js';
import { openAppSession, type AppSession } from './fixture.js';

const CORE = '0190a000-0000-7000-8000-00000000c0e0';
const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'transfer');

let app: AppSession;
let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
const travel = uuidv7();

/** What has focus: its tag, test id and text, for assertions that say what went wrong. */
async function focused(): Promise<string> {
  return page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    if (!a || a === document.body) return 'BODY';
    return `${a.tagName}${a.dataset['testid'] ? `#${a.dataset['testid']}` : ''} ${(a.textContent ?? '').trim().slice(0, 40)}`.trim();
  });
}

const focusIsHeading = (text: string) => expect.poll(focused, { timeout: 10_000 }).toBe(`H1 ${text}`);

async function go(hash: string): Promise<void> {
  await page.evaluate((h) => (location.hash = h), hash);
}

describe.skipIf(!chromiumAvailable())('focus, dialogs and addresses', () => {
  beforeAll(async () => {
    app = await openAppSession({
      seed: async (host) => {
        await api(host, 'bundles.put', { bundleID: travel, bundle: { slug: 'travel', displayName: 'Travel', isEnabled: true } });
        const tools = [
          ['sum', 'Sum'],
          ['total', 'Total'],
        ] as const;
        // Two tools of one bundle, put side by side.
        await Promise.all(
          tools.map(([slug, name]) =>
            api(host, 'tools.put', {
              bundleID: travel,
              slug,
              version: 'v1',
              tool: {
                displayName: name,
                description: 'Adds numbers',
                type: 'function',
                impl: { function: 'core.calc' },
                argSchema: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
              },
            }),
          ),
        );
      },
    });
    ({ host, browser, page, problems } = app);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('moves focus to the new view after a link, a table row (click and Enter), a search result, the palette, Back and Forward', async () => {
    await page.getByTestId('bundle-travel').locator('.bundle-open').click();
    await focusIsHeading('Travel');
    await page.getByTestId('tool-row-sum').click();
    await focusIsHeading('Sum');
    await page.goBack();
    await focusIsHeading('Travel');
    await page.goForward();
    await focusIsHeading('Sum');
    // The breadcrumb is a link too.
    await page.locator('.crumbs').getByRole('button', { name: 'Travel' }).click();
    await focusIsHeading('Travel');
    // Keyboard only: into the list, down a row, Enter.
    const rows = page.locator('[role="row"][data-testid^="tool-row-"]');
    await rows.first().focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toMatch(/tool-row-total/);
    await page.keyboard.press('Enter');
    await focusIsHeading('Total');
    // The search box, then the palette.
    await page.getByTestId('search-box').fill('sum');
    await page.getByTestId('hit-sum').waitFor();
    await page.keyboard.press('Enter');
    await focusIsHeading('Sum');
    await page.keyboard.press('Control+K');
    await page.getByTestId('palette-input').fill('total');
    await page.getByTestId('hit-total').waitFor();
    await page.keyboard.press('Enter');
    await focusIsHeading('Total');
    // A view whose first field is what people came for: the new-tool form focuses its slug.
    await page.getByTestId('bundle-travel').locator('.bundle-open').click();
    await page.getByTestId('new-tool').click();
    await expect.poll(focused).toMatch(/^INPUT#tool-slug/);
    await page.getByRole('button', { name: 'Cancel' }).click();
    // Also when the editor is already loaded and mounts at once, through its address.
    await focusIsHeading('Travel');
    await go(`#/bundle/${travel}/new-tool`);
    await expect.poll(focused).toMatch(/^INPUT#tool-slug/);
    await page.waitForTimeout(300);
    expect(await focused()).toMatch(/^INPUT#tool-slug/);
    await go('#/new-bundle');
    await expect.poll(focused).toMatch(/^INPUT#bundle-slug/);
    // Settings from the sidebar; a reload keeps the view and focuses it too.
    await page.getByTestId('nav-settings').click();
    await focusIsHeading('Settings');
    await page.reload();
    await focusIsHeading('Settings');
  });

  it('keeps Tab inside a dialog and gives focus back to its opener: confirm, palette, menu, import', async () => {
    await go(`#/tool/${travel}/sum/v1`);
    const del = page.getByTestId('delete-tool');
    await del.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    const insideDialog = () => page.evaluate(() => !!document.activeElement?.closest('[data-testid="confirm-dialog"]'));
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      expect(await insideDialog(), `Tab ${i + 1}`).toBe(true);
    }
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await insideDialog(), `Shift+Tab ${i + 1}`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect.poll(focused).toBe('BUTTON#delete-tool Delete');
    // Cancel by its button returns focus as well.
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(focused).toBe('BUTTON#delete-tool Delete');

    // The palette returns focus to what had it.
    await page.getByTestId('edit-tool').focus();
    await page.keyboard.press('Control+K');
    await page.getByTestId('palette-input').waitFor();
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="palette"]'))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(focused).toMatch(/^BUTTON#edit-tool/);

    // A menu: opened from the keyboard, Escape gives focus back to its button.
    await go(`#/bundle/${travel}`);
    await page.getByTestId('export-bundle').focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toMatch(/export-bundle-zip/);
    await page.keyboard.press('Escape');
    await expect.poll(focused).toMatch(/^BUTTON#export-bundle/);

    // An import dialog opened from the Import… button gives focus back to it.
    await go('#/tools');
    await focusIsHeading('All tools');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('import-files').click()]);
    await chooser.setFiles(join(FIXTURES, 'inventory-openapi.json'));
    await page.getByTestId('openapi-dialog').waitFor();
    await page.getByTestId('openapi-dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(focused).toMatch(/^BUTTON#import-files/);
    await screenshot(page, 'focus-after-import-dialog');
  });

  it('F6 takes focus to an approval request; Escape and an answer give it back', async () => {
    await go(`#/tool/${travel}/sum/v1`);
    const field = page.locator('#arg_expression');
    await field.waitFor();
    await field.focus();
    const write = async () => {
      const approvalID = uuidv7();
      const now = Date.now();
      await mkdir(join(host.dataDir, 'approvals'), { recursive: true });
      await writeFile(
        join(host.dataDir, 'approvals', `${approvalID}.json`),
        JSON.stringify({
          approvalID,
          tool: { bundleID: travel, toolID: uuidv7(), bundleSlug: 'travel', slug: 'sum', version: 'v1', displayName: 'Sum' },
          args: { expression: '1+1' },
          caller: 'mcp:test-agent',
          createdAt: new Date(now).toISOString(),
          expiresAt: new Date(now + 120_000).toISOString(),
        }),
      );
    };
    await write();
    await page.getByTestId('approvals-panel').waitFor({ timeout: 20_000 });
    // It never takes focus by itself.
    expect(await focused()).toMatch(/^INPUT/);
    await page.keyboard.press('F6');
    await expect.poll(focused).toMatch(/approval-deny/);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('arg_expression');
    await page.keyboard.press('F6');
    await page.keyboard.press('Enter'); // Deny
    await page.getByTestId('approvals-panel').waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('arg_expression');
  });

  it('Escape in search: the first clears the text, the next leaves (box, palette and search page)', async () => {
    await go(`#/bundle/${travel}`);
    await page.getByTestId('tool-row-sum').click();
    await focusIsHeading('Sum');
    const box = page.getByTestId('search-box');
    await box.fill('sum');
    await page.getByTestId('search-results').waitFor();
    await page.keyboard.press('Escape');
    expect(await box.inputValue()).toBe('');
    expect(await focused()).toMatch(/^INPUT#search-box/);
    expect(await page.getByTestId('search-results').count()).toBe(0);
    await page.keyboard.press('Escape');
    await focusIsHeading('Sum');

    await page.keyboard.press('Control+K');
    await page.getByTestId('palette-input').fill('total');
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('palette').isVisible()).toBe(true);
    expect(await page.getByTestId('palette-input').inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await page.getByTestId('palette').waitFor({ state: 'hidden' });

    // Already empty: the first Escape leaves at once.
    await box.focus();
    await page.keyboard.press('Escape');
    await focusIsHeading('Sum');
  });

  it('gives search a page with its own address: it follows the text, survives a reload, opens results, and Escape goes back', async () => {
    await go(`#/bundle/${travel}`);
    await focusIsHeading('Travel');
    await page.getByTestId('search-box').fill('adds');
    await page.getByTestId('search-all-results').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/search/adds');
    await expect.poll(focused).toMatch(/^INPUT#search-page-input/);
    await page.getByTestId('result-sum').waitFor();
    await page.keyboard.type(' numbers');
    await expect.poll(() => page.evaluate(() => decodeURIComponent(location.hash))).toBe('#/search/adds numbers');
    await page.reload();
    await page.getByTestId('result-total').waitFor();
    expect(await page.getByTestId('search-page-input').inputValue()).toBe('adds numbers');
    expect(await page.getByTestId('search-page-status').textContent()).toMatch(/^2 tools match/);
    await screenshot(page, 'search-page');
    await expect.poll(focused).toMatch(/^INPUT#search-page-input/);
    const results = await page.locator('[data-testid^="result-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    expect(results.sort()).toEqual(['result-sum', 'result-total']);
    const [first, second] = await page.locator('[data-testid^="result-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toMatch(new RegExp(`#${first!}`));
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toMatch(new RegExp(`#${second!}`));
    await page.keyboard.press('Enter');
    await focusIsHeading(second === 'result-total' ? 'Total' : 'Sum');
    await page.goBack();
    await expect.poll(focused).toMatch(/^INPUT#search-page-input/);
    await page.keyboard.press('Escape'); // clears
    expect(await page.getByTestId('search-page-input').inputValue()).toBe('');
    await page.keyboard.press('Escape'); // leaves, back where the search was opened from
    await focusIsHeading('Travel');
  });

  it("keeps the tester's arguments in the address: a reload or a link brings them back", async () => {
    await go(`#/tool/${travel}/sum/v1`);
    await focusIsHeading('Sum');
    // Just opening a tool writes no arguments into the address.
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => location.hash)).toBe(`#/tool/${travel}/sum/v1`);
    await page.locator('#arg_expression').fill('6*7');
    await expect.poll(() => page.evaluate(() => decodeURIComponent(location.hash))).toBe(`#/tool/${travel}/sum/v1?args={"expression":"6*7"}`);
    // Typing kept focus in the field.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('arg_expression');
    await page.reload();
    await page.locator('#arg_expression').waitFor();
    expect(await page.locator('#arg_expression').inputValue()).toBe('6*7');
    // A link with arguments, opened in another tab of the same session.
    const other = await browser.context.newPage();
    await other.goto(`${host.url}/#token=${host.token}`);
    await other.getByTestId('bundle-list').waitFor();
    await other.evaluate((h) => (location.hash = h), `#/tool/${CORE}/calc/v1?args=${encodeURIComponent('{"expression":"2+2"}')}`);
    await other.locator('#arg_expression').waitFor();
    expect(await other.locator('#arg_expression').inputValue()).toBe('2+2');
    await other.getByTestId('run').click();
    await expect.poll(() => other.getByTestId('result-value').textContent(), { timeout: 20_000 }).toContain('4');
    await other.close();
  });

  it('shows a tool whose file breaks where it was, marked broken with path and reason, and brings it back once fixed', async () => {
    const sum = await api(host, 'tools.get', { bundleID: travel, slug: 'sum', version: 'v1' });
    const file = join(host.dataDir, 'bundles', travel, 'tools', sum.toolID, 'tool.json');
    const good = await readFile(file, 'utf8');
    await go(`#/tool/${travel}/sum/v1`);
    await focusIsHeading('Sum');
    await writeFile(file, good.slice(0, 30));
    const broken = page.getByTestId('tool-broken');
    await broken.waitFor({ timeout: 15_000 });
    expect(await broken.textContent()).toMatch(/broken/);
    expect(await page.getByTestId('broken-path').textContent()).toBe(file);
    expect(await broken.textContent()).toMatch(/not valid JSON/);
    expect(await broken.textContent()).not.toMatch(/deleted or renamed/);
    await screenshot(page, 'broken-tool-view');
    // In the list it keeps its place (it was created first, before Total).
    await go(`#/bundle/${travel}`);
    const rows = page.locator('.tool-scroll [role="row"]');
    await expect.poll(() => rows.first().getAttribute('data-testid')).toBe(`broken-row-${sum.toolID}`);
    expect(await rows.nth(1).getAttribute('data-testid')).toBe('tool-row-total');
    expect(await rows.first().textContent()).toMatch(/broken.*not valid JSON/);
    await screenshot(page, 'broken-tool-row');
    await writeFile(file, good);
    await expect.poll(() => rows.first().getAttribute('data-testid'), { timeout: 15_000 }).toBe('tool-row-sum');
  });

  it('tells the truth about availability: file tools without a workspace, every tool while the kill switch is on', async () => {
    await go(`#/bundle/${CORE}`);
    const readFileRow = page.getByTestId('tool-row-read-file');
    await readFileRow.waitFor();
    expect(await readFileRow.locator('.cell-avail').textContent()).toMatch(/no workspace folder is set/);
    expect(await page.getByTestId('tool-row-calc').locator('.cell-avail').textContent()).toBe('available');
    await api(host, 'config.patch', { patch: { toolsEnabled: false } });
    await expect.poll(() => page.getByTestId('tool-row-calc').locator('.cell-avail').textContent(), { timeout: 10_000 }).toMatch(/switched off/);
    await page.getByTestId('kill-badge').waitFor();
    await screenshot(page, 'kill-switch-list');
    await page.getByTestId('tool-row-calc').click();
    expect(await page.getByTestId('availability-reason').textContent()).toMatch(/switched off/);
    expect(await page.getByTestId('run').isDisabled()).toBe(true);
    await api(host, 'config.patch', { patch: { toolsEnabled: true } });
    await expect.poll(() => page.getByTestId('availability-reason').count(), { timeout: 10_000 }).toBe(0);
  });

  it('keeps one accessible name on the bundle and built-in switches, whatever their state', async () => {
    await go(`#/bundle/${travel}`);
    const sw = page.getByTestId('bundle-header-switch');
    await sw.waitFor();
    expect(await sw.getAttribute('aria-label')).toBe('Enabled');
    await sw.click();
    await expect.poll(() => sw.isChecked()).toBe(false);
    expect(await sw.getAttribute('aria-label')).toBe('Enabled');
    expect(await page.locator('.page-actions .switch-label').first().textContent()).toBe('Disabled');
    await sw.click();
    await expect.poll(async () => (await api(host, 'bundles.get', { bundleID: travel })).isEnabled).toBe(true);
    await go(`#/tool/${CORE}/calc/v1/edit`);
    const builtin = page.getByTestId('builtin-enable');
    await builtin.waitFor();
    expect(await builtin.getAttribute('aria-label')).toBe('Enabled');
  });

  it('ran without page errors or CSP violations', () => {
    expect(problems.filter((p) => !/status of 4\d\d/.test(p))).toEqual([]);
  });
});
