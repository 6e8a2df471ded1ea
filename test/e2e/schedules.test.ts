/**
 * Schedules end to end in Chromium against `npm run serve`: an empty Schedules screen that says
 * how to add one; a schedule made in the tool editor (pattern with its meaning and next runs, a
 * zone found by search, arguments through the schema form); the Schedules screen listing it;
 * Run now and its output; switching it off. Screenshots (light, dark, 900 px) go to
 * test-results/e2e/ and, when SHOTS_DIR is set, there too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import type { Page } from 'playwright-core';
import { api, chromiumAvailable, screenshot, type Host } from './harness.js';
import { openAppSession, type AppSession } from './fixture.js';

let app: AppSession;
let host: Host;
let page: Page;
let problems: string[];
const bundleID = uuidv7();

async function shot(name: string): Promise<void> {
  await screenshot(page, `schedules-${name}`);
  const dir = process.env['SHOTS_DIR'];
  if (dir) {
    await mkdir(dir, { recursive: true });
    await page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
  }
}

describe.skipIf(!chromiumAvailable())('Schedules in Chromium', () => {
  beforeAll(async () => {
    app = await openAppSession({
      seed: async (host) => {
        await api(host, 'bundles.put', { bundleID, bundle: { slug: 'news', displayName: 'News', description: 'Daily reading', isEnabled: true } });
        await api(host, 'tools.put', {
          bundleID,
          slug: 'digest',
          version: 'v1',
          tool: {
            type: 'function',
            displayName: 'Morning digest',
            description: 'Adds up the numbers of the day',
            impl: { function: 'core.calc' },
            argSchema: { type: 'object', properties: { expression: { type: 'string', title: 'Expression', minLength: 1 } }, required: ['expression'] },
          },
        });
      },
    });
    ({ host, page, problems } = app);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('the Schedules screen explains how to add one while there is none', async () => {
    await page.getByTestId('nav-schedules').click();
    await page.getByText('No schedules yet').waitFor();
    await expect.poll(() => page.getByTestId('schedules-screen').textContent()).toMatch(/Open a tool, choose Edit, and add one under Schedules/);
    await shot('schedules-empty');
  });

  it('a schedule is made in the tool editor: pattern in words with the next runs, a zone found by search, arguments through the form', async () => {
    await page.goto(`${host.url}/#/tool/${bundleID}/digest/v1/edit`);
    await page.getByTestId('schedules-section').scrollIntoViewIfNeeded();
    await page.getByTestId('add-schedule').click();
    const cron = page.getByTestId('schedule-0-cron');
    await expect.poll(() => cron.evaluate((el) => el === document.activeElement)).toBe(true);
    await cron.fill('*/5 * * *');
    await expect.poll(() => page.getByTestId('schedule-0').textContent()).toMatch(/must have 5 fields/);
    await cron.fill('30 7 * * 1-5');
    await expect.poll(() => page.getByTestId('cron-preview').textContent()).toMatch(/At 07:30, Monday through Friday/);
    await expect.poll(() => page.getByTestId('cron-preview').textContent()).toMatch(/Next: \w{3} \d+ \w{3} 07:30 · /);

    const zone = page.getByTestId('schedule-0-zone');
    await zone.click();
    await zone.fill('paris');
    await page.getByRole('option', { name: /Europe\/Paris/ }).waitFor();
    await shot('editor-zone-search');
    await page.keyboard.press('Enter');
    await expect.poll(() => zone.inputValue()).toBe('Europe/Paris');
    await expect.poll(() => page.getByTestId('cron-preview').textContent()).toMatch(/\(Europe\/Paris\)/);

    await page
      .getByTestId('schedule-0-args')
      .getByLabel(/Expression/)
      .fill('19+23');
    await page.getByTestId('schedule-0').scrollIntoViewIfNeeded();
    await shot('editor-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot('editor-dark');
    await page.setViewportSize({ width: 900, height: 820 });
    await page.getByTestId('schedule-0').scrollIntoViewIfNeeded();
    await shot('editor-900');
    await page.setViewportSize({ width: 1280, height: 820 });
    await page.emulateMedia({ colorScheme: 'light' });

    await page.getByTestId('tool-save').click();
    await page.waitForURL(/#\/tool\/[^/]+\/digest\/v1$/);
    const tool = await api(host, 'tools.get', { bundleID, slug: 'digest', version: 'v1' });
    expect(tool.schedules).toEqual([
      { scheduleID: expect.any(String), cron: '30 7 * * 1-5', timezone: 'Europe/Paris', args: { expression: '19+23' }, isEnabled: true },
    ]);
  });

  it('the Schedules screen lists it with its next run; Run now runs it and shows its output; the switch turns it off', async () => {
    const [schedule] = (await api(host, 'schedules.list', {})).items;
    const id = schedule!.scheduleID;
    await page.getByTestId('nav-schedules').click();
    const row = page.getByTestId(`schedule-row-${id}`);
    await row.waitFor();
    await expect.poll(() => row.textContent()).toMatch(/Morning digest[\s\S]*At 07:30, Monday through Friday[\s\S]*Europe\/Paris/);
    await expect.poll(() => row.getByTestId('next-run').textContent()).toMatch(/07:30/);
    await expect.poll(() => row.getByTestId('last-run').textContent()).toMatch(/never/);

    await page.getByTestId(`run-now-${id}`).click();
    await expect.poll(() => row.getByTestId('last-run').textContent(), { timeout: 15_000 }).toMatch(/ok/);
    await page.getByTestId(`output-${id}`).waitFor();
    await expect.poll(() => page.getByTestId(`output-${id}`).textContent()).toMatch(/42/);
    await shot('schedules-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot('schedules-dark');
    await page.setViewportSize({ width: 900, height: 820 });
    await shot('schedules-900');
    await page.setViewportSize({ width: 1280, height: 820 });
    await page.emulateMedia({ colorScheme: 'light' });

    const history = await api(host, 'tools.history', { bundleID, slug: 'digest', version: 'v1' });
    expect(history.items[0]).toMatchObject({ trigger: 'schedule', scheduleID: id, status: 'ok' });

    await page.getByTestId(`schedule-switch-${id}`).click();
    await expect.poll(async () => (await api(host, 'schedules.list', {})).items[0]!.isEnabled).toBe(false);
    await expect.poll(() => row.getByTestId('next-run').textContent()).toBe('—');
    expect(problems).toEqual([]);
  });
  it('a one-off and an interval are made in the editor beside the cron pattern and listed in words', async () => {
    await page.goto(`${host.url}/#/tool/${bundleID}/digest/v1/edit`);
    // A fresh load: the switch just flipped on the Schedules screen changed the tool (its etag) under any cached copy.
    await page.reload();
    await page.getByTestId('schedules-section').scrollIntoViewIfNeeded();
    await page.getByTestId('add-schedule').click();
    await page.getByTestId('schedule-1-name').fill('Tomorrow’s sum');
    await page.getByTestId('schedule-1-kind').selectOption('once');
    // datetime-local takes this computer's wall clock: a day ahead, at 09:00 local.
    const day = new Date(Date.now() + 86_400_000);
    const local = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}T09:00`;
    await page.getByTestId('schedule-1-at').fill(local);
    await page
      .getByTestId('schedule-1-args')
      .getByLabel(/Expression/)
      .fill('1+1');
    await page.getByTestId('add-schedule').click();
    await page.getByTestId('schedule-2-kind').selectOption('interval');
    await page.getByTestId('schedule-2-every').fill('900');
    await expect.poll(() => page.getByTestId('schedule-2').textContent()).toMatch(/every 15 minutes/);
    await page
      .getByTestId('schedule-2-args')
      .getByLabel(/Expression/)
      .fill('2+2');
    await page.getByTestId('schedule-2').scrollIntoViewIfNeeded();
    await shot('editor-cadences');
    await page.getByTestId('tool-save').click();
    await page.waitForURL(/#\/tool\/[^/]+\/digest\/v1$/);
    const tool = await api(host, 'tools.get', { bundleID, slug: 'digest', version: 'v1' });
    const at = new Date(local).toISOString();
    expect(tool.schedules!.slice(1)).toEqual([
      { scheduleID: expect.any(String), name: 'Tomorrow’s sum', at, args: { expression: '1+1' }, isEnabled: true },
      { scheduleID: expect.any(String), everySeconds: 900, args: { expression: '2+2' }, isEnabled: true },
    ]);
    const [, once, every] = tool.schedules as { scheduleID: string }[];
    await page.getByTestId('nav-schedules').click();
    await expect.poll(() => page.getByTestId(`schedule-row-${once!.scheduleID}`).textContent()).toMatch(/Once, \w{3} \d+ \w{3}( \d{4})? 09:00/);
    await expect.poll(() => page.getByTestId(`schedule-row-${every!.scheduleID}`).textContent()).toMatch(/Every 15 minutes/);
    // A named schedule leads its row with its name; an unnamed one has none.
    await expect.poll(() => page.getByTestId(`schedule-row-${once!.scheduleID}`).getByTestId('schedule-name').textContent()).toBe('Tomorrow’s sum');
    expect(await page.getByTestId(`schedule-row-${every!.scheduleID}`).getByTestId('schedule-name').count()).toBe(0);
    await expect.poll(() => page.getByTestId(`schedule-row-${once!.scheduleID}`).getByTestId('next-run').textContent()).toMatch(/09:00/);
    await shot('schedules-cadences');
    expect(problems).toEqual([]);
  });
});
