/**
 * The transfer operations over the headless host's REST API, as a browser or script uses them:
 * ZIP download and upload (with conflict choice and dry run), SKILL.md and OpenAPI imports,
 * a container folder as JSON files, OpenAI function definitions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { functionTool } from '../../../helpers/store.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/transfer/', import.meta.url));

let a: TestHost;
let b: TestHost;
beforeAll(async () => {
  [a, b] = await Promise.all([startHost(), startHost()]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

async function download(host: TestHost, path: string): Promise<{ status: number; bytes: Uint8Array; type: string | null }> {
  const res = await fetch(host.url + path, { headers: { authorization: `Bearer ${host.token}` } });
  return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()), type: res.headers.get('content-type') };
}

describe('transfer over REST', () => {
  it('GET …/export gives a ZIP; POST /tools/bundles/import takes it, with dryRun and onConflict', async () => {
    const bundleID = uuidv7();
    await a.core.bundles.put(bundleID, { slug: 'travelling' });
    await a.core.tools.create({ bundleID, slug: 'calc', version: 'v1' }, functionTool());
    const one = await download(a, `/tools/bundles/${bundleID}/export`);
    expect(one.status).toBe(200);
    expect(one.type).toBe('application/zip');
    const several = await download(a, `/tools/bundles/export?bundleIDs=${bundleID}`);
    expect(Buffer.from(several.bytes).equals(Buffer.from(one.bytes))).toBe(true);

    const dry = await b.api('POST', '/tools/bundles/import?dryRun=true', one.bytes, { 'content-type': 'application/zip' });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, created: [{ bundleID, slug: 'travelling' }] });
    expect((await b.api('GET', `/tools/bundles/${bundleID}`)).status).toBe(404);

    const real = await b.api('POST', '/tools/bundles/import', one.bytes, { 'content-type': 'application/zip' });
    expect(real.body).toMatchObject({ created: [{ bundleID }], toolCount: 1 });
    expect((await b.api('GET', `/tools/bundles/${bundleID}/tools/calc/version/v1`)).status).toBe(200);
    const again = await b.api('POST', '/tools/bundles/import?onConflict=copy', one.bytes, { 'content-type': 'application/zip' });
    expect(again.body.created[0].fromBundleID).toBe(bundleID);
    const back = await download(b, `/tools/bundles/${bundleID}/export`);
    expect(Buffer.from(back.bytes).equals(Buffer.from(one.bytes))).toBe(true);

    const hostile = await b.api('POST', '/tools/bundles/import', new Uint8Array(Buffer.from('PK\u0005\u0006 not really')), {
      'content-type': 'application/zip',
    });
    expect(hostile.status).toBe(400);
    expect(hostile.body.error.code).toBe('INVALID_INPUT');
  });

  it('POST …/import/skill and …/import/openapi create bundles; GET …/openai-functions lists them', async () => {
    const skill = await b.api('POST', '/tools/bundles/import/skill', { text: await readFile(join(FIXTURES, 'weather-skill.md'), 'utf8') });
    expect(skill.status).toBe(201);
    expect(skill.body.toolCount).toBe(4);
    const api = await b.api('POST', '/tools/bundles/import/openapi', {
      document: await readFile(join(FIXTURES, 'petstore-openapi.yaml'), 'utf8'),
      dryRun: true,
    });
    expect(api.body).toMatchObject({ dryRun: true, toolCount: 3, hostsToAllow: ['petstore.example.net'] });
    const bad = await b.api('POST', '/tools/bundles/import/openapi', { document: '{"swagger":"2.0"}' });
    expect(bad.status).toBe(400);
    // The export offers what may run now (issue 31 point 3), as tools/list does: the four imported
    // tools are listed over REST with their availability, and the export holds exactly the runnable ones.
    const bundleID = skill.body.created[0].bundleID;
    const listed = await b.api('GET', `/tools/tools?bundleIDs=${bundleID}&includeDisabled=true`);
    const tools = listed.body.items as { slug: string; isEnabled: boolean; availability: { ok: boolean } }[];
    expect(tools.map((t) => t.slug).sort()).toEqual(['current-weather', 'greet-python', 'post-report', 'word-count']);
    const runnable = tools.filter((t) => t.isEnabled && t.availability.ok).map((t) => t.slug);
    const defs = await b.api('GET', `/tools/tools/openai-functions?bundleIDs=${bundleID}`);
    expect(defs.status).toBe(200);
    expect(defs.body.items.map((d: { function: { name: string } }) => d.function.name).sort()).toEqual(runnable.sort());
    // Each waits for something (its key, Docker): listed, left out of the export. With the two http
    // tools' keys set, the export offers exactly those two, under their names.
    expect(tools.find((t) => t.slug === 'current-weather')!.availability.ok).toBe(false);
    expect(runnable).not.toContain('current-weather');
    for (const name of ['WEATHER_API_KEY', 'REPORT_TOKEN']) expect((await b.api('PUT', `/tools/secrets/${name}`, { value: 'k' })).status).toBeLessThan(300);
    const after = await b.api('GET', `/tools/tools/openai-functions?bundleIDs=${bundleID}`);
    expect(after.body.items.map((d: { function: { name: string } }) => d.function.name).sort()).toEqual(['current-weather', 'post-report']);
  });

  it('POST …/container-import makes a container tool from a folder sent as JSON', async () => {
    const bundleID = uuidv7();
    await b.core.bundles.put(bundleID, { slug: 'boxes' });
    const files = await Promise.all(
      ['manifest.json', 'Dockerfile', 'runner.sh'].map(async (n) => ({
        path: n,
        content: await readFile(join(FIXTURES, 'word-count-container', n), 'utf8'),
        executable: n === 'runner.sh',
      })),
    );
    const res = await b.api('POST', `/tools/bundles/${bundleID}/container-import`, { files });
    expect(res.status).toBe(201);
    expect(res.body.tool).toMatchObject({ slug: 'word-count', type: 'container' });
    expect(res.body.secrets).toEqual(['WORD_COUNT_LICENSE_TOKEN', 'WORD_COUNT_STATS_API_KEY']);
    const twice = await b.api('POST', `/tools/bundles/${bundleID}/container-import`, { files });
    expect(twice.status).toBe(409);
  });
});
