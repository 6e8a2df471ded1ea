/**
 * A tool.json written to the letter of the original spec: no tags, safety, card or limits;
 * `"type":"go"` with `impl.goFunc`; a `${version}` placeholder in an http header. Read from
 * disk and sent over REST, through the real host and real files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { startLoopbackServer, sendJson, type LoopbackServer } from '../../../helpers/loopback-http.js';

const AT = '2026-02-03T04:05:06.000Z';
let h: TestHost;
let upstream: LoopbackServer;
let bundleID: string;

function specFile(toolID: string, fields: Record<string, unknown>): string {
  return (
    JSON.stringify(
      {
        schemaVersion: '1',
        toolID,
        bundleID,
        displayName: 'Spec tool',
        description: 'Written by hand to the original spec',
        isEnabled: true,
        isBuiltIn: false,
        argSchema: { type: 'object', properties: { expression: { type: 'string' } } },
        outputSchema: {},
        createdAt: AT,
        modifiedAt: AT,
        ...fields,
      },
      null,
      2,
    ) + '\n'
  );
}

async function writeSpecTool(fields: Record<string, unknown>): Promise<{ path: string; text: string }> {
  const toolID = uuidv7();
  const dir = join(h.dataDir, 'bundles', bundleID, 'tools', toolID);
  await mkdir(dir, { recursive: true });
  const text = specFile(toolID, fields);
  const path = join(dir, 'tool.json');
  await writeFile(path, text);
  return { path, text };
}

const toolPath = (slug: string, v = 'v1') => `/tools/bundles/${bundleID}/tools/${slug}/version/${v}`;

async function waitForTool(slug: string): Promise<{ status: number; body: any }> {
  let res = await h.api('GET', toolPath(slug));
  for (let i = 0; i < 100 && res.status !== 200; i++) {
    await new Promise((r) => setTimeout(r, 50));
    res = await h.api('GET', toolPath(slug));
  }
  return res;
}

beforeAll(async () => {
  h = await startHost({ watch: true });
  upstream = await startLoopbackServer();
  upstream.route('/ping', (_req, res) => sendJson(res, 200, { pong: true }));
  await h.api('PATCH', '/tools/config', { allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true });
  bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'spec', displayName: 'Spec', isEnabled: true, description: '' });
});
afterAll(async () => {
  await upstream.close();
  await h.close();
});

describe("the original spec's tool.json", () => {
  it('is read from disk with the missing fields defaulted in memory, runs, and the file is not rewritten', async () => {
    const { path, text } = await writeSpecTool({ slug: 'calc', version: 'v1', type: 'go', impl: { goFunc: 'core.calc' } });
    const got = await waitForTool('calc');
    expect(got.status, JSON.stringify((await h.api('GET', '/tools/problems')).body)).toBe(200);
    expect(got.body).toMatchObject({ type: 'function', impl: { function: 'core.calc' }, tags: [], safety: 'readOnly', card: { enabled: true }, limits: {} });
    expect(got.body.availability).toEqual({ ok: true });
    const run = await h.api('POST', `${toolPath('calc')}/invoke`, { args: { expression: '6 * 7' } });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(JSON.stringify(run.body.value)).toContain('42');
    expect(await readFile(path, 'utf8')).toBe(text);
  });

  it('expands ${version} in an http header to the tool version, read from disk', async () => {
    const { path, text } = await writeSpecTool({
      slug: 'ping',
      version: 'v1',
      type: 'http',
      impl: { method: 'GET', urlTemplate: upstream.url('/ping'), headers: { 'X-Api-Version': '${version}' } },
    });
    expect((await waitForTool('ping')).status).toBe(200);
    const run = await h.api('POST', `${toolPath('ping')}/invoke`, { args: {} });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(upstream.requests.at(-1)!.headers['x-api-version']).toBe('v1');
    expect(await readFile(path, 'utf8')).toBe(text);
  });

  it('switching it off keeps modifiedAt and writes no defaults into the file', async () => {
    const { path } = await writeSpecTool({ slug: 'toggle', version: 'v1', type: 'go', impl: { goFunc: 'core.calc' } });
    expect((await waitForTool('toggle')).status).toBe(200);
    const off = await h.api('PATCH', toolPath('toggle'), { isEnabled: false });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.modifiedAt).toBe(AT);
    const onDisk = JSON.parse(await readFile(path, 'utf8'));
    expect(onDisk).toMatchObject({ isEnabled: false, modifiedAt: AT, type: 'go', impl: { goFunc: 'core.calc' } });
    for (const key of ['tags', 'safety', 'card', 'limits']) expect(onDisk).not.toHaveProperty(key);
  });

  it('is accepted by REST PUT: type go with goFunc, a ${version} header, no tags, safety, card or limits', async () => {
    const fn = await h.api('PUT', toolPath('put-calc'), {
      displayName: 'Echo',
      description: '',
      type: 'go',
      impl: { goFunc: 'core.calc' },
      argSchema: { type: 'object', properties: { expression: { type: 'string' } } },
      outputSchema: {},
    });
    expect(fn.status, JSON.stringify(fn.body)).toBe(201);
    expect(fn.body).toMatchObject({ type: 'function', impl: { function: 'core.calc' } });
    const web = await h.api('PUT', toolPath('put-ping', 'v7'), {
      displayName: 'Ping',
      description: '',
      type: 'http',
      impl: { method: 'GET', urlTemplate: upstream.url('/ping'), headers: { 'X-Api-Version': '${version}' } },
      argSchema: { type: 'object', properties: {} },
      outputSchema: {},
    });
    expect(web.status, JSON.stringify(web.body)).toBe(201);
    const run = await h.api('POST', `${toolPath('put-ping', 'v7')}/invoke`, { args: {} });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(upstream.requests.at(-1)!.headers['x-api-version']).toBe('v7');
  });

  it('accepts a goFunc written as a Go import path, unavailable (not a 400) until a function of that name is registered', async () => {
    const put = await h.api('PUT', toolPath('weather'), {
      displayName: 'Weather',
      description: '',
      type: 'go',
      impl: { goFunc: 'github.com/acme/agent/tools.Weather' },
      argSchema: { type: 'object', properties: {} },
      outputSchema: {},
    });
    expect(put.status, JSON.stringify(put.body)).toBe(201);
    expect(put.body).toMatchObject({ type: 'function', impl: { function: 'github.com/acme/agent/tools.Weather' } });
    const got = await h.api('GET', toolPath('weather'));
    expect(got.body.availability).toEqual({ ok: false, reason: 'function github.com/acme/agent/tools.Weather is not registered' });
    const run = await h.api('POST', `${toolPath('weather')}/invoke`, { args: {} });
    expect(run.body.error?.code ?? run.body.code, JSON.stringify(run.body)).toBe('TOOL_UNAVAILABLE');
    // Still a name, never a path or code: anything else is a 400 naming impl.function.
    for (const bad of ['github.com/acme/agent/tools', 'a b.c', 'x.y; rm -rf /', '/abs/path.Fn']) {
      const refused = await h.api('PUT', toolPath('bad-go'), {
        displayName: 'Bad',
        description: '',
        type: 'go',
        impl: { goFunc: bad },
        argSchema: { type: 'object' },
        outputSchema: {},
      });
      expect(refused.status, bad).toBe(400);
    }
  });
});

describe('switching a bundle on or off', () => {
  it('is not a structural change: modifiedAt stays', async () => {
    const before = await h.api('GET', `/tools/bundles/${bundleID}`);
    await new Promise((r) => setTimeout(r, 5));
    const off = await h.api('PATCH', `/tools/bundles/${bundleID}`, { isEnabled: false });
    const on = await h.api('PATCH', `/tools/bundles/${bundleID}`, { isEnabled: true });
    expect([off.body.isEnabled, on.body.isEnabled]).toEqual([false, true]);
    expect(on.body.modifiedAt).toBe(before.body.modifiedAt);
  });
});
