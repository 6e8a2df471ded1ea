/**
 * Pipelines in Chromium against the real headless host: build a two-step pipeline in the tool
 * editor (steps picked by search, an argument mapped by autocomplete, problems shown as you
 * type), save it, run it in the tester and read its step timeline, then find the steps in the
 * run's history. Steps: an http tool on a loopback server, then the built-in core.calc.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { v7 as uuidv7 } from 'uuid';
import type { Page } from 'playwright-core';
import { api, chromiumAvailable, screenshot, type Host } from './harness.js';
import { openAppSession, type AppSession } from './fixture.js';

let app: AppSession;
let host: Host;
let page: Page;
let problems: string[];
let server: http.Server;
const weather = uuidv7();

async function setCodeMirror(testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

describe.skipIf(!chromiumAvailable())('pipelines in Chromium', () => {
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ name: q, lat: 59.91, lon: 10.75 }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    app = await openAppSession({
      seed: async (host) => {
        // The settings and the bundle side by side.
        await Promise.all([
          api(host, 'config.patch', { patch: { allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true } }),
          api(host, 'bundles.put', { bundleID: weather, bundle: { slug: 'weather', displayName: 'Weather', description: '', isEnabled: true } }),
        ]);
        await api(host, 'tools.put', {
          bundleID: weather,
          slug: 'geocode',
          version: 'v1',
          tool: {
            type: 'http',
            displayName: 'Geocode a city',
            impl: { method: 'GET', urlTemplate: `http://127.0.0.1:${port}/geo?q=\${city}` },
            argSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            outputSchema: { type: 'object', properties: { name: { type: 'string' }, lat: { type: 'number' }, lon: { type: 'number' } } },
          },
        });
      },
    });
    ({ host, page, problems } = app);
  });

  afterAll(async () => {
    await app?.close();
    server?.close();
  });

  it('builds a two-step pipeline in the editor, checked as you type', async () => {
    await page.goto(`${host.url}/#/bundle/${weather}/new-tool`);
    await page.getByTestId('tool-slug').fill('brief');
    await page.getByTestId('tool-name').fill('City brief');
    await page.getByTestId('tool-type').selectOption('pipeline');
    await setCodeMirror('arg-schema', JSON.stringify({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, null, 2));

    // Step 1: picked from this bundle's tools; its "city" is mapped to the pipeline's own "city".
    await page.getByTestId('add-step').click();
    await page.getByTestId('add-step-picker-input').fill('geocode');
    await page.getByTestId('pick-geocode').click();
    await expect.poll(() => page.getByTestId('step-0-id').inputValue()).toBe('geocode');
    await expect.poll(() => page.getByTestId('step-0-arg-city-input').inputValue()).toBe('${input.city}');

    // Step 2: the built-in calculator, found by search across bundles.
    await page.getByTestId('add-step').click();
    await page.getByTestId('add-step-picker-input').pressSequentially('calc', { delay: 20 });
    await page.getByTestId('pick-calc').click();
    await expect.poll(() => page.getByTestId('step-1-tool').textContent()).toMatch(/core\/calc@v1/);

    // Autocomplete: typing ${ offers what this step may read; Enter inserts the active one.
    const expression = page.getByTestId('step-1-arg-expression-input');
    await expression.click();
    await expression.pressSequentially('${steps.geocode.value.la', { delay: 15 });
    const suggestions = page.getByTestId('step-1-arg-expression-input-suggestions');
    await expect.poll(() => suggestions.locator('[role=option]').allTextContents()).toEqual(['${steps.geocode.value.lat}']);
    await screenshot(page, 'pipeline-01-autocomplete');
    await page.keyboard.press('Enter');
    await page.keyboard.insertText(' * 2');
    await expect.poll(() => expression.inputValue()).toBe('${steps.geocode.value.lat} * 2');
    expect(await page.locator('[data-testid="step-1-arg-expression"] mark.ph-step').textContent()).toBe('${steps.geocode.value.lat}');

    // The first step may not read the second: said at once, under the field.
    const city = page.getByTestId('step-0-arg-city-input');
    await city.fill('${steps.calc.value}');
    await expect.poll(() => page.getByTestId('step-0-arg-city-input-problems').textContent()).toMatch(/reads step "calc", which runs after this one/);
    await city.fill('${input.city}');
    await expect.poll(() => page.getByTestId('step-0-arg-city-input-problems').textContent()).toBe('');

    // Reorder and back: the arrows move steps, and the later-step problem follows the order.
    await page.getByRole('button', { name: 'Move step calc up' }).click();
    await expect.poll(() => page.getByTestId('step-0-id').inputValue()).toBe('calc');
    await expect.poll(() => page.getByTestId('step-0-arg-expression-input-problems').textContent()).toMatch(/runs after this one/);
    await page.getByRole('button', { name: 'Move step calc down' }).click();
    await expect.poll(() => page.getByTestId('step-1-id').inputValue()).toBe('calc');

    await page.getByTestId('pipeline-output').fill('{"city": "${steps.geocode.value.name}", "doubled": "${steps.calc.value.value}"}');
    await screenshot(page, 'pipeline-02-editor');
    await page.getByTestId('tool-save').click();
    await page.getByTestId('tool-detail').waitFor();

    const saved = await api(host, 'tools.get', { bundleID: weather, slug: 'brief', version: 'v1' });
    expect(saved.type).toBe('pipeline');
    expect(saved.impl).toEqual({
      steps: [
        { id: 'geocode', tool: { slug: 'geocode', version: 'v1' }, args: { city: '${input.city}' } },
        {
          id: 'calc',
          tool: { bundleID: '0190a000-0000-7000-8000-00000000c0e0', slug: 'calc', version: 'v1' },
          args: { expression: '${steps.geocode.value.lat} * 2' },
        },
      ],
      output: { city: '${steps.geocode.value.name}', doubled: '${steps.calc.value.value}' },
    });
  });

  it('runs it in the tester and shows each step: arguments, value, duration', async () => {
    await page.locator('#arg_city').fill('Oslo');
    await page.getByTestId('run').click();
    const timeline = page.getByTestId('pipeline-timeline');
    await timeline.waitFor();
    await expect.poll(() => timeline.locator('[data-status]').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toEqual(['ok', 'ok']);
    expect(await timeline.getByTestId('timeline-step-geocode').textContent()).toMatch(/weather\/geocode@v1/);
    const calc = timeline.getByTestId('timeline-step-calc');
    expect(await calc.locator('.timeline-io').isVisible()).toBe(false);
    await calc.locator('.timeline-details > summary').click();
    await expect.poll(() => calc.locator('.timeline-io').isVisible()).toBe(true);
    expect(await calc.locator('.timeline-io').textContent()).toMatch(/59\.91 \* 2/);
    expect(await page.getByTestId('result-value').textContent()).toMatch(/119\.82/);
    await screenshot(page, 'pipeline-03-timeline');

    // The run's history keeps its steps.
    const details = page.getByTestId('history-details').first();
    await details.locator(':scope > summary').click();
    const kept = details.getByTestId('history-timeline');
    await expect.poll(() => kept.isVisible()).toBe(true);
    expect(await kept.locator('[data-status]').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toEqual(['ok', 'ok']);
    await kept.scrollIntoViewIfNeeded();
    await screenshot(page, 'pipeline-04-history');
    expect(problems).toEqual([]);
  });
});
