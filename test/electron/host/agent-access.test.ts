/** Settings → Agent access: MCP over HTTP on a local port, following the setting live. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createCore, type Core } from '../../../electron/core/app-core.js';
import { AgentAccess, followAgentAccess } from '../../../electron/host/agent-access.js';
import { tempDir } from '../../helpers/store.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

async function until<T>(fn: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
}

let core: Core;
let access: AgentAccess;
let stop: () => Promise<void>;

beforeAll(async () => {
  const dataDir = await tempDir('tw-access-');
  access = new AgentAccess(dataDir);
  core = await createCore({ dataDir, docker: false, agentAccess: access });
  stop = followAgentAccess(core, access);
});
afterAll(async () => {
  await stop();
  await core.close();
});

describe('Agent access', () => {
  it('is off by default, starts on the chosen port with a persistent 0600 token, and serves MCP there', async () => {
    expect((await core.dispatch('system.info', {})).ok && access.current()).toEqual({ enabled: false });
    const port = await freePort();
    await core.config.patch({ agentAccess: { enabled: true, port } });
    const status = await until(() => (access.current().url ? access.current() : undefined));
    expect(status.url).toBe(`http://127.0.0.1:${port}/mcp`);
    const info = await core.dispatch('system.info', {});
    expect(info.ok && info.data.agentAccess?.url).toBe(status.url);
    expect((await stat(join(core.dataDir, 'agent-access.token'))).mode & 0o777).toBe(0o600);

    const client = new Client({ name: 'access-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(status.url!), { requestInit: { headers: { authorization: `Bearer ${status.token}` } } }));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('calc');
    await client.close();
    const refused = await fetch(status.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(401);
    const other = await fetch(`http://127.0.0.1:${port}/tools/bundles`, { headers: { authorization: `Bearer ${status.token}` } });
    expect(other.status).toBe(404);

    await core.config.patch({ agentAccess: { enabled: false, port } });
    await until(() => (access.current().enabled ? undefined : true));
    await expect(fetch(status.url!, { method: 'POST' })).rejects.toThrow();

    // The same token after a restart of the listener.
    await core.config.patch({ agentAccess: { enabled: true, port } });
    const again = await until(() => (access.current().url ? access.current() : undefined));
    expect(again.token).toBe(status.token);
    await core.config.patch({ agentAccess: { enabled: false, port } });
    await until(() => (access.current().enabled ? undefined : true));
  });

  it('says so when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      await core.config.patch({ agentAccess: { enabled: true, port } });
      const status = await until(() => (access.current().error ? access.current() : undefined));
      expect(status.error).toMatch(/in use/);
    } finally {
      await core.config.patch({ agentAccess: { enabled: false, port } });
      await new Promise((r) => blocker.close(r));
    }
  });
});
