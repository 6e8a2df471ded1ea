/**
 * Profiles (issue 21): a profile is an address of its own (`/mcp/p/<slug>`, `toolwright mcp
 * --profile`) with its own tools (bundles + include − exclude, names and descriptions overridden),
 * instructions and tokens. Against a real host over loopback with the SDK's 2.x client in both
 * eras, and the stdio server as a real process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { stat } from 'node:fs/promises';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';

const BIN = join(import.meta.dirname, '../../../../bin/toolwright.js');
const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };

let h: TestHost;
const bundle = { alpha: uuidv7(), beta: uuidv7(), gamma: uuidv7() };
const toolIDs: Record<string, string> = {};
const profileA = uuidv7();
const profileB = uuidv7();

const fnTool = (fn: string, description: string, argSchema: unknown = { type: 'object', properties: {} }) => ({
  type: 'function',
  description,
  impl: { function: fn },
  argSchema,
});

async function putTool(bundleID: string, slug: string, body: unknown): Promise<void> {
  const r = await h.api('PUT', `/tools/bundles/${bundleID}/tools/${slug}/version/v1`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  toolIDs[slug] = r.body.toolID;
}

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

function client(name: string, path: string, token = h.token, modern = true): { client: Client; connect: () => Promise<void> } {
  const c = new Client({ name, version: '1' }, modern ? MODERN : {});
  const transport = new StreamableHTTPClientTransport(new URL(`${h.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  return { client: c, connect: () => c.connect(transport) };
}

function heard(c: Client): { count: () => number; next: (ms: number) => Promise<void> } {
  let n = 0;
  let wake: (() => void) | undefined;
  c.setNotificationHandler('notifications/tools/list_changed', () => {
    n++;
    wake?.();
  });
  return {
    count: () => n,
    next: (ms) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no notifications/tools/list_changed')), ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
  };
}

const profileA_body = () => ({
  slug: 'writer',
  displayName: 'Writer',
  bundles: [bundle.alpha],
  include: [toolIDs['lonely']],
  exclude: [toolIDs['peek']],
  overrides: { [toolIDs['add']!]: { name: 'arith', description: 'Adds and multiplies numbers' } },
  instructions: 'Use arith for sums.',
  mode: 'all',
});

beforeAll(async () => {
  h = await startHost({ watch: true });
  await h.api('PUT', `/tools/bundles/${bundle.alpha}`, { slug: 'alpha' });
  await h.api('PUT', `/tools/bundles/${bundle.beta}`, { slug: 'beta' });
  await h.api('PUT', `/tools/bundles/${bundle.gamma}`, { slug: 'gamma' });
  await putTool(
    bundle.alpha,
    'add',
    fnTool('core.calc', 'arithmetic', { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] }),
  );
  await putTool(bundle.alpha, 'peek', fnTool('core.uuid', 'a fresh id'));
  await putTool(
    bundle.beta,
    'forecast',
    fnTool('core.uuid', 'weather forecast for a city', { type: 'object', properties: { city: { type: 'string', description: 'the city' } } }),
  );
  await putTool(bundle.beta, 'translate', fnTool('core.uuid', 'translate text between languages'));
  await putTool(bundle.gamma, 'lonely', fnTool('core.uuid', 'a tool from elsewhere'));
  await putTool(bundle.gamma, 'secret-tool', fnTool('core.uuid', 'outside every profile'));
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('profiles over REST', () => {
  it('creates a profile (201), lists and shows it with its tools as the agent sees them', async () => {
    const put = await h.api('PUT', `/tools/profiles/${profileA}`, profileA_body());
    expect(put.status, JSON.stringify(put.body)).toBe(201);
    expect(put.body).toMatchObject({ profileID: profileA, slug: 'writer', mode: 'all', toolCount: 2, missing: { bundles: [], tools: [] } });
    const list = await h.api('GET', '/tools/profiles');
    expect(list.body.items.map((p: { slug: string }) => p.slug)).toEqual(['writer']);
    const got = await h.api('GET', `/tools/profiles/${profileA}`);
    expect(got.status).toBe(200);
    const tools = got.body.tools as { name: string; description: string; overridden: boolean; toolID: string }[];
    expect(tools.map((t) => t.name).sort()).toEqual(['arith', 'lonely']);
    expect(tools.find((t) => t.name === 'arith')).toMatchObject({ toolID: toolIDs['add'], description: 'Adds and multiplies numbers', overridden: true });
    const file = await stat(join(h.dataDir, 'profiles', profileA, 'profile.json'));
    expect(file.isFile()).toBe(true);
  });

  it('keeps and shows references that no longer exist, without failing', async () => {
    const ghostBundle = uuidv7();
    const ghostTool = uuidv7();
    const put = await h.api('PUT', `/tools/profiles/${profileB}`, {
      slug: 'finder',
      bundles: [bundle.beta, ghostBundle],
      include: [ghostTool],
      mode: 'search',
    });
    expect(put.status, JSON.stringify(put.body)).toBe(201);
    expect(put.body.missing).toEqual({ bundles: [ghostBundle], tools: [ghostTool] });
    expect(put.body.toolCount).toBe(2);
  });

  it('answers 409 for a slug another profile has, and changes nothing', async () => {
    const r = await h.api('PUT', `/tools/profiles/${uuidv7()}`, { slug: 'writer', bundles: [], mode: 'all' });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('CONFLICT');
    expect(r.body.error.message).toMatch(/writer/);
    expect((await h.api('GET', '/tools/profiles')).body.items).toHaveLength(2);
  });

  it('answers 400 naming every override name that is illegal or collides', async () => {
    const r = await h.api('PUT', `/tools/profiles/${profileA}`, {
      ...profileA_body(),
      overrides: { [toolIDs['add']!]: { name: 'bad name!' }, [toolIDs['lonely']!]: { name: 'x'.repeat(65) }, [toolIDs['peek']!]: { name: 'ok' } },
      exclude: [],
      include: [toolIDs['lonely'], toolIDs['forecast']],
    });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('INVALID_INPUT');
    const issues = JSON.stringify(r.body.details?.issues ?? r.body.error.details?.issues);
    expect(issues).toContain('bad name!');
    expect(issues).toContain('x'.repeat(65));
    const clash = await h.api('PUT', `/tools/profiles/${profileA}`, { ...profileA_body(), overrides: { [toolIDs['add']!]: { name: 'lonely' } } });
    expect(clash.status).toBe(400);
    expect(JSON.stringify(clash.body)).toMatch(/lonely/);
    // The stored profile is untouched.
    expect((await h.api('GET', `/tools/profiles/${profileA}`)).body.tools.map((t: { name: string }) => t.name).sort()).toEqual(['arith', 'lonely']);
  });

  it('accepts 10,000 overrides quickly', async () => {
    const overrides: Record<string, { description: string }> = {};
    for (let i = 0; i < 10_000; i++) overrides[uuidv7()] = { description: `d${i}` };
    const id = uuidv7();
    const started = performance.now();
    const r = await h.api('PUT', `/tools/profiles/${id}`, { slug: 'big', bundles: [bundle.alpha], overrides, mode: 'all' });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(201);
    expect(performance.now() - started).toBeLessThan(5000);
    expect((await h.api('DELETE', `/tools/profiles/${id}`)).status).toBe(204);
    expect((await h.api('GET', `/tools/profiles/${id}`)).status).toBe(404);
  });
});

describe('the address /mcp/p/<slug>', () => {
  it('lists exactly the profile tools with overrides, sends its instructions, and a call by the override name runs the real tool', async () => {
    const c = client('profile-agent', '/mcp/p/writer');
    await c.connect();
    try {
      const tools = (await c.client.listTools()).tools;
      expect(tools.map((t) => t.name).sort()).toEqual(['arith', 'lonely']);
      expect(tools.find((t) => t.name === 'arith')!.description).toBe('Adds and multiplies numbers');
      expect(c.client.getInstructions()).toContain('Use arith for sums.');
      const r = (await c.client.callTool({ name: 'arith', arguments: { expression: '6*7' } })) as CallToolResult;
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(textOf(r)).toContain('42');
      const history = (await h.api('GET', `/tools/bundles/${bundle.alpha}/tools/add/version/v1/history`)).body.items;
      expect(history[0]).toMatchObject({ status: 'ok', caller: 'mcp:profile-agent' });
      await expect(c.client.callTool({ name: 'peek', arguments: {} })).rejects.toThrow(/Unknown tool/);
    } finally {
      await c.client.close();
    }
  });

  it('answers 404 for a profile that does not exist', async () => {
    const r = await h.api('POST', '/mcp/p/nobody', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect(r.status).toBe(404);
  });
});

describe('profile tokens', () => {
  let token: string;
  let tokenID: string;
  it('creates a token shown once; it opens only its own address', async () => {
    const created = await h.api('POST', `/tools/profiles/${profileA}/tokens`, { label: 'laptop' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ({ token, tokenID } = created.body);
    expect(token.length).toBeGreaterThanOrEqual(32);
    const c = client('token-agent', '/mcp/p/writer', token);
    await c.connect();
    expect((await c.client.listTools()).tools.map((t) => t.name).sort()).toEqual(['arith', 'lonely']);
    await c.client.close();
    const bearer = { authorization: `Bearer ${token}` };
    for (const [method, path] of [
      ['POST', '/mcp'],
      ['POST', '/mcp/p/finder'],
      ['GET', '/tools/bundles'],
      ['GET', `/tools/profiles/${profileA}/tokens`],
    ] as const) {
      const r = await fetch(h.url + path, {
        method,
        headers: { ...bearer, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) } : {}),
      });
      expect(r.status, `${method} ${path}`).toBe(401);
    }
    // The host's own token opens every profile.
    const host = client('host-agent', '/mcp/p/finder');
    await host.connect();
    expect((await host.client.listTools()).tools.length).toBe(3);
    await host.client.close();
  });

  it('lists tokens with label, last use and calls, never the token; revoked is 401 at once', async () => {
    await expect.poll(async () => (await h.api('GET', `/tools/profiles/${profileA}/tokens`)).body.items[0]?.calls ?? 0, { timeout: 5000 }).toBeGreaterThan(0);
    const list = await h.api('GET', `/tools/profiles/${profileA}/tokens`);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ tokenID, label: 'laptop' });
    expect(list.body.items[0].lastUsedAt).toEqual(expect.any(String));
    expect(JSON.stringify(list.body)).not.toContain(token);
    expect((await h.api('DELETE', `/tools/profiles/${profileA}/tokens/${tokenID}`)).status).toBe(204);
    const r = await fetch(`${h.url}/mcp/p/writer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(r.status).toBe(401);
  });
});

describe('list_changed per profile', () => {
  it('a change to profile A reaches A and neither B nor /mcp', async () => {
    const a = client('a-agent', '/mcp/p/writer', h.token, false);
    const b = client('b-agent', '/mcp/p/finder', h.token, false);
    const all = client('all-agent', '/mcp', h.token, false);
    await Promise.all([a.connect(), b.connect(), all.connect()]);
    try {
      // Listed once each, so the sessions' GET streams are open and the scopes built.
      await Promise.all([a.client.listTools(), b.client.listTools(), all.client.listTools()]);
      const [ha, hb, hall] = [heard(a.client), heard(b.client), heard(all.client)];
      await new Promise((r) => setTimeout(r, 300));
      const changed = ha.next(5000);
      const put = await h.api('PUT', `/tools/profiles/${profileA}`, { ...profileA_body(), exclude: [] });
      expect(put.status).toBe(200);
      await changed;
      expect((await a.client.listTools()).tools.map((t) => t.name).sort()).toEqual(['arith', 'lonely', 'peek']);
      await new Promise((r) => setTimeout(r, 1000));
      expect(hb.count()).toBe(0);
      expect(hall.count()).toBe(0);
    } finally {
      await Promise.all([a.client.close(), b.client.close(), all.client.close()]);
    }
  }, 30_000);
});

describe('search mode', () => {
  it('lists three tools; search finds, describe gives schemas, call_tool runs the real tool, an outside name answers like a missing one', async () => {
    const c = client('search-agent', '/mcp/p/finder');
    await c.connect();
    try {
      expect((await c.client.listTools()).tools.map((t) => t.name).sort()).toEqual(['call_tool', 'describe_tools', 'search_tools']);
      const found = (await c.client.callTool({ name: 'search_tools', arguments: { query: 'weather' } })) as CallToolResult;
      expect(found.isError, textOf(found)).toBeFalsy();
      const matches = (found.structuredContent as { matches: { name: string; why: string; safety: string }[] }).matches;
      expect(matches[0]).toMatchObject({ name: 'forecast', safety: 'readOnly' });
      expect(matches[0]!.why).toBeTruthy();
      const described = (await c.client.callTool({ name: 'describe_tools', arguments: { names: ['forecast'] } })) as CallToolResult;
      expect(JSON.stringify(described.structuredContent)).toContain('the city');
      const before = (await h.api('GET', `/tools/bundles/${bundle.beta}/tools/forecast/version/v1/history`)).body.items.length;
      const ran = (await c.client.callTool({ name: 'call_tool', arguments: { name: 'forecast', arguments: {} } })) as CallToolResult;
      expect(ran.isError, textOf(ran)).toBeFalsy();
      const after = (await h.api('GET', `/tools/bundles/${bundle.beta}/tools/forecast/version/v1/history`)).body.items;
      expect(after.length - before).toBe(1);
      expect(after[0]).toMatchObject({ status: 'ok', caller: 'mcp:search-agent' });
      const outside = (await c.client.callTool({ name: 'call_tool', arguments: { name: 'secret-tool', arguments: {} } })) as CallToolResult;
      const missing = (await c.client.callTool({ name: 'call_tool', arguments: { name: 'no-such-tool', arguments: {} } })) as CallToolResult;
      expect(outside.isError).toBe(true);
      expect(textOf(outside).replace('secret-tool', 'X')).toBe(textOf(missing).replace('no-such-tool', 'X'));
      const outsideDescribed = (await c.client.callTool({ name: 'describe_tools', arguments: { names: ['secret-tool'] } })) as CallToolResult;
      expect(JSON.stringify(outsideDescribed)).not.toContain('outside every profile');
    } finally {
      await c.client.close();
    }
  });

  it('refuses a 1 MB query as INVALID_INPUT at once', async () => {
    const c = client('search-agent-2', '/mcp/p/finder');
    await c.connect();
    try {
      const started = performance.now();
      const r = (await c.client.callTool({ name: 'search_tools', arguments: { query: 'a '.repeat(512 * 1024) } })) as CallToolResult;
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/INVALID_INPUT/);
      expect(performance.now() - started).toBeLessThan(3000);
    } finally {
      await c.client.close();
    }
  });
});

describe('toolwright mcp --profile', () => {
  it('serves the profile over stdio', async () => {
    const c = new Client({ name: 'stdio-profile', version: '1' }, MODERN);
    await c.connect(
      new StdioClientTransport({ command: process.execPath, args: [BIN, '--data-dir', h.dataDir, 'mcp', '--profile', 'writer'], stderr: 'pipe' }),
    );
    try {
      expect((await c.listTools()).tools.map((t) => t.name).sort()).toEqual(['arith', 'lonely', 'peek']);
      expect(c.getInstructions()).toContain('Use arith for sums.');
    } finally {
      await c.close();
    }
  }, 60_000);
});

// Last: past the limit, this address is refused for a minute.
describe('guessing', () => {
  it('slows guessing: failed token attempts from one address get 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await fetch(`${h.url}/mcp/p/writer`, { method: 'POST', headers: { authorization: `Bearer guess-${i}` } });
      statuses.push(r.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses).toContain(429);
    // While locked out, a wrong token is refused at once, and the person's own (host) token still opens the app.
    expect((await fetch(`${h.url}/tools/bundles`, { headers: { authorization: 'Bearer guess-more' } })).status).toBe(429);
    expect((await fetch(`${h.url}/tools/bundles`, { headers: { authorization: `Bearer ${h.token}` } })).status).toBe(200);
  });
});
