/**
 * config.upstreamIdleMinutes: how long an upstream server may sit unused before Toolwright stops it
 * (0: never), applied to servers already running when it changes — a real host and the file-tools
 * fixture as a child process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';

const FIXTURE = join(import.meta.dirname, '../../../fixtures/mcp/file-tools-server.mjs');

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
