/**
 * The editor keeps what its form does not show, in Chromium against `npm run serve`: a container
 * tool.json written by hand (an imported Chalie tool: secrets and settings, no sandbox, a
 * switched-off schedule without the argument defaults, a person's "x-" note) is opened in the
 * editor, its description changed and saved; the file on disk is the one written, but for the
 * description and modifiedAt. A screenshot of the editor goes to test-results/e2e/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { canonicalJson } from '../../shared/canonical.js';
import { TOOL_KEY_ORDER } from '../../shared/schemas.js';
import { api, chromiumAvailable, type Host } from './harness.js';
import { openAppSession, type AppSession } from './fixture.js';
import { shoot } from './shots.js';

let app: AppSession;
let host: Host;
let page: Page;
let problems: string[];
const bundleID = uuidv7();
const toolID = uuidv7();
const AT = '2026-03-04T05:06:07.000Z';

const file = {
  schemaVersion: '1',
  toolID,
  bundleID,
  slug: 'weather',
  version: 'v1',
  displayName: 'Weather (Chalie)',
  description: 'Imported from a Chalie tool folder',
  type: 'container',
  isEnabled: true,
  isBuiltIn: false,
  tags: ['chalie'],
  safety: 'sideEffecting',
  argSchema: { type: 'object', properties: { city: { type: 'string', default: 'Oslo' }, days: { type: 'integer', default: 3 } } },
  outputSchema: {},
  impl: { image: 'chalie/weather:1.0', secrets: ['WEATHER_API_KEY'], settings: { api_key: '', units: 'metric' } },
  card: { enabled: true },
  limits: {},
  schedules: [{ scheduleID: uuidv7(), cron: '0 7 * * *', args: { days: 1 }, isEnabled: false }],
  createdAt: AT,
  modifiedAt: AT,
  'x-imported-from': 'chalie/weather',
};
const path = () => join(host.dataDir, 'bundles', bundleID, 'tools', toolID, 'tool.json');

describe.skipIf(!chromiumAvailable())('the editor keeps what it does not show', () => {
  beforeAll(async () => {
    app = await openAppSession({
      seed: async (host) => {
        await api(host, 'bundles.put', { bundleID, bundle: { slug: 'imported', displayName: 'Imported', isEnabled: true } });
      },
    });
    ({ host, page, problems } = app);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('saves a changed description and nothing else', async () => {
    await mkdir(dirname(path()), { recursive: true });
    await writeFile(path(), canonicalJson(file, TOOL_KEY_ORDER));
    // The host's watcher reads the hand-written file.
    await expect
      .poll(() =>
        api(host, 'tools.get', { bundleID, slug: 'weather', version: 'v1' }).then(
          (t) => t.toolID,
          () => '',
        ),
      )
      .toBe(toolID);
    await page.evaluate((h) => (location.hash = h), `#/tool/${bundleID}/weather/v1/edit`);
    await page.getByTestId('tool-description').fill('Weather for a city, from the Chalie tool');
    await shoot(page, 'editor-keeps-container', { scrollTo: 'container-image' });
    await shoot(page, 'editor-keeps-schedule', { scrollTo: 'schedule-0' });
    await page.getByTestId('tool-save').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/tool/${bundleID}/weather/v1`);
    const after = JSON.parse(await readFile(path(), 'utf8')) as Record<string, unknown>;
    expect(after['description']).toBe('Weather for a city, from the Chalie tool');
    expect({ ...after, description: file.description, modifiedAt: AT }).toEqual(file);
    expect(problems).toEqual([]);
  });
});
