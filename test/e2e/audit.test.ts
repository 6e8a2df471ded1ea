/**
 * The Audit log screen in Chromium against `npm run serve`: records of real calls and changes,
 * newest first; a filter; a record's fields on selection; "Verify chain" intact, then after a
 * record was edited on disk, naming its file and line. Screenshots light, dark and 900 px; axe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import type { Page } from 'playwright-core';
import { api, chromiumAvailable, type Host } from './harness.js';
import { openAppSession, type AppSession } from './fixture.js';
import { shoot } from './shots.js';
import { axeViolations, describeFindings } from './axe.js';

let app: AppSession;
let host: Host;
let page: Page;
let problems: string[];
const bundleID = uuidv7();

describe.skipIf(!chromiumAvailable())('Audit log in Chromium', () => {
  beforeAll(async () => {
    app = await openAppSession({
      seed: async (host) => {
        await api(host, 'bundles.put', { bundleID, bundle: { slug: 'maths', displayName: 'Maths', isEnabled: true } });
        await api(host, 'tools.put', {
          bundleID,
          slug: 'sum',
          version: 'v1',
          tool: {
            type: 'function',
            displayName: 'Sum',
            impl: { function: 'core.calc' },
            argSchema: { type: 'object', properties: { expression: { type: 'string' } } },
          },
        });
        for (const expression of ['1+1', '2*3', '7/0']) await api(host, 'tools.invoke', { bundleID, slug: 'sum', version: 'v1', args: { expression } });
      },
    });
    ({ host, page, problems } = app);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('lists calls and changes newest first, filters by kind, shows a record, and verifies the chain', async () => {
    await page.getByTestId('nav-audit').click();
    await expect.poll(() => page.getByTestId('audit-row').count()).toBeGreaterThanOrEqual(5);
    expect(await page.getByTestId('audit-row').first().textContent()).toMatch(/Called sum v1: /);
    await page.getByLabel('Kind').selectOption('change');
    await expect.poll(async () => (await page.getByTestId('audit-row').allTextContents()).every((t) => /change/.test(t))).toBe(true);
    // A change is named by what changed, not by its file (issue 31, point 7); the path is in the detail.
    const changes = await page.getByTestId('audit-row').allTextContents();
    expect(changes.some((t) => t.includes('Created bundle “Maths” (maths)'))).toBe(true);
    const createdTool = page.getByTestId('audit-row').filter({ hasText: 'Created tool “Sum” (sum v1)' });
    await createdTool.click();
    await expect.poll(() => page.getByTestId('audit-detail').textContent()).toMatch(new RegExp(`pathbundles/${bundleID}/tools/[0-9a-f-]{36}/tool\\.json`));
    await shoot(page, 'audit-change');
    await page.getByLabel('Kind').selectOption('');
    await page.getByTestId('audit-row').first().click();
    await expect.poll(() => page.getByTestId('audit-detail').textContent()).toMatch(/argsDigest[0-9a-f]{64}/);
    await page.getByTestId('audit-verify').click();
    await expect.poll(() => page.getByTestId('audit-verify-result').textContent()).toMatch(/Chain intact\. \d+ records in 1 file, chain intact/);
    await shoot(page, 'audit');
    expect(describeFindings(await axeViolations(page))).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(describeFindings(await axeViolations(page))).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });

    const file = join(host.dataDir, 'audit', 'audit-000001.jsonl');
    await writeFile(file, (await readFile(file, 'utf8')).replace('"status":"error"', '"status":"ok"'));
    await page.getByTestId('audit-verify').click();
    await expect
      .poll(() => page.getByTestId('audit-verify-result').textContent())
      .toMatch(/altered\. audit-000001\.jsonl line \d+: the record's hash does not match/);
    await shoot(page, 'audit-broken', { narrow: false });
    expect(problems).toEqual([]);
  }, 120_000);
});
