import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7, v4 as uuidv4 } from 'uuid';
import { calcToolBody as fnTool, startHost, type TestHost } from '../../../helpers/host.js';
import { collect, spawnTs } from '../../../helpers/procs.js';
import { tempDir } from '../../../helpers/store.js';

const CORE_BUNDLE = '0190a000-0000-7000-8000-00000000c0e0';
let h: TestHost;
beforeAll(async () => {
  h = await startHost();
});
afterAll(async () => {
  await h.close();
});

function expectError(res: { status: number; body: any }, status: number, code?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(typeof res.body.error.code).toBe('string');
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.message.length).toBeGreaterThan(5);
  if (code) expect(res.body.error.code).toBe(code);
}

function rawRequest(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('auth and origin', () => {
  it('answers 401 without a token or with a wrong one, in the error shape', async () => {
    const none = await fetch(`${h.url}/tools/bundles`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    expect((await none.json()).error.code).toBe('UNAUTHORIZED');
    expectError(await h.api('GET', '/tools/bundles', undefined, { authorization: 'Bearer nope' }), 401, 'UNAUTHORIZED');
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin (CSRF)', async () => {
    const rebound = await rawRequest(h.port, '/tools/bundles', { host: `evil.example:${h.port}`, authorization: `Bearer ${h.token}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.code).toBe('FORBIDDEN');
    expectError(await h.api('GET', '/tools/bundles', undefined, { origin: 'http://evil.example' }), 403, 'FORBIDDEN');
    expect((await h.api('GET', '/tools/bundles', undefined, { origin: h.url })).status).toBe(200);
  });
});

describe('bundles', () => {
  it('PUT creates (201) then replaces (200); GET one and list; PATCH; soft DELETE; restore', async () => {
    const id = uuidv7();
    const created = await h.api('PUT', `/tools/bundles/${id}`, { slug: 'weather', displayName: 'Weather', isEnabled: true, description: 'd' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ bundleID: id, slug: 'weather', isEnabled: true, isBuiltIn: false });
    const replaced = await h.api('PUT', `/tools/bundles/${id}`, { slug: 'weather', displayName: 'Weather!', isEnabled: true, description: 'd2' });
    expect(replaced.status).toBe(200);
    expect(replaced.body.createdAt).toBe(created.body.createdAt);
    expect((await h.api('GET', `/tools/bundles/${id}`)).body.displayName).toBe('Weather!');
    const list = await h.api('GET', '/tools/bundles');
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body.items)).toBe(true);
    expect(list.body.items.map((b: any) => b.bundleID)).toEqual(expect.arrayContaining([id, CORE_BUNDLE]));
    expect(list.body.nextPageToken).toBeUndefined();
    const off = await h.api('PATCH', `/tools/bundles/${id}`, { isEnabled: false });
    expect(off.status).toBe(200);
    expect(off.body.isEnabled).toBe(false);
    expect((await h.api('GET', '/tools/bundles')).body.items.map((b: any) => b.bundleID)).not.toContain(id);
    expect((await h.api('GET', '/tools/bundles?includeDisabled=true')).body.items.map((b: any) => b.bundleID)).toContain(id);
    expect((await h.api('GET', `/tools/bundles?bundleIDs=${id}&includeDisabled=true`)).body.items).toHaveLength(1);
    const del = await h.api('DELETE', `/tools/bundles/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.softDeletedAt).toBeTruthy();
    expect((await h.api('GET', '/tools/bundles?includeDisabled=true')).body.items.map((b: any) => b.bundleID)).not.toContain(id);
    expect((await h.api('GET', '/tools/bundles?deleted=only')).body.items.map((b: any) => b.bundleID)).toEqual([id]);
    const restored = await h.api('POST', `/tools/bundles/${id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.softDeletedAt).toBeUndefined();
  });

  it('answers 400 for bad input, 404 for unknown bundles, 403 for built-ins', async () => {
    expectError(await h.api('PUT', '/tools/bundles/not-a-uuid', { slug: 'x' }), 400, 'INVALID_INPUT');
    // A client may choose any RFC 9562 UUID (uuidgen gives v4); anything else is refused.
    expect((await h.api('PUT', `/tools/bundles/${uuidv4()}`, { slug: 'v4-ok' })).status).toBe(201);
    expectError(await h.api('PUT', '/tools/bundles/01900000-0000-0000-8000-000000000000', { slug: 'x' }), 400, 'INVALID_INPUT'); // version 0
    expectError(await h.api('PUT', '/tools/bundles/01900000-0000-7000-c000-000000000000', { slug: 'x' }), 400, 'INVALID_INPUT'); // wrong variant
    expectError(await h.api('PUT', `/tools/bundles/${uuidv7()}`, { slug: 'has space' }), 400, 'INVALID_INPUT');
    expectError(await h.api('PUT', `/tools/bundles/${uuidv7()}`, { displayName: 'no slug' }), 400, 'INVALID_INPUT');
    expectError(await h.api('PATCH', `/tools/bundles/${uuidv7()}`, { isEnabled: false }), 404, 'NOT_FOUND');
    expectError(await h.api('GET', `/tools/bundles/${uuidv7()}`), 404, 'NOT_FOUND');
    const id = uuidv7();
    await h.api('PUT', `/tools/bundles/${id}`, { slug: 'p' });
    const extra = await h.api('PATCH', `/tools/bundles/${id}`, { isEnabled: true, slug: 'changed' });
    expectError(extra, 400, 'INVALID_INPUT');
    expect(extra.body.error.message).toContain("unknown field 'slug'");
    expectError(await h.api('PATCH', `/tools/bundles/${id}`, { isEnabled: 'yes' }), 400, 'INVALID_INPUT');
    expectError(await h.api('PUT', `/tools/bundles/${CORE_BUNDLE}`, { slug: 'mine' }), 403, 'BUILTIN_READONLY');
    expectError(await h.api('DELETE', `/tools/bundles/${CORE_BUNDLE}`), 403, 'BUILTIN_READONLY');
    const bad = await fetch(`${h.url}/tools/bundles/${id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
      body: '{"slug":',
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('INVALID_INPUT');
    expectError(await h.api('GET', '/tools/nothing-here'), 404, 'NOT_FOUND');
  });
});

describe('tools', () => {
  let bundleID: string;
  beforeAll(async () => {
    bundleID = uuidv7();
    await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'tools', displayName: 'Tools', isEnabled: true, description: '' });
  });
  const path = (slug: string, v = 'v1') => `/tools/bundles/${bundleID}/tools/${encodeURIComponent(slug)}/version/${encodeURIComponent(v)}`;

  it('PUT 201, PUT of the same pair 409 with the file untouched, GET, PATCH, DELETE 204, then 404', async () => {
    const put = await h.api('PUT', path('calc'), fnTool({ tags: ['math'] }));
    expect(put.status).toBe(201);
    expect(put.body).toMatchObject({ slug: 'calc', version: 'v1', bundleID, type: 'function', isEnabled: true, isBuiltIn: false, schemaVersion: '1' });
    expect(put.body.availability).toEqual({ ok: true });
    const file = join(h.dataDir, 'bundles', bundleID, 'tools', put.body.toolID, 'tool.json');
    const before = await readFile(file);
    expectError(await h.api('PUT', path('calc'), fnTool({ description: 'changed' })), 409, 'CONFLICT');
    expect((await readFile(file)).equals(before)).toBe(true);
    const got = await h.api('GET', path('calc'));
    expect(got.status).toBe(200);
    expect(got.body.toolID).toBe(put.body.toolID);
    expect(got.body.metrics).toEqual({ callCount: 0, errorCount: 0, lastCalledAt: null });
    const off = await h.api('PATCH', path('calc'), { isEnabled: false });
    expect(off.status).toBe(200);
    expect(off.body.isEnabled).toBe(false);
    expectError(await h.api('PATCH', path('calc'), { isEnabled: true, description: 'x' }), 400, 'INVALID_INPUT');
    const del = await h.api('DELETE', path('calc'));
    expect(del.status).toBe(204);
    expectError(await h.api('GET', path('calc')), 404, 'NOT_FOUND');
    expectError(await h.api('DELETE', path('calc')), 404, 'NOT_FOUND');
  });

  it('carries Unicode slugs percent-encoded in the path, NFC-normalised', async () => {
    const nfd = 'me\u0301te\u0301o';
    const put = await h.api('PUT', path(nfd, '1.0'), fnTool());
    expect(put.status).toBe(201);
    expect(put.body.slug).toBe('météo');
    expect((await h.api('GET', path('météo', '1.0'))).status).toBe(200);
    expect((await h.api('GET', path(nfd, '1.0'))).status).toBe(200);
    expect((await h.api('PUT', path('天気-なう'), fnTool())).status).toBe(201);
    expect((await h.api('GET', path('天気-なう'))).body.slug).toBe('天気-なう');
    expectError(await h.api('PUT', path('rocket🚀'), fnTool()), 400, 'INVALID_INPUT');
    expectError(await h.api('PUT', path('a'.repeat(65)), fnTool()), 400, 'INVALID_INPUT');
    expect((await h.api('PUT', path('a'.repeat(64)), fnTool())).status).toBe(201);
  });

  it('validates the body and names the field', async () => {
    const noType = await h.api('PUT', path('x1'), { impl: { function: 'core.calc' } });
    expectError(noType, 400, 'INVALID_INPUT');
    expect(noType.body.error.message).toContain("missing required field 'type'");
    const http = await h.api('PUT', path('x2'), { type: 'http', impl: { method: 'GET', urlTemplate: 'https://api.example.org/${q}' } });
    expectError(http, 400, 'INVALID_INPUT');
    expect(http.body.error.details.issues.map((i: any) => i.field)).toContain('impl.urlTemplate');
    const unknownField = await h.api('PUT', path('x3'), fnTool({ colour: 'red' }));
    expectError(unknownField, 400, 'INVALID_INPUT');
    expect(unknownField.body.error.message).toContain("'colour'");
  });

  it('refuses PUT and PATCH in a disabled bundle (409) and in a soft-deleted one (409)', async () => {
    const b = uuidv7();
    await h.api('PUT', `/tools/bundles/${b}`, { slug: 'b' });
    const p = (s: string) => `/tools/bundles/${b}/tools/${s}/version/1`;
    await h.api('PUT', p('t'), fnTool());
    await h.api('PATCH', `/tools/bundles/${b}`, { isEnabled: false });
    expectError(await h.api('PUT', p('u'), fnTool()), 409, 'BUNDLE_DISABLED');
    expectError(await h.api('PATCH', p('t'), { isEnabled: false }), 409, 'BUNDLE_DISABLED');
    await h.api('PATCH', `/tools/bundles/${b}`, { isEnabled: true });
    await h.api('DELETE', `/tools/bundles/${b}`);
    expectError(await h.api('PUT', p('u'), fnTool()), 409, 'BUNDLE_DELETED');
    expectError(await h.api('PATCH', p('t'), { isEnabled: false }), 409, 'BUNDLE_DELETED');
    expectError(await h.api('PUT', `/tools/bundles/${CORE_BUNDLE}/tools/new/version/1`, fnTool()), 403, 'BUILTIN_READONLY');
  });

  it('edits through PUT with If-Match, and answers 412 for a stale tag', async () => {
    const put = await h.api('PUT', path('editable'), fnTool());
    const stale = await h.api('PUT', path('editable'), fnTool({ description: 'v2' }), { 'if-match': '"2000-01-01T00:00:00.000Z"' });
    expectError(stale, 412, 'MODIFIED_ELSEWHERE');
    const ok = await h.api('PUT', path('editable'), fnTool({ description: 'v2' }), { 'if-match': `"${put.body.modifiedAt}"` });
    expect(ok.status).toBe(200);
    expect(ok.body.description).toBe('v2');
    expect(ok.body.toolID).toBe(put.body.toolID);
  });

  it('lists with tags, bundleIDs, includeDisabled, recommendedPageSize and stable page tokens', async () => {
    const b = uuidv7();
    await h.api('PUT', `/tools/bundles/${b}`, { slug: 'listing' });
    for (let i = 0; i < 5; i++) await h.api('PUT', `/tools/bundles/${b}/tools/l${i}/version/1`, fnTool({ tags: i % 2 ? ['odd'] : ['even'] }));
    await h.api('PATCH', `/tools/bundles/${b}/tools/l4/version/1`, { isEnabled: false });
    const all = await h.api('GET', `/tools/tools?bundleIDs=${b}`);
    expect(all.body.items.map((t: any) => t.slug)).toEqual(['l0', 'l1', 'l2', 'l3']);
    expect((await h.api('GET', `/tools/tools?bundleIDs=${b}&includeDisabled=true`)).body.items).toHaveLength(5);
    expect((await h.api('GET', `/tools/tools?bundleIDs=${b}&tags=odd`)).body.items.map((t: any) => t.slug)).toEqual(['l1', 'l3']);
    const p1 = await h.api('GET', `/tools/tools?bundleIDs=${b}&recommendedPageSize=3`);
    expect(p1.body.items).toHaveLength(3);
    expect(typeof p1.body.nextPageToken).toBe('string');
    const p2 = await h.api('GET', `/tools/tools?bundleIDs=${b}&recommendedPageSize=3&pageToken=${encodeURIComponent(p1.body.nextPageToken)}`);
    expect(p2.body.items.map((t: any) => t.slug)).toEqual(['l3']);
    expect(p2.body.nextPageToken).toBeUndefined();
    expectError(await h.api('GET', `/tools/tools?pageToken=${encodeURIComponent(p1.body.nextPageToken)}`), 400, 'INVALID_INPUT');
    expectError(await h.api('GET', '/tools/tools?recommendedPageSize=0'), 400, 'INVALID_INPUT');
    expectError(await h.api('GET', '/tools/tools?includeDisabled=maybe'), 400, 'INVALID_INPUT');
  });

  it('serves search, config, secrets (never a value), problems and functions', async () => {
    const search = await h.api('GET', '/tools/tools/search?q=calc');
    expect(search.status).toBe(200);
    expect(Array.isArray(search.body.items)).toBe(true);
    const cfg = await h.api('GET', '/tools/config');
    expect(cfg.body).toMatchObject({ allowedHosts: [], allowPrivateNetwork: false, toolsEnabled: true });
    const patched = await h.api('PATCH', '/tools/config', { allowedHosts: ['API.Example.com', '*.example.net'] });
    expect(patched.body.allowedHosts).toEqual(['api.example.com', '*.example.net']);
    expectError(await h.api('PATCH', '/tools/config', { allowedHosts: ['http://x.com/path'] }), 400, 'INVALID_INPUT');
    expectError(await h.api('PATCH', '/tools/config', { nope: 1 }), 400, 'INVALID_INPUT');
    const set = await h.api('PUT', '/tools/secrets/WEATHER_API_KEY', { value: 'sekrit-value-123' });
    expect(set.status).toBe(200);
    const secrets = await h.api('GET', '/tools/secrets');
    expect(secrets.body.items.map((s: any) => s.name)).toContain('WEATHER_API_KEY');
    expect(JSON.stringify(secrets.body)).not.toContain('sekrit-value-123');
    expectError(await h.api('PUT', '/tools/secrets/lower_case', { value: 'x' }), 400, 'INVALID_INPUT');
    expect((await h.api('DELETE', '/tools/secrets/WEATHER_API_KEY')).status).toBe(204);
    expectError(await h.api('DELETE', '/tools/secrets/WEATHER_API_KEY'), 404, 'NOT_FOUND');
    const problems = await h.api('GET', '/tools/problems');
    expect(problems.body).toEqual({ items: [] });
    const fns = await h.api('GET', '/tools/functions');
    expect(fns.body.items.map((f: any) => f.name)).toContain('core.calc');
  });
});

describe('what other clients send', () => {
  it('asks for the token on a percent-encoded API path too (the router decodes /%74ools to /tools)', async () => {
    const sneaky = await rawRequest(h.port, '/%74ools/bundles', { host: `127.0.0.1:${h.port}` });
    expect(sneaky.status).toBe(401);
    expect(JSON.parse(sneaky.body).error.code).toBe('UNAUTHORIZED');
    const withToken = await rawRequest(h.port, '/%74ools/bundles', { host: `127.0.0.1:${h.port}`, authorization: `Bearer ${h.token}` });
    expect(withToken.status).toBe(200);
  });

  it('takes JSON bodies without a Content-Type or labelled text/plain (fetch with a string body), and empty bodies labelled application/json', async () => {
    const id = uuidv7();
    const auth = { authorization: `Bearer ${h.token}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const put = await fetch(`${h.url}/tools/bundles/${id}`, { method: 'PUT', headers: auth, body: JSON.stringify({ slug: 'plain' }) });
    expect(put.status).toBe(201);
    const patch = await fetch(`${h.url}/tools/bundles/${id}`, {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'text/plain' },
      body: '{"isEnabled":false}',
    });
    expect(patch.status).toBe(200);
    expect((await patch.json()).isEnabled).toBe(false);
    const del = await fetch(`${h.url}/tools/bundles/${id}`, { method: 'DELETE', headers: json });
    expect(del.status).toBe(200);
    expect((await del.json()).softDeletedAt).toBeTruthy();
    const restore = await fetch(`${h.url}/tools/bundles/${id}/restore`, { method: 'POST', headers: json });
    expect(restore.status).toBe(200);
    const tool = await fetch(`${h.url}/tools/bundles/${id}/tools/t/version/1`, { method: 'DELETE', headers: json });
    expectError({ status: tool.status, body: await tool.json() }, 404, 'NOT_FOUND');
    const notJson = await fetch(`${h.url}/tools/bundles/${id}`, { method: 'PATCH', headers: auth, body: 'isEnabled=true' });
    expectError({ status: notJson.status, body: await notJson.json() }, 400, 'INVALID_INPUT');
  });

  it('answers in the contract error shape for a path that is not valid percent-encoded UTF-8', async () => {
    const res = await h.api('GET', `/tools/bundles/${uuidv7()}/tools/%E0%A4/version/1`);
    expectError(res, 400, 'INVALID_INPUT');
  });

  it('lets the path, never a body key of the same name, pick the resource', async () => {
    const res = await h.api('PUT', '/tools/secrets/PATH_NAME', { name: 'BODY_NAME', value: 'v-123456' });
    expect(res.status).toBe(200);
    const names = (await h.api('GET', '/tools/secrets')).body.items.map((s: any) => s.name);
    expect(names).toContain('PATH_NAME');
    expect(names).not.toContain('BODY_NAME');
    const run = await h.api('POST', `/tools/bundles/${CORE_BUNDLE}/tools/calc/version/v1/invoke`, { slug: 'uuid', args: { expression: '6*7' } });
    expect(run.status).toBe(200);
    expect(JSON.stringify(run.body.value)).toContain('42');
    await h.api('DELETE', '/tools/secrets/PATH_NAME');
  });

  it('reads a trailing slash as the same route', async () => {
    const list = await h.api('GET', '/tools/bundles/');
    expect(list.status).toBe(200);
    expect(list.body.items.map((b: any) => b.bundleID)).toContain(CORE_BUNDLE);
    expect((await h.api('GET', '/tools/tools/?bundleIDs=' + CORE_BUNDLE)).body.items.length).toBeGreaterThan(0);
  });
});

describe('the event stream', () => {
  it('ends when the server closes, so a host with an open browser tab still shuts down', async () => {
    const own = await startHost();
    const res = await fetch(`${own.url}/tools/events`, { headers: { authorization: `Bearer ${own.token}` } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain(': connected');
    const id = uuidv7();
    await own.api('PUT', `/tools/bundles/${id}`, { slug: 'streamed' });
    let seen = '';
    while (!seen.includes(id)) seen += new TextDecoder().decode((await reader.read()).value);
    expect(seen).toContain('"type":"bundle.changed"');
    await own.close(); // hung here, waiting for the stream, before the fix
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(done).toBe(true);
  }, 20_000);
});

describe('the serve command', () => {
  it('prints the listening line, honours TOOLWRIGHT_TOKEN, binds 127.0.0.1 and serves the API', async () => {
    const dataDir = await tempDir('tw-serve-');
    const child = spawnTs('electron/host/serve.ts', ['--data-dir', dataDir, '--port', '0'], { TOOLWRIGHT_TOKEN: 'fixed-token' });
    const run = collect(child);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 30_000);
      child.stdout!.on('data', () => {
        const m = /^Toolwright listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    expect(out).not.toContain('fixed-token');
    // The link that opens the UI is printed all the same (without the token, which the sign-in page asks for).
    await expect.poll(() => out, { timeout: 5000 }).toContain(`Open ${url}/ (sign in with the token from TOOLWRIGHT_TOKEN)`);
    const res = await fetch(`${url}/tools/bundles`, { headers: { authorization: 'Bearer fixed-token' } });
    expect(res.status).toBe(200);
    expect((await fetch(`${url}/tools/bundles`)).status).toBe(401);
    child.kill('SIGTERM');
    const done = await run.done;
    expect(done.code).toBe(0);
  }, 60_000);
});

describe('lenient query and path handling', () => {
  it('reads booleans loosely, takes pageSize for tool lists, answers 400 for slugs that can never exist, and returns search hits as tools', async () => {
    const b = uuidv7();
    await h.api('PUT', `/tools/bundles/${b}`, { slug: 'lenient' });
    for (const s of ['weather-now', 'weather-later', 'rain']) await h.api('PUT', `/tools/bundles/${b}/tools/${s}/version/1`, fnTool());
    await h.api('PATCH', `/tools/bundles/${b}/tools/rain/version/1`, { isEnabled: false });
    for (const q of ['includeDisabled', 'includeDisabled=True', 'includeDisabled=1', 'includeDisabled=yes']) {
      expect((await h.api('GET', `/tools/tools?bundleIDs=${b}&${q}`)).body.items, q).toHaveLength(3);
    }
    expect((await h.api('GET', `/tools/tools?bundleIDs=${b}&includeDisabled=false`)).body.items).toHaveLength(2);
    const paged = await h.api('GET', `/tools/tools?bundleIDs=${b}&pageSize=1`);
    expect(paged.body.items).toHaveLength(1);
    expect(paged.body.nextPageToken).toBeTruthy();
    expectError(await h.api('GET', `/tools/bundles/${b}/tools/has%20space/version/1`), 400, 'INVALID_INPUT');
    expectError(await h.api('DELETE', `/tools/bundles/${b}/tools/ok/version/a%2Fb`), 400, 'INVALID_INPUT');
    const search = await h.api('GET', '/tools/tools/search?q=weather');
    expect(search.body.items.map((i: any) => i.slug)).toEqual(expect.arrayContaining(['weather-now', 'weather-later']));
    expect(search.body.items[0].search.tier).toBe('prefix');
    expect(search.body.items[0].search.matches.slug).toEqual(['weather']);
  });
});
