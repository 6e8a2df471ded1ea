/**
 * A container tool's settings on their own over REST (issue 35 point 8): GET and PUT
 * …/tools/{slug}/version/{v}/config, secrets write-only, values checked against the settings
 * schema kept from the Chalie manifest, the "test the configuration" action, and required
 * settings without a default in availability. Real Chalie manifests from ../shared/testdata
 * (their folders keep no Dockerfile: each gets a one-line one of ours).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { calcToolBody, startHost, type TestHost } from '../../../helpers/host.js';

const CHALIE = fileURLToPath(new URL('../../../../../shared/testdata/imports/chalie/', import.meta.url));
const manifestOf = (folder: string) => readFile(join(CHALIE, folder, 'manifest.json'), 'utf8');

let h: TestHost;
let bundleID: string;
beforeAll(async () => {
  h = await startHost();
  bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'chalie' });
});
afterAll(async () => {
  await h.close();
});

async function importTool(manifest: string): Promise<{ slug: string; version: string; toolID: string; path: string }> {
  const res = await h.api('POST', `/tools/bundles/${bundleID}/container-import`, {
    files: [
      { path: 'manifest.json', content: manifest },
      { path: 'Dockerfile', content: 'FROM busybox\n' },
    ],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const { slug, version, toolID } = res.body.tool;
  return { slug, version, toolID, path: `/tools/bundles/${bundleID}/tools/${encodeURIComponent(slug)}/version/${encodeURIComponent(version)}` };
}

const toolFile = async (toolID: string) => JSON.parse(await readFile(join(h.dataDir, 'bundles', bundleID, 'tools', toolID, 'tool.json'), 'utf8'));

function expect400(res: { status: number; body: any }, field: string, message: RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe('INVALID_INPUT');
  const issue = res.body.error.details.issues.find((i: any) => i.field === field);
  expect(issue, JSON.stringify(res.body.error)).toBeDefined();
  expect(issue.message).toMatch(message);
}

describe('tool settings over REST (Chalie config_schema)', () => {
  it('youtube-tool: an optional secret is write-only, never blocks availability, and is set and cleared through …/config', async () => {
    const yt = await importTool(await manifestOf('youtube-tool'));
    const got = await h.api('GET', `${yt.path}/config`);
    expect(got.status).toBe(200);
    expect(got.body.settings).toEqual([
      {
        name: 'YOUTUBE_API_KEY',
        secret: true,
        storedAs: 'YOUTUBE_YOUTUBE_API_KEY',
        required: false,
        isSet: false,
        type: 'string',
        description: 'YouTube Data API v3 key. Optional — falls back to scraping without it.',
      },
    ]);
    // The manifest says required: false — the tool works without the key, so availability does not ask for it.
    expect((await h.api('GET', yt.path)).body.availability.reason ?? '').not.toMatch(/YOUTUBE/);

    const secret = 'yt-key-that-must-never-come-back';
    const put = await h.api('PUT', `${yt.path}/config`, { YOUTUBE_API_KEY: secret });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.settings[0]).toMatchObject({ name: 'YOUTUBE_API_KEY', isSet: true, secret: true });
    expect(put.body.settings[0]).not.toHaveProperty('value');
    const again = await h.api('GET', `${yt.path}/config`);
    expect(JSON.stringify(again.body)).not.toContain(secret);
    expect(again.body.settings[0].isSet).toBe(true);
    expect(JSON.stringify(await toolFile(yt.toolID))).not.toContain(secret);
    expect((await h.api('GET', '/tools/secrets')).body.items.map((s: any) => s.name)).toContain('YOUTUBE_YOUTUBE_API_KEY');

    expect400(await h.api('PUT', `${yt.path}/config`, { YOUTUBE_API_KEY: 42 }), 'settings.YOUTUBE_API_KEY', /secret.*string/);
    expect400(await h.api('PUT', `${yt.path}/config`, { YOUTUBE_API_KEY: '' }), 'settings.YOUTUBE_API_KEY', /empty; send null/);
    expect400(
      await h.api('PUT', `${yt.path}/config`, { NOT_A_SETTING: 'x' }),
      'settings.NOT_A_SETTING',
      /not a setting of this tool; its settings are YOUTUBE_API_KEY/,
    );

    const cleared = await h.api('PUT', `${yt.path}/config`, { YOUTUBE_API_KEY: null });
    expect(cleared.body.settings[0].isSet).toBe(false);
    expect((await h.api('GET', '/tools/secrets')).body.items.map((s: any) => s.name)).not.toContain('YOUTUBE_YOUTUBE_API_KEY');
  });

  it('tool-duckduckgo-search: a plain setting with its default, checked against its type, written into tool.json', async () => {
    const ddg = await importTool(await manifestOf('tool-duckduckgo-search'));
    const got = await h.api('GET', `${ddg.path}/config`);
    expect(got.body.settings).toEqual([
      {
        name: 'DUCKDUCKGO_TIMEOUT',
        secret: false,
        required: false,
        isSet: true,
        value: '8',
        default: '8',
        type: 'string',
        description: 'Request timeout in seconds',
      },
    ]);
    const before = await readFile(join(h.dataDir, 'bundles', bundleID, 'tools', ddg.toolID, 'tool.json'));
    expect400(await h.api('PUT', `${ddg.path}/config`, { DUCKDUCKGO_TIMEOUT: 12 }), 'settings.DUCKDUCKGO_TIMEOUT', /string/);
    expect((await readFile(join(h.dataDir, 'bundles', bundleID, 'tools', ddg.toolID, 'tool.json'))).equals(before)).toBe(true);
    const put = await h.api('PUT', `${ddg.path}/config`, { DUCKDUCKGO_TIMEOUT: '12' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.settings[0].value).toBe('12');
    expect((await toolFile(ddg.toolID)).impl.settings).toEqual({ DUCKDUCKGO_TIMEOUT: '12' });
  });

  it('a required setting without a default makes the tool unavailable with the reason; the test action says what is missing or invalid', async () => {
    const manifest = {
      name: 'regional-news',
      version: '2.0',
      description: 'News of a region',
      parameters: { topic: { type: 'string', required: true } },
      config_schema: {
        REGION: { type: 'string', required: true, description: 'Region code such as eu or us' },
        API_TOKEN: { type: 'string', secret: true, required: true, description: 'Token of the news service' },
        UNITS: { type: 'string', enum: ['metric', 'imperial'], default: 'metric' },
        MAX_ITEMS: { type: 'integer', default: 5 },
      },
    };
    const t = await importTool(JSON.stringify(manifest));
    expect((await h.api('GET', t.path)).body.availability).toEqual({ ok: false, reason: 'secret REGIONAL_NEWS_API_TOKEN is not set' });

    const first = await h.api('POST', `${t.path}/config/test`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.ok).toBe(false);
    expect(first.body.problems).toEqual([
      { setting: 'REGION', kind: 'missing', message: 'REGION is required and has no value: Region code such as eu or us' },
      {
        setting: 'API_TOKEN',
        kind: 'missing',
        message: 'API_TOKEN is required and not set (a secret, stored as REGIONAL_NEWS_API_TOKEN): Token of the news service',
      },
    ]);
    expect(first.body.summary).toMatch(/^2 problems with the settings: REGION is required/);

    expect((await h.api('PUT', `${t.path}/config`, { API_TOKEN: 'tok' })).status).toBe(200);
    // Secrets are not the only thing availability checks: the plain required setting still has no value.
    expect((await h.api('GET', t.path)).body.availability).toEqual({
      ok: false,
      reason: "setting REGION is not set; set it in the tool's Configuration (or PUT …/config)",
    });
    const invoke = await h.api('POST', `${t.path}/invoke`, { args: { topic: 'x' } });
    expect(invoke.body.error?.code ?? invoke.body.ok, JSON.stringify(invoke.body)).toBe('TOOL_UNAVAILABLE');

    expect400(await h.api('PUT', `${t.path}/config`, { UNITS: 'kelvin' }), 'settings.UNITS', /must be one of "metric", "imperial"/);
    expect400(await h.api('PUT', `${t.path}/config`, { MAX_ITEMS: 'many' }), 'settings.MAX_ITEMS', /integer/);
    // Several bad fields are named together, and nothing is written.
    const both = await h.api('PUT', `${t.path}/config`, { UNITS: 'kelvin', MAX_ITEMS: 2.5, REGION: 'eu' });
    expect(both.status).toBe(400);
    expect(both.body.error.details.issues.map((i: any) => i.field).sort()).toEqual(['settings.MAX_ITEMS', 'settings.UNITS']);
    expect((await toolFile(t.toolID)).impl.settings.REGION).toBeNull();

    expect((await h.api('PUT', `${t.path}/config`, { REGION: 'eu', MAX_ITEMS: 10 })).status).toBe(200);
    expect((await h.api('GET', t.path)).body.availability.reason ?? '').not.toMatch(/setting|secret/);
    const passed = await h.api('POST', `${t.path}/config/test`);
    expect(passed.body).toMatchObject({ ok: true, problems: [] });
    // No Docker in this host: the test says the settings are right and why the tool still cannot run.
    expect(passed.body.summary).toMatch(/^Every required setting is set and every value fits its schema/);

    // A value the settings form would refuse, saved with the whole tool (an edit of tool.json), is reported as invalid.
    const whole = (await h.api('GET', t.path)).body;
    const edited = await h.api(
      'PUT',
      t.path,
      { ...whole, impl: { ...whole.impl, settings: { ...whole.impl.settings, UNITS: 'kelvin' } } },
      { 'if-match': '*' },
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const after = await h.api('POST', `${t.path}/config/test`);
    expect(after.body.ok).toBe(false);
    expect(after.body.problems).toEqual([{ setting: 'UNITS', kind: 'invalid', message: 'UNITS must be one of "metric", "imperial" (it holds "kelvin")' }]);
  });

  it('answers 400 for a tool that is not a container tool, 404 for none, 409 in a bundle switched off', async () => {
    const calc = `/tools/bundles/${bundleID}/tools/calc/version/v1`;
    await h.api('PUT', calc, calcToolBody());
    const res = await h.api('GET', `${calc}/config`);
    expect400(res, 'tool', /function tool; settings belong to container tools/);
    expect((await h.api('GET', `/tools/bundles/${bundleID}/tools/nothing/version/v1/config`)).status).toBe(404);

    const off = uuidv7();
    await h.api('PUT', `/tools/bundles/${off}`, { slug: 'off' });
    const saved = bundleID;
    bundleID = off;
    const t = await importTool(await manifestOf('tool-duckduckgo-search'));
    bundleID = saved;
    await h.api('PATCH', `/tools/bundles/${off}`, { isEnabled: false });
    const refused = await h.api('PUT', `${t.path}/config`, { DUCKDUCKGO_TIMEOUT: '3' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('BUNDLE_DISABLED');
  });
});
