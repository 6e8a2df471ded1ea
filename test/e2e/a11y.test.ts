/**
 * Every screen and dialog of the app through axe-core, in light and dark: no serious or critical
 * violation anywhere (contrast, names, roles, nesting, keyboard access). Each state is reached as
 * a person would (clicks, the file inputs, a real run against a loopback server, an approval
 * file another process would write) and photographed in both schemes into test-results/e2e/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { animationsFinished, api, PROJECT_ROOT, chromiumAvailable, screenshot, type Host } from './harness.js';
import { openAppSession, type AppSession } from './fixture.js';
import { axeViolations, describeFindings } from './axe.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../helpers/loopback-http.js';

const CORE = '0190a000-0000-7000-8000-00000000c0e0';
const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'transfer');

let app: AppSession;
let host: Host;
let page: Page;
let problems: string[];
let upstream: LoopbackServer;
const travel = uuidv7();

/** Runs axe in light and in dark (its colour rules: axeInBothSchemes says why) on the state the page is in, photographs both, and fails with what to fix. */
async function checkBothSchemes(name: string): Promise<void> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // Transitions of colours finish before contrast is measured.
    await animationsFinished(page);
    found.push(...describeFindings(await axeViolations(page, 'serious', { coloursOnly: scheme === 'dark' })).map((f) => `[${scheme}] ${f}`));
    await screenshot(page, `a11y-${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  expect(found, `axe on ${name}`).toEqual([]);
}

async function go(hash: string, ready: string): Promise<void> {
  await page.evaluate((h) => (location.hash = h), hash);
  await page.getByTestId(ready).first().waitFor();
}

/** Escape until the dialog is gone (in the palette the first Escape clears the text). */
async function closeDialog(testId: string): Promise<void> {
  for (let i = 0; i < 3 && (await page.getByTestId(testId).isVisible()); i++) {
    await page.keyboard.press('Escape');
    await animationsFinished(page);
  }
  await page.getByTestId(testId).waitFor({ state: 'hidden' });
}

describe.skipIf(!chromiumAvailable())('accessibility of every screen (axe-core, light and dark)', () => {
  beforeAll(async () => {
    upstream = await startLoopbackServer();
    upstream.route('/rate', (_req, res) => sendJson(res, 200, { base: 'EUR', rates: { USD: 1.08 } }));
    app = await openAppSession({
      seed: async (host) => {
        await api(host, 'config.patch', { patch: { allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true } });
        await api(host, 'bundles.put', {
          bundleID: travel,
          bundle: { slug: 'travel', displayName: 'Travel', description: 'Trips and money', isEnabled: true },
        });
        await api(host, 'tools.put', {
          bundleID: travel,
          slug: 'fx-rate',
          version: 'v1',
          tool: {
            displayName: 'FX rate',
            description: 'Exchange rate between two currencies',
            type: 'http',
            argSchema: {
              type: 'object',
              properties: { from: { type: 'string', enum: ['EUR', 'USD'] }, to: { type: 'string', minLength: 3 } },
              required: ['from'],
            },
            impl: { method: 'GET', urlTemplate: `${upstream.url('/rate')}?from=\${from}&to=\${to}` },
            card: { enabled: true, title: '{{from}} → {{to}}', accentColor: '#c2410c', backgroundColor: 'rgba(74,144,212,0.10)' },
          },
        });
        await api(host, 'tools.put', {
          bundleID: travel,
          slug: 'wire-money',
          version: 'v1',
          tool: { displayName: 'Wire money', type: 'function', safety: 'privileged', impl: { function: 'core.uuid' }, argSchema: { type: 'object' } },
        });
        // Something in the Trash, with a tool inside.
        const old = uuidv7();
        await api(host, 'bundles.put', { bundleID: old, bundle: { slug: 'old-stuff', displayName: 'Old stuff' } });
        await api(host, 'tools.put', {
          bundleID: old,
          slug: 'thing',
          version: 'v1',
          tool: { type: 'function', impl: { function: 'core.uuid' }, argSchema: { type: 'object' } },
        });
        await api(host, 'bundles.delete', { bundleID: old });
        await api(host, 'secrets.set', { name: 'FX_KEY', value: 'sk-test-123456' });
      },
    });
    ({ host, page, problems } = app);
  });

  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  it('all tools, a bundle (with a broken file) and the search page', async () => {
    await go('#/tools', 'tool-table');
    await checkBothSchemes('all-tools');
    const dir = join(host.dataDir, 'bundles', travel, 'tools', '01a20000-0000-7000-8000-00000000dead');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'tool.json'), '{"slug": "half-written",');
    await go(`#/bundle/${travel}`, 'tool-table');
    await page.getByTestId('broken-files').waitFor({ timeout: 15_000 });
    await checkBothSchemes('bundle');
    await go('#/search/rate', 'search-screen');
    await page.getByTestId('result-fx-rate').waitFor();
    await checkBothSchemes('search-page');
  });

  it('a tool with its tester: form, result, card, HTTP exchange and history compared', async () => {
    await go(`#/tool/${travel}/fx-rate/v1`, 'tester');
    await checkBothSchemes('tool-tester');
    await page.locator('#arg_from').selectOption('EUR');
    await page.locator('#arg_to').fill('USD');
    await page.getByTestId('run').click();
    await page.getByTestId('result-value').waitFor({ timeout: 20_000 });
    await page.getByTestId('run').click();
    await expect.poll(() => page.getByTestId('history-panel').locator('.history-item').count()).toBe(2);
    await page.getByTestId('http-exchange').locator('summary').click();
    await page.getByTestId('history-details').first().locator('summary').click();
    await page.getByTestId('history-pick').nth(0).check();
    await page.getByTestId('history-pick').nth(1).check();
    await page.getByTestId('history-compare').waitFor();
    await checkBothSchemes('tool-result');
    await page.getByTestId('mode-json').click();
    await checkBothSchemes('tool-json-args');
    await go(`#/tool/${CORE}/calc/v1`, 'tester');
    await checkBothSchemes('builtin-tool');
  });

  it('the editor: a new tool with errors shown, the schema builder, an existing tool, a built-in, a bundle', async () => {
    await go(`#/bundle/${travel}/new-tool`, 'tool-form');
    await page.getByTestId('tool-slug').fill('bad slug');
    await page.getByTestId('http-url').fill('ftp://nowhere');
    await page.getByTestId('tool-save').click();
    await checkBothSchemes('editor-new-errors');
    await go(`#/tool/${travel}/fx-rate/v1/edit`, 'schema-builder');
    await page.getByTestId('schema-builder').scrollIntoViewIfNeeded();
    await checkBothSchemes('editor-builder');
    await go(`#/tool/${CORE}/calc/v1/edit`, 'builtin-readonly');
    await checkBothSchemes('editor-builtin');
    await go(`#/bundle/${travel}/edit`, 'bundle-form');
    await checkBothSchemes('bundle-editor');
  });

  it('settings, secrets (with the form open), the Trash (opened) and Connect an agent', async () => {
    await go('#/settings', 'data-dir');
    await checkBothSchemes('settings');
    await go('#/secrets', 'add-secret');
    await page.getByTestId('add-secret').click();
    await checkBothSchemes('secrets');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await go('#/trash', 'trash-old-stuff');
    await page.getByTestId('trash-old-stuff').getByText('What is inside').click();
    await checkBothSchemes('trash');
    await go('#/agents', 'agent-config');
    await checkBothSchemes('agents');
  });

  it('dialogs: confirm, the search palette, the save conflict merge, and the approvals panel', async () => {
    await go(`#/tool/${travel}/fx-rate/v1`, 'delete-tool');
    await page.getByTestId('delete-tool').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await checkBothSchemes('confirm-dialog');
    await closeDialog('confirm-dialog');

    await page.keyboard.press('Control+K');
    await page.getByTestId('palette-input').fill('rate');
    await page.getByTestId('hit-fx-rate').waitFor();
    await checkBothSchemes('palette');
    await closeDialog('palette');

    await go(`#/tool/${travel}/fx-rate/v1/edit`, 'tool-name');
    await page.getByTestId('tool-name').fill('FX rate (mine)');
    const t = await api(host, 'tools.get', { bundleID: travel, slug: 'fx-rate', version: 'v1' });
    await api(host, 'tools.update', {
      bundleID: travel,
      slug: 'fx-rate',
      version: 'v1',
      tool: { ...t, displayName: 'FX rate (theirs)' },
      ifModifiedAt: t.modifiedAt,
    });
    await page.getByTestId('tool-save').click();
    await page.getByTestId('conflict-summary').waitFor();
    await checkBothSchemes('save-conflict');
    await page.getByTestId('conflict-merge').click();
    await page.getByTestId('merge-dialog').waitFor();
    await checkBothSchemes('merge-dialog');
    await closeDialog('merge-dialog');
    await page.getByTestId('conflict-discard').click();

    const wire = await api(host, 'tools.get', { bundleID: travel, slug: 'wire-money', version: 'v1' });
    const approvalID = uuidv7();
    const now = Date.now();
    await mkdir(join(host.dataDir, 'approvals'), { recursive: true });
    await writeFile(
      join(host.dataDir, 'approvals', `${approvalID}.json`),
      JSON.stringify({
        approvalID,
        tool: { bundleID: travel, toolID: wire.toolID, bundleSlug: 'travel', slug: 'wire-money', version: 'v1', displayName: 'Wire money' },
        args: { amount: 100 },
        caller: 'mcp:claude-desktop',
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + 120_000).toISOString(),
      }),
    );
    await page.getByTestId('approvals-panel').waitFor({ timeout: 20_000 });
    await checkBothSchemes('approvals-panel');
    await page.getByTestId('approval-deny').click();
    await page.getByTestId('approvals-panel').waitFor({ state: 'detached' });
  });

  it('import dialogs: a ZIP that is already here, an OpenAPI preview, a container folder, the report, the export picker', async () => {
    await go('#/tools', 'import-files');
    const zip = Buffer.from(
      await (await fetch(`${host.url}/tools/bundles/${travel}/export`, { headers: { Authorization: `Bearer ${host.token}` } })).arrayBuffer(),
    );
    await page.getByTestId('import-file-input').setInputFiles({ name: 'travel.zip', mimeType: 'application/zip', buffer: zip });
    await page.getByTestId('conflict-dialog').waitFor();
    await checkBothSchemes('import-conflict');
    await page.getByTestId('conflict-import').click();
    await page.getByTestId('import-report').waitFor();
    await checkBothSchemes('import-report');
    await page.getByTestId('report-done').click();

    await page.getByTestId('import-file-input').setInputFiles(join(FIXTURES, 'inventory-openapi.json'));
    await page.getByTestId('openapi-dialog').waitFor();
    await page.getByTestId('openapi-summary').waitFor();
    await checkBothSchemes('import-openapi');
    await closeDialog('openapi-dialog');

    await page.getByTestId('import-folder-input').setInputFiles(join(FIXTURES, 'word-count-container'));
    await page.getByTestId('container-dialog').waitFor();
    await checkBothSchemes('import-container');
    await closeDialog('container-dialog');

    await page.getByTestId('export-bundles').click();
    await page.getByTestId('export-bundles-zip').click();
    await page.getByTestId('export-dialog').waitFor();
    await checkBothSchemes('export-dialog');
    await closeDialog('export-dialog');
  });

  it('the sign-in page of a tab opened without the token', async () => {
    const fresh = await app.browser.context.newPage();
    const previous = page;
    page = fresh;
    try {
      await page.goto(`${host.url}/`);
      await page.getByTestId('signin').waitFor();
      await page.getByTestId('signin-token').fill('wrong');
      await page.getByTestId('signin-submit').click();
      await page.locator('#signin-error').waitFor();
      await checkBothSchemes('signin');
    } finally {
      page = previous;
      await fresh.close();
    }
  });

  it('ran without page errors or CSP violations', () => {
    expect(problems.filter((p) => !/status of 4\d\d/.test(p))).toEqual([]);
  });
});
