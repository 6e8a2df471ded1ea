/**
 * The MCP server with the official SDK's client: over stdio as a separate process (`toolwright
 * mcp`, what agents start) and over Streamable HTTP on the headless host. Changes are made by
 * another process (this one, through REST, on the same data folder), so list_changed has to
 * travel through the watcher, not through memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-http.js';

const ROOT = join(import.meta.dirname, '../../../..');
const BIN = join(ROOT, 'bin/toolwright.js');

let h: TestHost;
let upstream: LoopbackServer;
let bundleID: string;
/** Requests the upstream's /slow route has received. */
let slowCalls = 0;
const CORE = '0190a000-0000-7000-8000-00000000c0e0';

beforeAll(async () => {
  h = await startHost();
  upstream = await startLoopbackServer();
  upstream.route('/slow', async (_req, res) => {
    slowCalls++;
    await new Promise((r) => setTimeout(r, 20_000));
    sendJson(res, 200, { late: true });
  });
  await h.api('PATCH', '/tools/config', { allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true, approvalTimeoutSeconds: 5 });
  bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'weather', displayName: 'Weather' });
  const put = await h.api('PUT', `/tools/bundles/${bundleID}/tools/forecast/version/v1`, {
    type: 'function',
    displayName: 'Forecast',
    description: 'A UUID pretending to be a forecast',
    impl: { function: 'core.uuid' },
    argSchema: { type: 'object', properties: {} },
  });
  expect(put.status).toBe(201);
  await h.api('PUT', `/tools/bundles/${bundleID}/tools/wipe/version/v1`, {
    type: 'function',
    displayName: 'Wipe',
    safety: 'privileged',
    impl: { function: 'core.uuid' },
    argSchema: { type: 'object', properties: {} },
  });
  await h.api('PUT', `/tools/bundles/${bundleID}/tools/slow/version/v1`, {
    type: 'http',
    displayName: 'Slow',
    impl: { method: 'GET', urlTemplate: upstream.url('/slow') },
    argSchema: { type: 'object', properties: {} },
  });
}, 60_000);

afterAll(async () => {
  await upstream.close();
  await h.close();
});

async function stdioClient(extraArgs: string[] = [], capabilities: Record<string, unknown> = {}): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--data-dir', h.dataDir, 'mcp', ...extraArgs], stderr: 'pipe' });
  const client = new Client({ name: 'test-agent', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  return client;
}

function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

function nextListChanged(client: Client, timeoutMs = 8000): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no notifications/tools/list_changed')), timeoutMs);
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      clearTimeout(timer);
      resolve(performance.now() - started);
    });
  });
}

describe('MCP over stdio (a separate process, as agents start it)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await stdioClient();
  }, 60_000);
  afterAll(async () => {
    await client.close();
  });

  it('initialises with the tools capability and lists the visible tools with titles, schemas, annotations and _meta', async () => {
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const { tools } = await client.listTools();
    const forecast = tools.find((t) => t.name === 'forecast')!;
    expect(forecast).toMatchObject({
      title: 'Forecast',
      description: 'A UUID pretending to be a forecast',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
      _meta: { 'dev.toolwright/bundleID': bundleID, 'dev.toolwright/slug': 'forecast', 'dev.toolwright/version': 'v1' },
    });
    expect(tools.find((t) => t.name === 'wipe')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    for (const t of tools) expect(t.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    // The same names as the OpenAI export. Availability is each process's own: this host does not
    // probe Docker (docker: false), the stdio process does, so a tool that needs Docker may be
    // offered by it alone; every other name is the same.
    const openai = await h.api('GET', '/tools/tools/openai-functions');
    const exported = (openai.body.items as { function: { name: string } }[]).map((f) => f.function.name);
    const listed = tools.map((t) => t.name);
    expect(exported.filter((n) => !listed.includes(n))).toEqual([]);
    const views = (await h.api('GET', '/tools/tools?recommendedPageSize=500')).body.items as { slug: string; availability: { ok: boolean; reason?: string } }[];
    for (const extra of listed.filter((n) => !exported.includes(n))) {
      expect(views.find((v) => v.slug === extra)?.availability).toMatchObject({ ok: false, reason: expect.stringMatching(/Docker/) });
    }
  });

  it('calls a tool: JSON as pretty text, structuredContent with an outputSchema, the card as an embedded text/html resource, history with the caller', async () => {
    const r = (await client.callTool({ name: 'calc', arguments: { expression: '6*7' } })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ value: 42 });
    expect(textOf(r)).toContain('"value": 42');
    const card = r.content.find((c) => c.type === 'resource');
    expect(card).toMatchObject({ resource: { mimeType: 'text/html' } });
    // The stdio server is another process: its history entry reaches the host when that process has written it.
    await expect
      .poll(
        async () => {
          const hist = await h.api('GET', `/tools/bundles/${CORE}/tools/calc/version/v1/history`);
          return hist.body.items.some((e: { caller?: string }) => e.caller === 'mcp:test-agent');
        },
        { timeout: 30_000 },
      )
      .toBe(true);
  });

  it('answers argument errors and unknown tools in a way a model can act on', async () => {
    const bad = (await client.callTool({ name: 'calc', arguments: {} })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain("missing required property 'expression'");
    await expect(client.callTool({ name: 'no-such-tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it('sends list_changed within a second when another process switches a tool off, and the list follows', async () => {
    const changed = nextListChanged(client);
    await h.api('PATCH', `/tools/bundles/${bundleID}/tools/forecast/version/v1`, { isEnabled: false });
    const ms = await changed;
    expect(ms).toBeLessThan(5000); // the goal (≤ 1 s) is measured in npm run bench
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('forecast');
    const back = nextListChanged(client);
    await h.api('PATCH', `/tools/bundles/${bundleID}/tools/forecast/version/v1`, { isEnabled: true });
    await back;
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('forecast');
  });

  it('shows nothing while the kill switch is off', async () => {
    const changed = nextListChanged(client);
    await h.api('PATCH', '/tools/config', { toolsEnabled: false });
    await changed;
    expect((await client.listTools()).tools).toEqual([]);
    const back = nextListChanged(client);
    await h.api('PATCH', '/tools/config', { toolsEnabled: true });
    await back;
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('runs a privileged tool only after a person approves it in the app, and not after a deny', async () => {
    const answer = async (decision: 'approve' | 'deny') => {
      for (let i = 0; i < 100; i++) {
        const pending = await h.api('GET', '/tools/approvals');
        const item = (pending.body.items as { approvalID: string; caller: string; tool: { slug: string } }[]).find((a) => a.tool.slug === 'wipe');
        if (item) {
          expect(item.caller).toBe('mcp:test-agent');
          const res = await h.api('POST', `/tools/approvals/${item.approvalID}`, { decision });
          expect(res.status).toBe(200);
          return;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('no approval request appeared');
    };
    const approved = client.callTool({ name: 'wipe', arguments: {} });
    await answer('approve');
    const ok = (await approved) as CallToolResult;
    expect(ok.isError).toBeFalsy();
    expect(textOf(ok)).toMatch(/[0-9a-f-]{36}/);

    const denied = client.callTool({ name: 'wipe', arguments: {} });
    await answer('deny');
    const no = (await denied) as CallToolResult;
    expect(no.isError).toBe(true);
    expect(textOf(no)).toMatch(/denied/);
  }, 30_000);

  it('counts an unanswered approval as deny after approvalTimeoutSeconds', async () => {
    const r = (await client.callTool({ name: 'wipe', arguments: {} }, { timeout: 20_000 })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/within 5 s/);
    expect((await h.api('GET', '/tools/approvals')).body.items).toEqual([]);
  }, 30_000);

  it('cancels a running call when the client sends notifications/cancelled', async () => {
    const controller = new AbortController();
    const before = slowCalls;
    const call = client.callTool({ name: 'slow', arguments: {} }, { signal: controller.signal });
    await expect.poll(() => slowCalls).toBe(before + 1); // running: its request reached the upstream
    controller.abort();
    await expect(call).rejects.toThrow();
    await expect
      .poll(async () => (await h.api('GET', `/tools/bundles/${bundleID}/tools/slow/version/v1/history`)).body.items[0])
      .toMatchObject({ status: 'cancelled', caller: 'mcp:test-agent' });
  }, 30_000);
});

describe('MCP and pipelines', () => {
  it('lists a pipeline like any tool, with the safety of its most dangerous step, and calls it through its steps', async () => {
    const put = await h.api('PUT', `/tools/bundles/${bundleID}/tools/sweep/version/v1`, {
      type: 'pipeline',
      displayName: 'Sweep',
      description: 'A forecast, then a wipe',
      argSchema: { type: 'object', properties: {} },
      impl: {
        steps: [
          { id: 'f', tool: { slug: 'forecast', version: 'v1' } },
          { id: 'w', tool: { slug: 'wipe', version: 'v1' } },
        ],
        output: { forecast: '${steps.f.value.uuids[0]}', wiped: '${steps.w.value.uuids[0]}' },
      },
    });
    expect(put.status).toBe(201);
    expect(put.body.safety).toBe('privileged');
    const client = await stdioClient([], { elicitation: {} });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
    try {
      const sweep = (await client.listTools()).tools.find((t) => t.name === 'sweep')!;
      expect(sweep).toMatchObject({ title: 'Sweep', annotations: { readOnlyHint: false, destructiveHint: true } });
      const r = (await client.callTool({ name: 'sweep', arguments: {} })) as CallToolResult;
      expect(r.isError).toBeFalsy();
      expect(JSON.parse(textOf(r))).toMatchObject({ forecast: expect.stringMatching(/^[0-9a-f-]{36}$/), wiped: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      await expect
        .poll(async () =>
          ((await h.api('GET', `/tools/bundles/${bundleID}/tools/sweep/version/v1/history`)).body.items[0]?.steps ?? []).map(
            (s: { id: string; status: string }) => `${s.id}:${s.status}`,
          ),
        )
        .toEqual(['f:ok', 'w:ok']);
      const wiped = await h.api('GET', `/tools/bundles/${bundleID}/tools/wipe/version/v1/history`);
      expect(wiped.body.items[0]).toMatchObject({ status: 'ok', caller: 'pipeline:sweep' });
    } finally {
      await client.close();
      await h.api('DELETE', `/tools/bundles/${bundleID}/tools/sweep/version/v1`);
    }
  }, 30_000);
});

describe('MCP elicitation and scope', () => {
  it('asks the client (elicitation) for a privileged tool when it can, and honours accept and decline', async () => {
    let answer: 'accept' | 'decline' = 'accept';
    const client = await stdioClient([], { elicitation: {} });
    client.setRequestHandler('elicitation/create', async (req) => {
      expect(req.params.message).toContain('Wipe');
      return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
    });
    try {
      const ok = (await client.callTool({ name: 'wipe', arguments: {} })) as CallToolResult;
      expect(ok.isError).toBeFalsy();
      answer = 'decline';
      const no = (await client.callTool({ name: 'wipe', arguments: {} })) as CallToolResult;
      expect(no.isError).toBe(true);
      expect(textOf(no)).toMatch(/declined/);
    } finally {
      await client.close();
    }
  }, 30_000);

  it('--bundles limits a connection to some bundles', async () => {
    const client = await stdioClient(['--bundles', 'weather']);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('forecast');
      expect(names).not.toContain('calc');
      await expect(client.callTool({ name: 'calc', arguments: { expression: '1' } })).rejects.toThrow(/Unknown tool/);
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe('MCP over Streamable HTTP on the headless host', () => {
  const transportFor = (headers: Record<string, string>, query = '') =>
    new StreamableHTTPClientTransport(new URL(`${h.url}/mcp${query}`), { requestInit: { headers } });

  it('lists and calls with the bearer token, and gets list_changed on its GET stream', async () => {
    const client = new Client({ name: 'http-agent', version: '1' });
    await client.connect(transportFor({ authorization: `Bearer ${h.token}` }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('calc');
      const r = (await client.callTool({ name: 'calc', arguments: { expression: '2^10' } })) as CallToolResult;
      expect(r.structuredContent).toMatchObject({ value: 1024 });
      await new Promise((res) => setTimeout(res, 300)); // the GET stream opens after initialisation
      const changed = nextListChanged(client);
      await h.api('PATCH', `/tools/bundles/${bundleID}`, { isEnabled: false });
      await changed;
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('forecast');
      await h.api('PATCH', `/tools/bundles/${bundleID}`, { isEnabled: true });
    } finally {
      await client.close();
    }
  }, 30_000);

  it('scopes a session with ?bundles=', async () => {
    const client = new Client({ name: 'scoped', version: '1' });
    await client.connect(transportFor({ authorization: `Bearer ${h.token}` }, '?bundles=core'));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('calc');
      expect(names).not.toContain('forecast');
    } finally {
      await client.close();
    }
  });

  it('refuses a missing or wrong token and a foreign Origin', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${h.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(init),
      });
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post({ authorization: `Bearer ${h.token}`, origin: 'http://evil.example' })).status).toBe(403);
    const ok = await post({ authorization: `Bearer ${h.token}` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('mcp-session-id')).toBeTruthy();
  });
});
