/**
 * A schedule's time zone is stored as the person wrote it: ICU validates it but its canonical
 * name (Asia/Calcutta for Asia/Kolkata in the ICU of Node 20 and 24 alike) never replaces it, in
 * tool.json, GET of the tool and /tools/schedules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { canonicalTimeZone } from '../../../../shared/schedules/cron.js';

let h: TestHost;
let bundleID: string;
beforeAll(async () => {
  h = await startHost();
  bundleID = uuidv7();
  expect((await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'zones' })).status).toBe(201);
});
afterAll(() => h.close());

const ZONES = ['Asia/Kolkata', 'Europe/Kyiv', 'America/Nuuk', 'Asia/Calcutta', 'Europe/Paris', 'UTC'];

describe('time zones as written', () => {
  it.each(ZONES)('%s stays as written in tool.json, GET and /tools/schedules', async (zone) => {
    const path = `/tools/bundles/${bundleID}/tools/z-${zone.replace('/', '-').toLowerCase()}/version/1`;
    const put = await h.api('PUT', path, {
      type: 'function',
      impl: { function: 'core.calc' },
      argSchema: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
      schedules: [{ cron: '30 9 * * *', timezone: zone, args: { expression: '1+1' } }],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(201);
    expect(put.body.schedules[0].timezone).toBe(zone);
    const onDisk = JSON.parse(await readFile(h.core.store.paths.toolFile(bundleID, put.body.toolID), 'utf8'));
    expect(onDisk.schedules[0].timezone).toBe(zone);
    expect((await h.api('GET', path)).body.schedules[0].timezone).toBe(zone);
    const listed = await h.api('GET', `/tools/schedules?toolID=${put.body.toolID}`);
    expect(listed.body.items[0].timezone).toBe(zone);
    // And it is the zone the schedule fires in: 09:30 there.
    const fire = new Date(listed.body.items[0].nextRunAt);
    const wall = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit' }).format(fire);
    expect(wall).toBe('09:30');
  });

  it('fixes only the letter case of a zone ICU knows, and still refuses what is not a zone', () => {
    expect(canonicalTimeZone('europe/paris')).toBe('Europe/Paris');
    expect(canonicalTimeZone(' Asia/Kolkata ')).toBe('Asia/Kolkata');
    expect(canonicalTimeZone('Europe/Pari')).toBeUndefined();
    expect(canonicalTimeZone('+05:30')).toBeUndefined();
  });
});
