/**
 * Upstream tools inside Toolwright's own flows, through a real host and the file-tools fixture as
 * a child process: a schedule on an mcp tool runs it (Run now, as the scheduler does), and a
 * pipeline step in another bundle calls one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../../helpers/host.js';

const FIXTURE = join(import.meta.dirname, '../../../../fixtures/mcp/file-tools-server.mjs');
const ECHO = {
  name: 'echo',
  description: 'Repeats what it is given',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  annotations: { readOnlyHint: true },
};

let h: TestHost;
let bundleID: string;
const echoPath = () => `/tools/bundles/${bundleID}/tools/echo/version/v1`;

beforeAll(async () => {
  h = await startHost();
  const dir = await mkdtemp(join(tmpdir(), 'tw-flows-'));
  const toolsFile = join(dir, 'tools.json');
  await writeFile(toolsFile, JSON.stringify({ tools: [ECHO] }));
  bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, {
    slug: 'files',
    source: { kind: 'mcp', transport: 'stdio', command: process.execPath, args: [FIXTURE, toolsFile] },
  });
  expect((await h.api('POST', `/tools/bundles/${bundleID}/sync`)).status).toBe(200);
  await h.api('PATCH', echoPath(), { isEnabled: true });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('upstream tools in schedules and pipelines', () => {
  it('a schedule on an mcp tool runs it, and its output is the schedule’s latest', async () => {
    const tool = (await h.api('GET', echoPath())).body;
    const {
      etag: _etag,
      availability: _a,
      metrics: _m,
      toolID: _t,
      bundleID: _b,
      createdAt: _c,
      modifiedAt: _mo,
      schemaVersion: _s,
      isBuiltIn: _i,
      ...body
    } = tool;
    const put = await h.api('PUT', echoPath(), { ...body, schedules: [{ cron: '0 9 * * *', args: { message: 'every morning' } }] }, { 'if-match': '*' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const scheduleID = put.body.schedules[0].scheduleID as string;
    const run = await h.api('POST', `/tools/schedules/${scheduleID}/run`, {});
    expect(run.body, JSON.stringify(run.body)).toMatchObject({ ok: true, value: { echo: { message: 'every morning' } } });
    const latest = await h.api('GET', `/tools/schedules/${scheduleID}/latest`);
    expect(JSON.stringify(latest.body)).toContain('every morning');
  }, 30_000);

  it('a pipeline step in another bundle calls an mcp tool', async () => {
    const own = uuidv7();
    await h.api('PUT', `/tools/bundles/${own}`, { slug: 'flows' });
    const put = await h.api('PUT', `/tools/bundles/${own}/tools/relay/version/v1`, {
      type: 'pipeline',
      argSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
      impl: { steps: [{ id: 'up', tool: { bundleID, slug: 'echo', version: 'v1' }, args: { message: 'relayed ${input.word}' } }] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(201);
    const r = await h.api('POST', `/tools/bundles/${own}/tools/relay/version/v1/invoke`, { args: { word: 'hello' } });
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ ok: true, value: { echo: { message: 'relayed hello' } } });
    expect(r.body.steps).toMatchObject([{ id: 'up', status: 'ok' }]);
  }, 30_000);
});
