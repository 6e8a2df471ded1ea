/**
 * The stored review state of upstream tools (tool.json `review`: new, changed, gone, accepted),
 * over the headless host's REST API, against a real MCP server started as a child process: the
 * test's own server whose tools come from a file, so a definition can change, a tool can go and
 * come back between two syncs. The state survives a restart, and switching a tool never moves it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../../helpers/host.js';
import { TOOL_KEY_ORDER } from '../../../../../shared/schemas.js';

const FIXTURE = join(import.meta.dirname, '../../../../fixtures/mcp/file-tools-server.mjs');

interface ToolDef {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

const echo: ToolDef = {
  name: 'echo',
  description: 'Repeats what it is given',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  annotations: { readOnlyHint: true },
};
const text: ToolDef = { name: 'text', description: 'Plain text', inputSchema: { type: 'object', properties: { word: { type: 'string' } } } };
const fail: ToolDef = { name: 'fail', description: 'Always refuses', inputSchema: { type: 'object', properties: {} } };

let h: TestHost;
let dir: string;
let dataDir: string;
let toolsFile: string;
const bundleID = uuidv7();

const writeTools = (tools: ToolDef[]) => writeFile(toolsFile, JSON.stringify({ tools }));
const base = () => `/tools/bundles/${bundleID}`;
const toolPath = (slug: string) => `${base()}/tools/${slug}/version/v1`;
const sync = async () => {
  const r = await h.api('POST', `${base()}/sync`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};
const reviewOf = async (slug: string) => {
  const r = await h.api('GET', toolPath(slug));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.review as { state: string; reviewedAt?: string };
};
const toolJson = async (slug: string) => {
  const r = await h.api('GET', toolPath(slug));
  return { text: await readFile(join(dataDir, 'bundles', bundleID, 'tools', r.body.toolID, 'tool.json'), 'utf8'), toolID: r.body.toolID as string };
};
const counts = async () => (await h.api('GET', `${base()}/server`)).body.review;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tw-review-'));
  dataDir = join(dir, 'data');
  toolsFile = join(dir, 'tools.json');
  await writeTools([echo, text, fail]);
  h = await startHost({ dataDir });
  const put = await h.api('PUT', base(), {
    slug: 'files',
    displayName: 'File tools',
    source: { kind: 'mcp', transport: 'stdio', command: process.execPath, args: [FIXTURE, toolsFile] },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(201);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the review state of upstream tools', () => {
  it('a sync adds tools as new: in tool.json (in the store’s key order), the tool view and the server view’s counts', async () => {
    const report = await sync(); // the creation's sync
    expect(report.added.map((a: { name: string }) => a.name).sort()).toEqual(['echo', 'fail', 'text']);
    for (const slug of ['echo', 'text', 'fail']) expect(await reviewOf(slug)).toEqual({ state: 'new' });
    const { text: file } = await toolJson('echo');
    const parsed = JSON.parse(file);
    expect(parsed.review).toEqual({ state: 'new' });
    const order = TOOL_KEY_ORDER.filter((k) => k in parsed);
    expect(Object.keys(parsed)).toEqual(order);
    expect(order.indexOf('review')).toBe(order.indexOf('impl') + 1);
    expect(await counts()).toEqual({ new: 3, changed: 0, gone: 0, accepted: 0 });
    // A tool of another type has no review key at all.
    const other = uuidv7();
    await h.api('PUT', `/tools/bundles/${other}`, { slug: 'plain', displayName: 'Plain' });
    const fn = await h.api('PUT', `/tools/bundles/${other}/tools/calc/version/v1`, { type: 'function', impl: { function: 'core.calc' } });
    expect(fn.status, JSON.stringify(fn.body)).toBe(201);
    expect(fn.body).not.toHaveProperty('review');
    expect(JSON.parse(await readFile(join(dataDir, 'bundles', other, 'tools', fn.body.toolID, 'tool.json'), 'utf8'))).not.toHaveProperty('review');
  });

  it('switching a tool on and off never changes its state, new or accepted', async () => {
    for (const on of [true, false, true]) {
      expect((await h.api('PATCH', toolPath('text'), { isEnabled: on })).body.review).toEqual({ state: 'new' });
    }
    const accepted = await h.api('POST', `${toolPath('echo')}/definition/accept`, {});
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.review).toMatchObject({ state: 'accepted', reviewedAt: expect.any(String) });
    const at = accepted.body.review.reviewedAt;
    for (const on of [true, false, true]) {
      const r = await h.api('PATCH', toolPath('echo'), { isEnabled: on });
      expect(r.body.review).toEqual({ state: 'accepted', reviewedAt: at });
    }
    // A save of what a GET gave (the app's editor) keeps it too, whatever `review` it sends.
    const got = (await h.api('GET', toolPath('echo'))).body;
    const saved = await h.api('PUT', toolPath('echo'), { ...got, displayName: 'Echo!', review: { state: 'new' } }, { 'if-match': got.etag });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.review).toEqual({ state: 'accepted', reviewedAt: at });
    expect(await counts()).toEqual({ new: 2, changed: 0, gone: 0, accepted: 1 });
  });

  it('a definition the server changed is changed and withheld; accepting re-pins it and makes it accepted', async () => {
    await writeTools([{ ...echo, description: 'Repeats what it is given, louder' }, text, fail]);
    const report = await sync();
    expect(report.changed.map((c: { name: string }) => c.name)).toEqual(['echo']);
    const view = (await h.api('GET', toolPath('echo'))).body;
    expect(view.review.state).toBe('changed');
    expect(view.availability).toMatchObject({ ok: false, reason: expect.stringMatching(/changed the definition of 'echo'/) });
    expect(JSON.parse((await toolJson('echo')).text).review.state).toBe('changed');
    // Switched off and on while changed: still changed, still withheld.
    await h.api('PATCH', toolPath('echo'), { isEnabled: false });
    expect((await h.api('PATCH', toolPath('echo'), { isEnabled: true })).body).toMatchObject({ review: { state: 'changed' }, availability: { ok: false } });
    expect(await counts()).toEqual({ new: 2, changed: 1, gone: 0, accepted: 0 });
    const accepted = await h.api('POST', `${toolPath('echo')}/definition/accept`, {});
    expect(accepted.body).toMatchObject({ description: 'Repeats what it is given, louder', review: { state: 'accepted' }, availability: { ok: true } });
  });

  it('a tool the server drops is gone; back with its pinned definition it is new, back changed it is changed', async () => {
    await writeTools([{ ...echo, description: 'Repeats what it is given, louder' }]);
    const report = await sync();
    expect(report.gone.map((g: { name: string }) => g.name).sort()).toEqual(['fail', 'text']);
    expect(await reviewOf('text')).toEqual({ state: 'gone' });
    expect(await reviewOf('fail')).toEqual({ state: 'gone' });
    expect(await counts()).toEqual({ new: 0, changed: 0, gone: 2, accepted: 1 });
    // text comes back as it was pinned; fail comes back with another definition.
    await writeTools([{ ...echo, description: 'Repeats what it is given, louder' }, text, { ...fail, description: 'Refuses, now with a reason' }]);
    await sync();
    expect(await reviewOf('text')).toEqual({ state: 'new' });
    const failView = (await h.api('GET', toolPath('fail'))).body;
    expect(failView.review).toEqual({ state: 'changed' });
    expect(failView.availability.ok).toBe(false);
    expect(await counts()).toEqual({ new: 1, changed: 1, gone: 0, accepted: 1 });
  });

  it('a server that goes back to the accepted definition makes a changed tool accepted again', async () => {
    await writeTools([echo, text, { ...fail, description: 'Refuses, now with a reason' }]);
    await sync();
    expect((await reviewOf('echo')).state).toBe('changed');
    await writeTools([{ ...echo, description: 'Repeats what it is given, louder' }, text, { ...fail, description: 'Refuses, now with a reason' }]);
    await sync();
    expect((await reviewOf('echo')).state).toBe('accepted');
  });

  it('keeps every state across a restart', async () => {
    const before = { echo: await reviewOf('echo'), text: await reviewOf('text'), fail: await reviewOf('fail') };
    await h.close();
    h = await startHost({ dataDir });
    expect({ echo: await reviewOf('echo'), text: await reviewOf('text'), fail: await reviewOf('fail') }).toEqual(before);
    expect(await counts()).toEqual({ new: 1, changed: 1, gone: 0, accepted: 1 });
  });

  it('a tool stored before review states shows what the app showed, and a switch writes that state instead of changing it', async () => {
    await sync();
    const { toolID } = await toolJson('text');
    const path = join(dataDir, 'bundles', bundleID, 'tools', toolID, 'tool.json');
    /** The tool as an older Toolwright left it (no review key), read by a fresh start. */
    const storeAsBefore = async (isEnabled: boolean) => {
      await h.close();
      const legacy = JSON.parse(await readFile(path, 'utf8'));
      delete legacy.review;
      await writeFile(path, JSON.stringify({ ...legacy, isEnabled }, null, 2) + '\n');
      h = await startHost({ dataDir });
    };
    // Switched off, untouched since the sync made it: new, and switching it on keeps it new (written down).
    await storeAsBefore(false);
    expect(await reviewOf('text')).toEqual({ state: 'new' });
    expect((await h.api('PATCH', toolPath('text'), { isEnabled: true })).body.review).toEqual({ state: 'new' });
    expect(JSON.parse(await readFile(path, 'utf8')).review).toEqual({ state: 'new' });
    expect((await h.api('PATCH', toolPath('text'), { isEnabled: false })).body.review).toEqual({ state: 'new' });
    // Switched on before review states existed: accepted, and switching it off keeps it accepted.
    await storeAsBefore(true);
    expect(await reviewOf('text')).toEqual({ state: 'accepted' });
    expect((await h.api('PATCH', toolPath('text'), { isEnabled: false })).body.review).toEqual({ state: 'accepted' });
    expect(JSON.parse(await readFile(path, 'utf8')).review).toEqual({ state: 'accepted' });
  });
});
