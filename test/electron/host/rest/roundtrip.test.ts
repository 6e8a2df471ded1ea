/**
 * A client that reads a tool and sends back what it read changes nothing: GET, then PUT of the
 * same body with If-Match, leaves tool.json as it was but for modifiedAt, including the "x-"
 * keys people annotate files with (the only keys tool.json allows beyond its schema).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { canonicalJson } from '../../../../shared/canonical.js';
import { TOOL_KEY_ORDER } from '../../../../shared/schemas.js';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { echoToolFile, FIXTURE_AT } from '../../../helpers/store.js';

let h: TestHost;
beforeAll(async () => {
  h = await startHost();
});
afterAll(async () => {
  await h.close();
});

describe('GET then PUT of the same body', () => {
  it('keeps the file as it was, "x-" keys included', async () => {
    const bundleID = uuidv7();
    const toolID = uuidv7();
    expect((await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'hand-edits' })).status).toBeLessThan(300);
    const file = {
      ...echoToolFile(bundleID, toolID, {
        tags: ['util'],
        argSchema: { type: 'object', properties: { text: { type: 'string', default: 'hi' } } },
        card: { enabled: false },
        schedules: [{ scheduleID: uuidv7(), cron: '0 9 * * *', args: {}, isEnabled: false }],
      }),
      'x-owner': 'team-weather',
      'x-review': { by: 'Ada', ticket: 42 },
    };
    const path = join(h.dataDir, 'bundles', bundleID, 'tools', toolID, 'tool.json');
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, canonicalJson(file, TOOL_KEY_ORDER));
    await h.core.store.syncTool(bundleID, toolID);

    const url = `/tools/bundles/${bundleID}/tools/echo/version/v1`;
    const got = await h.api('GET', url);
    expect(got.status).toBe(200);
    expect(got.body['x-review']).toEqual({ by: 'Ada', ticket: 42 });
    const put = await h.api('PUT', url, got.body, { 'if-match': `"${FIXTURE_AT}"` });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const after = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    expect({ ...after, modifiedAt: FIXTURE_AT }).toEqual(file);
  });
});
