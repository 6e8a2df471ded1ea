/**
 * Offered = runnable (issue 31, point 3): what agents are offered — MCP tools/list in both eras,
 * at /mcp and at a profile's address, search mode's search_tools, the OpenAI export — holds only
 * tools that can run now, by the availability the app shows; the others stay in REST with their
 * reason. A change of availability (a secret set, a workspace set, Docker back, an upstream server
 * back) sends list_changed to the sessions whose list moved, and a name that was offered and can
 * no longer run answers why (an isError result), while a name never offered stays unknown.
 *
 * Against a real host on loopback with the SDK's client; the Docker engine is pointed at a socket
 * that does not exist, then at a proxy to the real engine there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, connect, type Server } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Dockerode from 'dockerode';
import { v7 as uuidv7 } from 'uuid';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { startHost, type TestHost } from '../../../helpers/host.js';

const FIXTURE = join(import.meta.dirname, '../../../fixtures/mcp/file-tools-server.mjs');
const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };
const DOCKER_SOCKET = '/var/run/docker.sock';

let h: TestHost;
let dir: string;
let socketPath: string;
let toolsFile: string;
let bundleID: string;
let upstreamID: string;
const toolPath = (b: string, slug: string) => `/tools/bundles/${b}/tools/${slug}/version/v1`;
const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
const ECHO = {
  name: 'echo',
  description: 'Repeats',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
  annotations: { readOnlyHint: true },
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tw-offered-'));
  socketPath = join(dir, 'no-docker.sock');
  toolsFile = join(dir, 'tools.json');
  await writeFile(toolsFile, JSON.stringify({ tools: [ECHO] }));
  h = await startHost({ docker: true, runners: { container: { docker: new Dockerode({ socketPath }), statusRefreshMs: 200 } } });
  await h.api('PATCH', '/tools/config', { allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true });
  bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'doors', displayName: 'Doors' });
  const puts = [
    ['fine', { type: 'function', impl: { function: 'core.uuid' } }],
    ['ghost', { type: 'function', impl: { function: 'nowhere.missing' } }],
    ['keyed', { type: 'http', safety: 'readOnly', impl: { method: 'GET', urlTemplate: 'http://127.0.0.1:9/?k=${OFFERED_TEST_KEY}' } }],
    ['boxed', { type: 'container', safety: 'readOnly', impl: { image: `tw-offered-${uuidv7()}:none` } }],
  ] as const;
  for (const [slug, body] of puts) {
    const put = await h.api('PUT', toolPath(bundleID, slug), { displayName: slug, argSchema: { type: 'object', properties: {} }, ...body });
    expect(put.status, JSON.stringify(put.body)).toBe(201);
  }
  // An upstream server whose tool is synced and switched on while the server starts.
  upstreamID = uuidv7();
  const up = await h.api('PUT', `/tools/bundles/${upstreamID}`, {
    slug: 'upstream',
    displayName: 'Upstream',
    source: { kind: 'mcp', transport: 'stdio', command: process.execPath, args: [FIXTURE, toolsFile] },
  });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  expect((await h.api('POST', `/tools/bundles/${upstreamID}/sync`)).status).toBe(200);
  expect((await h.api('PATCH', toolPath(upstreamID, 'echo'), { isEnabled: true })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});

function client(name: string, path: string, modern: boolean): { client: Client; connect: () => Promise<void> } {
  const c = new Client({ name, version: '1' }, modern ? MODERN : {});
  const transport = new StreamableHTTPClientTransport(new URL(`${h.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } });
  return { client: c, connect: () => c.connect(transport) };
}

/** Counts a session's list_changed notifications; `next` waits for one more. */
function heard(c: Client): { count: () => number; next: (ms?: number) => Promise<void> } {
  let n = 0;
  let wake: (() => void) | undefined;
  c.setNotificationHandler('notifications/tools/list_changed', () => {
    n++;
    wake?.();
  });
  return {
    count: () => n,
    next: (ms = 8000) => {
      const from = n;
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no list_changed within ${ms} ms`)), ms);
        wake = () => {
          if (n > from) {
            clearTimeout(timer);
            resolve();
          }
        };
      });
    },
  };
}

const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);
/** A 2026 client keeps a list for its ttlMs: what a new one is given now. */
async function modernNames(path: string): Promise<string[]> {
  const c = client('modern-agent', path, true);
  await c.connect();
  try {
    return await names(c.client);
  } finally {
    await c.client.close();
  }
}
const openaiNames = async (bundle?: string) =>
  ((await h.api('GET', `/tools/tools/openai-functions${bundle ? `?bundleIDs=${bundle}` : ''}`)).body.items as { function: { name: string } }[]).map(
    (f) => f.function.name,
  );
const availabilityOf = async (b: string, slug: string) => (await h.api('GET', toolPath(b, slug))).body.availability as { ok: boolean; reason?: string };

describe('agents are offered only the tools that can run now', () => {
  let legacy: Client;
  let modern: Client;
  let profiled: Client;
  let searching: Client;
  let legacyHeard: ReturnType<typeof heard>;

  beforeAll(async () => {
    for (const [slug, mode] of [
      ['doors-all', 'all'],
      ['doors-search', 'search'],
    ] as const) {
      const put = await h.api('PUT', `/tools/profiles/${uuidv7()}`, { slug, bundles: [bundleID], mode });
      expect(put.status, JSON.stringify(put.body)).toBe(201);
    }
    const l = client('legacy-agent', '/mcp', false);
    const m = client('modern-agent', '/mcp', true);
    const p = client('profile-agent', '/mcp/p/doors-all', true);
    const s = client('search-agent', '/mcp/p/doors-search', false);
    await Promise.all([l.connect(), m.connect(), p.connect(), s.connect()]);
    [legacy, modern, profiled, searching] = [l.client, m.client, p.client, s.client];
    legacyHeard = heard(legacy);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([legacy, modern, profiled, searching].map((c) => c?.close()));
  });

  it('lists neither an unregistered function, nor a tool whose secret is unset, nor a container tool without Docker, nor file tools without a workspace', async () => {
    for (const c of [legacy, modern]) {
      const listed = await names(c);
      expect(listed).toContain('fine');
      expect(listed).toContain('calc');
      expect(listed).toContain('echo');
      for (const gone of ['ghost', 'keyed', 'boxed', 'read-file', 'list-dir']) expect(listed).not.toContain(gone);
    }
    expect(await names(profiled)).toEqual(['fine']);
    const exported = await openaiNames();
    expect(exported).toContain('fine');
    for (const gone of ['ghost', 'keyed', 'boxed', 'read-file', 'list-dir']) expect(exported).not.toContain(gone);
    // search mode ranks only what can run.
    const found = (await searching.callTool({ name: 'search_tools', arguments: { query: 'ghost keyed boxed fine' } })) as CallToolResult;
    expect(textOf(found)).toContain('fine');
    for (const gone of ['ghost', 'keyed', 'boxed']) expect(textOf(found)).not.toMatch(new RegExp(`\\b${gone}\\b`));
  });

  it('keeps them in REST, each with the reason it cannot run', async () => {
    expect(await availabilityOf(bundleID, 'ghost')).toMatchObject({ ok: false, reason: expect.stringMatching(/nowhere\.missing/) });
    expect(await availabilityOf(bundleID, 'keyed')).toEqual({ ok: false, reason: 'secret OFFERED_TEST_KEY is not set' });
    expect(await availabilityOf(bundleID, 'boxed')).toMatchObject({ ok: false, reason: expect.stringContaining(socketPath) });
    const CORE = '0190a000-0000-7000-8000-00000000c0e0';
    expect(await availabilityOf(CORE, 'read-file')).toMatchObject({ ok: false });
    const listed = (await h.api('GET', `/tools/tools?bundleIDs=${bundleID}`)).body.items.map((t: { slug: string }) => t.slug).sort();
    expect(listed).toEqual(['boxed', 'fine', 'ghost', 'keyed']);
  });

  it('sends list_changed when a secret is set, and the tool is offered then; an unrelated secret sends nothing', async () => {
    const before = legacyHeard.count();
    expect((await h.api('PUT', '/tools/secrets/UNRELATED_OFFERED_SECRET', { value: 'x' })).status).toBeLessThan(300);
    await new Promise((r) => setTimeout(r, 1200));
    expect(legacyHeard.count()).toBe(before);
    const changed = legacyHeard.next();
    expect((await h.api('PUT', '/tools/secrets/OFFERED_TEST_KEY', { value: 'k' })).status).toBeLessThan(300);
    await changed;
    expect(await names(legacy)).toContain('keyed');
    expect(await modernNames('/mcp')).toContain('keyed');
    expect(await modernNames('/mcp/p/doors-all')).toEqual(['fine', 'keyed']);
  });

  it('answers a call of a name it offered that can no longer run with why, as a result; a name never offered stays unknown', async () => {
    expect(await names(legacy)).toContain('keyed');
    const changed = legacyHeard.next();
    expect((await h.api('DELETE', '/tools/secrets/OFFERED_TEST_KEY')).status).toBeLessThan(300);
    await changed;
    expect(await names(legacy)).not.toContain('keyed');
    for (const c of [legacy, modern]) {
      const r = (await c.callTool({ name: 'keyed', arguments: {} })) as CallToolResult;
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/cannot run now: secret OFFERED_TEST_KEY is not set\. A person must set that right in Toolwright/);
    }
    // ghost was never offered to anyone: unknown, as a tool that exists nowhere.
    await expect(legacy.callTool({ name: 'ghost', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it('sends list_changed when a workspace is set, and read-file and list-dir are offered then', async () => {
    const changed = legacyHeard.next();
    expect((await h.api('PATCH', '/tools/config', { workspaceRoot: dir })).status).toBe(200);
    await changed;
    const listed = await names(legacy);
    expect(listed).toContain('read-file');
    expect(listed).toContain('list-dir');
    expect(await openaiNames()).toContain('read-file');
  });

  it('hides an upstream tool whose server could not be started, and offers it again once the server is back', async () => {
    // The server's start fails (its tools file is no JSON): a run says so, and the tool is no longer offered.
    expect((await h.core.dispatch('servers.stop', { bundleID: upstreamID })).ok).toBe(true);
    await writeFile(toolsFile, '{ not json');
    const gone = legacyHeard.next(15_000);
    const run = await h.api('POST', `${toolPath(upstreamID, 'echo')}/invoke`, { args: { message: 'hi' } });
    expect(JSON.stringify(run.body)).toMatch(/could not be started/);
    await gone;
    expect(await names(legacy)).not.toContain('echo');
    expect(await availabilityOf(upstreamID, 'echo')).toMatchObject({ ok: false, reason: expect.stringMatching(/could not be started.*sync bundle upstream/s) });
    const refused = (await modern.callTool({ name: 'echo', arguments: { message: 'hi' } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/Tool echo cannot run now: .*could not be started/s);
    // Repaired and synced: back in the list.
    await writeFile(toolsFile, JSON.stringify({ tools: [ECHO] }));
    const back = legacyHeard.next(15_000);
    expect((await h.api('POST', `/tools/bundles/${upstreamID}/sync`)).status).toBe(200);
    await back;
    expect(await names(legacy)).toContain('echo');
  }, 40_000);

  it('sends list_changed when Docker comes back, and the container tool is offered then', async () => {
    expect(await names(legacy)).not.toContain('boxed');
    if (!existsSync(DOCKER_SOCKET)) throw new Error(`this test needs a Docker engine at ${DOCKER_SOCKET}`);
    // An engine appears where the host looks for one: a proxy to the real engine.
    const open = new Set<{ destroy(): void }>();
    const proxy: Server = createServer((socket) => {
      const upstream = connect(DOCKER_SOCKET);
      open.add(socket).add(upstream);
      socket.pipe(upstream).pipe(socket);
      const end = () => (socket.destroy(), upstream.destroy());
      socket.on('error', end);
      upstream.on('error', end);
    });
    await new Promise<void>((resolve) => proxy.listen(socketPath, resolve));
    try {
      const changed = legacyHeard.next(15_000);
      await changed;
      expect(await names(legacy)).toContain('boxed');
      expect(await availabilityOf(bundleID, 'boxed')).toEqual({ ok: true });
    } finally {
      for (const s of open) s.destroy();
      await new Promise((r) => proxy.close(r));
    }
  }, 30_000);
});
