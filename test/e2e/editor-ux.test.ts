/**
 * The editor and the details people notice, in Chromium: the argument-schema builder beside the
 * JSON, merge and overwrite on a save conflict, no error before anything is typed, the colour
 * swatch, plurals, layouts at 900 px, an imported copy's slug, and placeholders that agree with
 * the README. Screenshots of each screen in light and dark (and at 900 px) go to test-results/e2e/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { api, PROJECT_ROOT, chromiumAvailable, screenshot, type Host } from './harness.js';
import { openAppSession, type AppSession } from './fixture.js';

let app: AppSession;
let host: Host;
let page: Page;
let problems: string[];
const travel = uuidv7();
const ref = { bundleID: travel, slug: 'sum', version: 'v1' };
const ARGS = { type: 'object', properties: { expression: { type: 'string', minLength: 1 } }, required: ['expression'] };

async function shots(name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await screenshot(page, `${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function go(hash: string): Promise<void> {
  await page.evaluate((h) => (location.hash = h), hash);
}

async function setCodeMirror(testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

const editorText = () => page.getByTestId('arg-schema').evaluate((el) => (el as HTMLElement).innerText.replace(/\u00a0/g, ' '));

/** Someone else saves the tool meanwhile (another window, a script, an editor on the file). */
async function saveElsewhere(patch: Record<string, unknown>): Promise<void> {
  const t = await api(host, 'tools.get', ref);
  await api(host, 'tools.update', { ...ref, tool: { ...t, ...patch }, ifModifiedAt: t.modifiedAt });
}

describe.skipIf(!chromiumAvailable())('the editor and the details', () => {
  beforeAll(async () => {
    app = await openAppSession({
      seed: async (host) => {
        await api(host, 'bundles.put', { bundleID: travel, bundle: { slug: 'travel', displayName: 'Travel', isEnabled: true } });
        await api(host, 'tools.put', {
          ...ref,
          tool: { displayName: 'Sum', description: 'Adds numbers', type: 'function', impl: { function: 'core.calc' }, argSchema: ARGS },
        });
      },
    });
    ({ host, page, problems } = app);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('opens a new tool without errors; they come once a field is touched or a save is tried', async () => {
    await go(`#/bundle/${travel}/new-tool`);
    await page.getByTestId('tool-slug').waitFor();
    expect(await page.locator('.has-error').count()).toBe(0);
    expect(await page.getByTestId('http-url-problems').textContent()).toBe('');
    await shots('editor-new');
    await page.getByTestId('http-url').fill('ftp://files.example.com');
    await expect.poll(() => page.getByTestId('http-url-problems').textContent()).toMatch(/must start with http:\/\/ or https:\/\//);
    // A field never touched stays quiet until a save is tried.
    expect(await page.getByTestId('tool-slug').getAttribute('aria-invalid')).toBeNull();
    await page.getByTestId('tool-save').click();
    await expect.poll(() => page.getByTestId('tool-slug').getAttribute('aria-invalid')).toBe('true');
  });

  it('gives timeout and retry fields the placeholders the README and the core use', async () => {
    const readme = await readFile(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const containerSeconds = /(\d+) s\s+timeout then kill/.exec(readme)?.[1];
    const httpSeconds = /`timeoutMs` \(default (\d+) s\)/.exec(readme)?.[1];
    const retries = /`maxRetries` \(default (\d+);/.exec(readme)?.[1];
    expect([containerSeconds, httpSeconds, retries].every(Boolean)).toBe(true);
    expect(await page.getByLabel('Timeout (ms)').getAttribute('placeholder')).toBe(String(Number(httpSeconds) * 1000));
    expect(await page.getByLabel('Retries').getAttribute('placeholder')).toBe(retries);
    await page.getByTestId('tool-type').selectOption('container');
    expect(await page.getByLabel('Timeout (s)').getAttribute('placeholder')).toBe(containerSeconds);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Discard' }).click();
  });

  it('paints the card background as written (alpha over a checkerboard), and the picker keeps the alpha', async () => {
    await go(`#/tool/${travel}/sum/v1/edit`);
    const field = page.getByTestId('card-background');
    await field.waitFor();
    await field.fill('rgba(74,144,212,0.10)');
    const swatch = page.getByTestId('card-background-swatch');
    await expect.poll(() => swatch.locator('.color-swatch-fill').evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgba(74, 144, 212, 0.1)');
    expect(await swatch.evaluate((e) => getComputedStyle(e).backgroundImage)).toMatch(/conic-gradient/);
    // The picker knows only #rrggbb: it starts from the colour without alpha and gives the alpha back.
    const picker = page.getByLabel('Background picker');
    expect(await picker.inputValue()).toBe('#4a90d4');
    await picker.fill('#ff8800');
    await expect.poll(() => field.inputValue()).toBe('rgba(255,136,0,0.1)');
    await field.scrollIntoViewIfNeeded();
    await shots('card-swatch');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Discard' }).click();
    await page.getByTestId('tool-detail').waitFor();
  });

  it('builds the argument schema visually: both views edit the same JSON, and what the builder does not show stays', async () => {
    await go(`#/tool/${travel}/sum/v1/edit`);
    const builder = page.getByTestId('schema-builder');
    await builder.waitFor();
    // minLength is kept and named, not shown.
    expect(await page.getByTestId('sb-prop-expression').textContent()).toMatch(/Also uses minLength/);
    await page.getByTestId('sb-add-arguments').click();
    // The new name is selected: typing replaces it.
    await page.keyboard.type('precision');
    await page.keyboard.press('Enter');
    await page.getByTestId('sb-type-precision').selectOption('integer');
    await page.getByTestId('sb-required-precision').check();
    await page.getByTestId('sb-description-precision').fill('Digits after the point');
    await page.getByTestId('sb-default-precision').fill('2');
    await page.getByTestId('sb-default-precision').press('Enter');
    await page.getByTestId('sb-enum-precision').fill('0, 2, 4');
    await page.getByTestId('sb-enum-precision').press('Tab');
    await expect
      .poll(async () => JSON.parse(await editorText()) as unknown)
      .toEqual({
        type: 'object',
        properties: {
          expression: { type: 'string', minLength: 1 },
          precision: { type: 'integer', description: 'Digits after the point', default: 2, enum: [0, 2, 4] },
        },
        required: ['expression', 'precision'],
      });
    // A nested object, one level down.
    await page.getByTestId('sb-add-arguments').click();
    await page.keyboard.type('options');
    await page.keyboard.press('Enter');
    await page.getByTestId('sb-type-options').selectOption('object');
    await page.getByTestId('sb-add-options').click();
    await page.keyboard.type('round');
    await page.keyboard.press('Enter');
    await page.getByTestId('sb-type-options.round').selectOption('boolean');
    // The JSON editor's edits show in the builder, unknown keywords included.
    const json = JSON.parse(await editorText()) as { properties: Record<string, unknown> };
    expect(json.properties['options']).toEqual({ type: 'object', properties: { round: { type: 'boolean' } } });
    json.properties['precision'] = { ...(json.properties['precision'] as object), maximum: 10, 'x-unit': 'digits' };
    await setCodeMirror('arg-schema', JSON.stringify(json, null, 2));
    await expect.poll(() => page.getByTestId('sb-prop-precision').textContent()).toMatch(/Also uses maximum, x-unit/);
    // …and survive the builder's next edit.
    await page.getByTestId('sb-name-precision').fill('digits');
    await page.getByTestId('sb-name-precision').press('Enter');
    await page.getByTestId('schema-builder').scrollIntoViewIfNeeded();
    await shots('schema-builder');
    await page.setViewportSize({ width: 900, height: 760 });
    await page.getByTestId('schema-builder').scrollIntoViewIfNeeded();
    await shots('schema-builder-900');
    await page.setViewportSize({ width: 1280, height: 820 });
    await page.getByTestId('tool-save').click();
    await page.getByTestId('tool-detail').waitFor();
    const saved = await api(host, 'tools.get', ref);
    expect(saved.argSchema).toEqual({
      type: 'object',
      properties: {
        expression: { type: 'string', minLength: 1 },
        digits: { type: 'integer', description: 'Digits after the point', default: 2, enum: [0, 2, 4], maximum: 10, 'x-unit': 'digits' },
        options: { type: 'object', properties: { round: { type: 'boolean' } } },
      },
      required: ['expression', 'digits'],
    });
    await api(host, 'tools.update', { ...ref, tool: { ...saved, argSchema: ARGS }, ifModifiedAt: saved.modifiedAt });
  });

  it('on a save conflict: one banner saying what changed, a merge that keeps both sides, a choice where both changed the same value', async () => {
    await go(`#/tool/${travel}/sum/v1/edit`);
    await page.getByTestId('tool-name').waitFor();
    await page.getByTestId('tool-name').fill('Sum (mine)');
    await saveElsewhere({ description: 'Adds numbers, from elsewhere', tags: ['math'] });
    await page.getByTestId('tool-save').click();
    const banner = page.getByTestId('form-alert');
    await page.getByTestId('conflict-summary').waitFor();
    const text = (await banner.textContent())!;
    expect(text.match(/saved elsewhere/g)).toHaveLength(1);
    expect(text).not.toMatch(/reload it and apply your edit again/);
    expect(await page.getByTestId('conflict-summary').textContent()).toMatch(/Changed there: description, tags.*Changed here: display name/s);
    await shots('save-conflict');
    // Nothing both changed: merged at once, to be reviewed and saved.
    await page.getByTestId('conflict-merge').click();
    expect(await page.getByTestId('merge-dialog').count()).toBe(0);
    await expect.poll(() => page.getByTestId('tool-description').inputValue()).toBe('Adds numbers, from elsewhere');
    expect(await page.getByTestId('tool-name').inputValue()).toBe('Sum (mine)');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('tool-save');
    await page.keyboard.press('Enter');
    await page.getByTestId('tool-detail').waitFor();
    expect(await api(host, 'tools.get', ref)).toMatchObject({ displayName: 'Sum (mine)', description: 'Adds numbers, from elsewhere', tags: ['math'] });

    // Both changed the name: the merge asks, side by side.
    await page.getByTestId('edit-tool').click();
    await page.getByTestId('tool-name').fill('Sum, my way');
    await page.getByTestId('tool-description').fill('Mine too');
    await saveElsewhere({ displayName: 'Sum, their way' });
    await page.getByTestId('tool-save').click();
    await page.getByTestId('conflict-merge').click();
    const dialog = page.getByTestId('merge-dialog');
    await dialog.waitFor();
    expect(await page.getByTestId('merge-conflict').count()).toBe(1);
    expect(await page.getByTestId('merge-conflict').textContent()).toMatch(/Display name.*Yours.*Sum, my way.*Saved elsewhere.*Sum, their way/s);
    await shots('merge-dialog');
    await page.getByTestId('merge-theirs').check();
    await page.getByTestId('merge-apply').click();
    await expect.poll(() => page.getByTestId('tool-name').inputValue()).toBe('Sum, their way');
    expect(await page.getByTestId('tool-description').inputValue()).toBe('Mine too');
    await page.getByTestId('tool-save').click();
    await page.getByTestId('tool-detail').waitFor();
    expect(await api(host, 'tools.get', ref)).toMatchObject({ displayName: 'Sum, their way', description: 'Mine too' });
  });

  it('overwrites the newer version only after a confirmation', async () => {
    await page.getByTestId('edit-tool').click();
    await page.getByTestId('tool-description').fill('Overwritten on purpose');
    await saveElsewhere({ description: 'Theirs, about to be lost' });
    await page.getByTestId('tool-save').click();
    await page.getByTestId('conflict-overwrite').click();
    const confirm = page.getByTestId('confirm-dialog');
    expect(await confirm.textContent()).toMatch(/replaced by your version/);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await api(host, 'tools.get', ref)).description).toBe('Theirs, about to be lost');
    await page.getByTestId('conflict-overwrite').click();
    await confirm.getByRole('button', { name: 'Overwrite' }).click();
    await page.getByTestId('tool-detail').waitFor();
    expect((await api(host, 'tools.get', ref)).description).toBe('Overwritten on purpose');
  });

  it('counts in words that agree with the number: 1 call, 1 error', async () => {
    await api(host, 'tools.invoke', { ...ref, args: { expression: '1+1' } });
    await go(`#/bundle/${travel}`);
    await go(`#/tool/${travel}/sum/v1`);
    const meta = page.locator('.meta-line');
    await expect.poll(() => meta.textContent()).toMatch(/· 1 call · 0 errors ·/);
    await api(host, 'tools.invoke', { ...ref, args: { expression: '2+' } });
    await go(`#/bundle/${travel}`);
    await page.reload();
    await expect.poll(() => page.getByTestId('tool-row-sum').locator('.cell-num').getAttribute('title')).toBe('2 calls, 1 error');
    await go(`#/tool/${travel}/sum/v1`);
    await expect.poll(() => meta.textContent()).toMatch(/· 2 calls · 1 error ·/);
    expect(await page.getByTestId('bundle-travel').locator('.count').getAttribute('aria-label')).toBe('1 tool');
  });

  it('keeps headers whole at 900 px: the actions wrap together, Delete never alone, Availability not clipped', async () => {
    const t = await api(host, 'tools.get', ref);
    await api(host, 'tools.update', { ...ref, tool: { ...t, displayName: 'Sum of every number in a long list of numbers' }, ifModifiedAt: t.modifiedAt });
    await page.setViewportSize({ width: 900, height: 760 });
    try {
      for (const [hash, ready] of [
        [`#/tool/${travel}/sum/v1`, 'delete-tool'],
        [`#/bundle/${travel}`, 'delete-bundle'],
      ] as const) {
        await go(hash);
        await page.getByTestId(ready).waitFor();
        await page.waitForTimeout(200);
        const tops = await page
          .locator('.page-actions')
          .first()
          .evaluate((g) => [...g.children].map((c) => Math.round(c.getBoundingClientRect().top + c.getBoundingClientRect().height / 2)));
        expect(new Set(tops).size, `${hash}: the header's actions are on one line`).toBe(1);
        const del = await page.getByTestId(ready).evaluate((b) => ({ h: b.getBoundingClientRect().height, lines: b.getClientRects().length }));
        expect(del.h).toBeLessThan(40);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
        await shots(`header-900-${ready}`);
      }
      const head = page.locator('.tool-row-head [role="columnheader"]');
      const clipped = await head.evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent));
      expect(clipped).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 820 });
    }
  });

  it('suggests <slug>-copy for an imported copy, before choosing and after importing', async () => {
    await go('#/tools');
    const zip = Buffer.from(
      await (await fetch(`${host.url}/tools/bundles/${travel}/export`, { headers: { Authorization: `Bearer ${host.token}` } })).arrayBuffer(),
    );
    await page.getByTestId('import-file-input').setInputFiles({ name: 'travel.zip', mimeType: 'application/zip', buffer: zip });
    await page.getByTestId('conflict-dialog').waitFor();
    expect(await page.getByTestId('conflict-dialog').textContent()).toMatch(/named travel-copy/);
    await shots('import-copy-slug');
    await page.getByTestId('conflict-import').click();
    await page.getByTestId('import-report').waitFor();
    expect(await page.getByTestId('report-created').textContent()).toMatch(/travel-copy/);
    await page.getByTestId('report-done').click();
    const slugs = (await api(host, 'bundles.list', { includeDisabled: true })).items.map((b) => b.slug);
    expect(slugs).toEqual(expect.arrayContaining(['travel', 'travel-copy']));
    await page.getByTestId('bundle-travel-copy').waitFor();
  });

  it('ran without page errors or CSP violations', () => {
    expect(problems.filter((p) => !/status of 4\d\d/.test(p))).toEqual([]);
  });
});
