/**
 * What an upstream MCP server gives and asks, in the tester in Chromium against `npm run serve`:
 * a result with an image, embedded resources (text, blob), a resource link and an MCP App is shown
 * as such; a tool whose server asks a question during the call puts the server's form in the
 * approvals panel, and the person's answer reaches the server. Screenshots in test-results/e2e/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import type { Page } from 'playwright-core';
import { api, chromiumAvailable, PROJECT_ROOT, type Host } from './harness.js';
import { openAppSession, type AppSession } from './fixture.js';
import { shoot } from './shots.js';
import { axeViolations, describeFindings } from './axe.js';

const FIXTURE = join(PROJECT_ROOT, 'test/fixtures/mcp/file-tools-server.mjs');
const TOOLS = [
  { name: 'media', description: 'A picture and some files', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } },
  { name: 'ask', description: 'Asks which city', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } },
];

let app: AppSession;
let host: Host;
let page: Page;
let problems: string[];
let dir: string;
const bundleID = uuidv7();

describe.skipIf(!chromiumAvailable())('an upstream server’s content and questions in the tester', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tw-e2e-content-'));
    const toolsFile = join(dir, 'tools.json');
    await writeFile(toolsFile, JSON.stringify({ tools: TOOLS }));
    app = await openAppSession({
      seed: async (host) => {
        await api(host, 'bundles.put', {
          bundleID,
          bundle: { slug: 'notes', displayName: 'Notes', source: { kind: 'mcp', transport: 'stdio', command: process.execPath, args: [FIXTURE, toolsFile] } },
        });
        await api(host, 'servers.sync', { bundleID });
        for (const slug of ['media', 'ask']) await api(host, 'tools.patch', { bundleID, slug, version: 'v1', patch: { isEnabled: true } });
      },
    });
    ({ host, page, problems } = app);
  });

  afterAll(async () => {
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('offers no “New tool” on the upstream bundle: its tools come from its server', async () => {
    await page.goto(`${host.url}/#/bundle/${bundleID}`);
    await page.getByTestId('server-panel').waitFor({ timeout: 30_000 });
    await page.getByTestId('delete-bundle').waitFor();
    expect(await page.getByTestId('new-tool').count()).toBe(0);
  }, 60_000);

  it('shows the image, the resources (text shown, blob as a download), the link and the app', async () => {
    await page.goto(`${host.url}/#/tool/${bundleID}/media/v1`);
    await page.getByTestId('run').click();
    await page.getByTestId('result-content').waitFor({ timeout: 30_000 });
    const image = page.getByTestId('content-image');
    expect(await image.count()).toBe(1); // the svg one is named, not shown
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(24);
    const text = await page.getByTestId('result-content').textContent();
    expect(text).toMatch(/image\/svg\+xml \(not shown/);
    expect(await page.getByTestId('content-resource').first().textContent()).toMatch(/file:\/\/\/notes\/readme\.txt.*Notes from the server/s);
    expect(await page.getByTestId('content-download').getAttribute('download')).toBe('data.bin');
    expect(await page.getByTestId('content-download').getAttribute('href')).toMatch(/^blob:/);
    expect(await page.getByTestId('content-link').textContent()).toMatch(/file:\/\/\/notes\/big\.csv/);
    expect(await page.getByTestId('content-app').textContent()).toMatch(/An MCP App: ui:\/\/notes\/viewer/);
    expect(await page.getByTestId('result-value').textContent()).toContain('a picture and some files');
    await shoot(page, 'gateway-content', { scrollTo: 'result-content' });
    const found = describeFindings(await axeViolations(page));
    expect(found).toEqual([]);
  }, 90_000);

  it('puts the server’s question in the approvals panel as a form; the answer reaches the server', async () => {
    await page.goto(`${host.url}/#/tool/${bundleID}/ask/v1`);
    await page.getByTestId('run').click();
    const panel = page.getByTestId('approvals-panel');
    await panel.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('approval-question').textContent()).toBe('Which city should the forecast be for?');
    await page.getByTestId('approval-field-city').fill('Lisbon');
    await shoot(page, 'gateway-question', { narrow: false });
    const found = describeFindings(await axeViolations(page));
    expect(found).toEqual([]);
    await page.getByTestId('approval-answer').click();
    await expect.poll(() => page.getByTestId('result-value').textContent(), { timeout: 30_000 }).toMatch(/accept.*Lisbon/s);
    await panel.waitFor({ state: 'hidden' });
    expect(problems).toEqual([]);
  }, 90_000);
});
