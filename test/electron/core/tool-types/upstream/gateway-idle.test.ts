/**
 * An upstream bundle's housekeeping, through a real host and the file-tools fixture as a child
 * process: config.upstreamIdleMinutes (how long a server may sit unused before Toolwright stops
 * it; 0: never), applied to servers already running when it changes; and tools of other types are
 * refused in an upstream bundle, whose tools come from its server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../../helpers/host.js';

const FIXTURE = join(import.meta.dirname, '../../../../fixtures/mcp/file-tools-server.mjs');

let h: TestHost;
let bundleID: string;
const state = async () => (await h.api('GET', `/tools/bundles/${bundleID}/server`)).body.state as string;

beforeAll(async () => {
  h = await startHost();
  const dir = await mkdtemp(join(tmpdir(), 'tw-idle-'));
  const toolsFile = join(dir, 'tools.json');
  await writeFile(toolsFile, JSON.stringify({ tools: [{ name: 'echo', inputSchema: { type: 'object', properties: {} } }] }));
  bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, {
    slug: 'idle',
    source: { kind: 'mcp', transport: 'stdio', command: process.execPath, args: [FIXTURE, toolsFile] },
  });
  expect((await h.api('POST', `/tools/bundles/${bundleID}/sync`)).status).toBe(200);
  await h.api('PATCH', `/tools/bundles/${bundleID}/tools/echo/version/v1`, { isEnabled: true });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('stopping idle upstream servers', () => {
  it('defaults to 10 minutes, and a changed setting applies to a server already running', async () => {
    expect((await h.api('GET', '/tools/config')).body.upstreamIdleMinutes ?? 10).toBe(10);
    expect((await h.api('POST', `/tools/bundles/${bundleID}/tools/echo/version/v1/invoke`, { args: {} })).body.ok).toBe(true);
    expect(await state()).toBe('ready');
    const patched = await h.api('PATCH', '/tools/config', { upstreamIdleMinutes: 0.02 }); // 1.2 s
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    await expect.poll(state, { timeout: 10_000 }).toBe('stopped');
  }, 30_000);

  it('0 never stops a server', async () => {
    expect((await h.api('PATCH', '/tools/config', { upstreamIdleMinutes: 0 })).status).toBe(200);
    expect((await h.api('POST', `/tools/bundles/${bundleID}/tools/echo/version/v1/invoke`, { args: {} })).body.ok).toBe(true);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await state()).toBe('ready');
  }, 30_000);

  it('refuses a negative value with the field named', async () => {
    const bad = await h.api('PATCH', '/tools/config', { upstreamIdleMinutes: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/upstreamIdleMinutes/);
  });
});

describe('the tools of an upstream bundle come from its server', () => {
  it('refuses a tool of another type with a 400 that says why, and writes nothing', async () => {
    const put = await h.api('PUT', `/tools/bundles/${bundleID}/tools/by-hand/version/v1`, {
      type: 'function',
      impl: { function: 'core.uuid' },
      argSchema: { type: 'object', properties: {} },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(400);
    expect(put.body.error.message).toMatch(/tools come from its MCP server/);
    const list = (await h.api('GET', `/tools/tools?bundleIDs=${bundleID}&includeDisabled=true`)).body.items as { slug: string }[];
    expect(list.map((t) => t.slug)).toEqual(['echo']);
  });
});
