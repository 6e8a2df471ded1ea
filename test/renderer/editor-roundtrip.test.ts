/**
 * A save from the tool editor changes exactly what the person changed (docs/contracts.md, "tool.json"):
 * for each tool type, a tool.json written by hand with every field the format allows is opened
 * in the editor's draft, its description changed, and saved through the real store and save
 * rules; the file on disk is the one written, but for the description and modifiedAt. Fields
 * the form does not show (impl.secrets, impl.settings, "x-" keys), optional objects left out
 * (no sandbox), defaults not written (network, encoding) and schedules' arguments as written.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { canonicalJson } from '../../shared/canonical.js';
import { TOOL_KEY_ORDER } from '../../shared/schemas.js';
import { draftFromTool, toToolInput } from '../../renderer/src/features/tools/editor/draft.js';
import { FIXTURE_AT, openTestStore, type TestStore } from '../helpers/store.js';

let t: TestStore;
let bundleID: string;

beforeEach(async () => {
  t = await openTestStore();
  bundleID = uuidv7();
  await t.bundles.put(bundleID, { slug: 'roundtrip' });
  await t.config.patch({ allowedHosts: ['api.example.com', 'auth.example.com'] });
});
afterEach(async () => {
  await t.cleanup();
});

/** An argSchema with defaults: a save must not copy them into a schedule's arguments. */
const ARG_SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string', default: 'Oslo' },
    days: { type: 'integer', default: 3, minimum: 1 },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['city'],
  additionalProperties: false,
};

/** Every top-level field tool.json allows, around one type's impl. */
function fullTool(slug: string, type: string, impl: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schemaVersion: '1',
    toolID: uuidv7(),
    bundleID,
    slug,
    version: 'v2.1',
    displayName: `The ${slug} tool`,
    description: 'As written by hand',
    type,
    isEnabled: true,
    isBuiltIn: false,
    tags: ['weather', 'hand-written'],
    safety: 'sideEffecting',
    argSchema: ARG_SCHEMA,
    outputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    impl,
    card: { enabled: true, title: 'Weather in {{city}}', accentColor: '#4a90d4', backgroundColor: 'rgba(74,144,212,0.10)' },
    limits: { maxCallsPerMinute: 12, maxOutputBytes: 4096 },
    schedules: [
      {
        scheduleID: uuidv7(),
        cron: '0 9 * * 1-5',
        timezone: 'Europe/Oslo',
        args: { city: 'Bergen' },
        isEnabled: true,
        approval: { approvedAt: '2026-01-02T03:04:05.000Z', approvedBy: 'Ada' },
      },
      // Switched off, with arguments that do not even pass the schema yet: kept as written.
      { scheduleID: uuidv7(), cron: '*/15 * * * *', args: { days: 0 }, isEnabled: false },
    ],
    createdAt: FIXTURE_AT,
    modifiedAt: FIXTURE_AT,
    'x-reviewed-by': { name: 'Ada', at: '2026-01-01' },
    ...extra,
  };
}

/** Writes the file as a person would, lets the store read it, edits the description in the editor's draft and saves as the editor does. */
async function editDescription(file: Record<string, unknown>): Promise<{ before: Record<string, unknown>; after: Record<string, unknown> }> {
  const path = t.store.paths.toolFile(bundleID, file['toolID'] as string);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, canonicalJson(file, TOOL_KEY_ORDER));
  await t.store.syncTool(bundleID, file['toolID'] as string);
  const view = await t.tools.get({ bundleID, slug: file['slug'] as string, version: file['version'] as string });
  const draft = { ...draftFromTool(view), description: 'Changed in the editor' };
  await t.tools.update({ bundleID, slug: view.slug, version: view.version }, toToolInput(draft), view.modifiedAt);
  const after = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  return { before: file, after };
}

async function expectOnlyDescriptionChanged(file: Record<string, unknown>): Promise<void> {
  const { before, after } = await editDescription(file);
  expect(after['description']).toBe('Changed in the editor');
  expect(after['modifiedAt']).not.toBe(FIXTURE_AT);
  expect({ ...after, description: before['description'], modifiedAt: before['modifiedAt'] }).toEqual(before);
}

describe('a save from the editor keeps what the person did not change', () => {
  it('function', async () => {
    await expectOnlyDescriptionChanged(fullTool('echo', 'function', { function: 'core.echo' }));
  });

  it('http, with HMAC signing', async () => {
    await expectOnlyDescriptionChanged(
      fullTool('weather', 'http', {
        method: 'POST',
        urlTemplate: 'https://api.example.com/v1/weather?q=${city}&tags=${tags}',
        headers: { Accept: 'application/json', 'X-Api-Key': '${WEATHER_KEY}' },
        bodyTemplate: '{"days": ${days}}',
        successCodes: [200, 201, 204],
        timeoutMs: 2500,
        responseEncoding: 'text',
        extractExpr: '/temp=(\\d+)/',
        errorMode: 'empty',
        maxRetries: 2,
        auth: { type: 'hmac', secret: 'SIGNING_KEY', algorithm: 'sha512', header: 'X-Sig', timestampHeader: 'X-Time', prefix: 'v1=' },
        serialization: { tags: { style: 'pipeDelimited', explode: false } },
      }),
    );
  });

  it('http, with OAuth and only the fields it needs (no encoding, error mode or algorithm written in)', async () => {
    await expectOnlyDescriptionChanged(
      fullTool('forecast', 'http', {
        method: 'GET',
        urlTemplate: 'https://api.example.com/forecast?q=${city}',
        auth: {
          type: 'oauth2ClientCredentials',
          tokenUrl: 'https://auth.example.com/token',
          clientIdSecret: 'CLIENT_ID',
          clientSecretSecret: 'CLIENT_SECRET',
          scope: 'read',
          audience: 'weather',
        },
      }),
    );
  });

  it('container, with secrets, settings and every sandbox field', async () => {
    await expectOnlyDescriptionChanged(
      fullTool('scraper', 'container', {
        image: 'registry.example.com/scraper:1.2',
        sandbox: { memory: '512m', network: 'bridge', writable: true, cpus: 1.5 },
        timeoutSeconds: 45,
        secrets: ['SCRAPER_TOKEN', 'PROXY_PASSWORD'],
        settings: { api_key: null, region: 'eu', retries: 3, verbose: false },
      }),
    );
  });

  it('container without a sandbox (a Chalie import): none is written in', async () => {
    await expectOnlyDescriptionChanged(
      fullTool('chalie', 'container', { image: 'chalie/weather:latest', secrets: ['WEATHER_API_KEY'], settings: { api_key: '', units: 'metric' } }),
    );
  });

  it('pipeline', async () => {
    const step = fullTool('echo', 'function', { function: 'core.echo' }, { schedules: undefined, safety: 'readOnly' });
    delete step['schedules'];
    await editDescription(step);
    await expectOnlyDescriptionChanged(
      fullTool(
        'report',
        'pipeline',
        {
          steps: [
            { id: 'first', tool: { slug: 'echo', version: 'v2.1' }, args: { city: '${input.city}', days: 2, tags: ['a', '${input.city}'] } },
            { id: 'second', tool: { bundleID, bundleSlug: 'roundtrip', slug: 'echo', version: 'v2.1' }, args: { city: 'Report: ${steps.first.value}' } },
          ],
          output: { first: '${steps.first.value}', second: '${steps.second.value}' },
          timeoutSeconds: 120,
        },
        { safety: 'privileged' },
      ),
    );
  });
});

describe('an edit in the editor is sent as made, and nothing more', () => {
  const chalie = () => fullTool('chalie', 'container', { image: 'chalie/weather:latest', secrets: ['WEATHER_API_KEY'], settings: { units: 'metric' } });

  async function opened(file: Record<string, unknown>) {
    const path = t.store.paths.toolFile(bundleID, file['toolID'] as string);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, canonicalJson(file, TOOL_KEY_ORDER));
    await t.store.syncTool(bundleID, file['toolID'] as string);
    return draftFromTool(await t.tools.get({ bundleID, slug: file['slug'] as string, version: file['version'] as string }));
  }

  it('a sandbox field set on a tool without a sandbox writes that field alone', async () => {
    const d = await opened(chalie());
    const impl = toToolInput({ ...d, impls: { ...d.impls, container: { ...d.impls.container, memory: '256' } } }).impl;
    expect(impl).toEqual({ image: 'chalie/weather:latest', sandbox: { memory: 256 }, secrets: ['WEATHER_API_KEY'], settings: { units: 'metric' } });
  });

  it('a field cleared is removed; a field changed back to what was stored is sent as stored', async () => {
    const d = await opened(fullTool('scraper', 'container', { image: 'a:1', sandbox: { network: 'none', cpus: 2 }, timeoutSeconds: 45, secrets: ['TOKEN'] }));
    const c = d.impls.container;
    const impl = toToolInput({ ...d, impls: { ...d.impls, container: { ...c, timeoutSeconds: '', cpus: '2.0', network: 'bridge' } } }).impl;
    expect(impl).toEqual({ image: 'a:1', sandbox: { network: 'bridge', cpus: 2 }, secrets: ['TOKEN'] });
  });

  it('a tool switched to another type sends that type’s impl alone', async () => {
    const d = await opened(chalie());
    const impl = toToolInput({ ...d, type: 'function', impls: { ...d.impls, function: { functionName: 'core.echo' } } }).impl;
    expect(impl).toEqual({ function: 'core.echo' });
  });

  it('an edited schedule is sent as edited, the others as stored', async () => {
    const file = chalie();
    const d = await opened(file);
    const [on, off] = d.schedules;
    const input = toToolInput({ ...d, schedules: [on!, { ...off!, cron: '0 * * * *' }] });
    expect(input.schedules?.[0]).toEqual((file['schedules'] as unknown[])[0]);
    expect(input.schedules?.[1]).toMatchObject({ cron: '0 * * * *', args: { days: 0 }, isEnabled: false });
  });
});
