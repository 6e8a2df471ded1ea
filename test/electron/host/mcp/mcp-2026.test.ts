/**
 * MCP 2026-07-28 beside 2025 on the same addresses: the SDK's 2.x client pinned to 2026 over
 * Streamable HTTP (the headless host's /mcp) and over stdio (`toolwright mcp`, a real process),
 * and the raw wire for what a client library would hide — the headers, the result fields, and an
 * approval's request state abused (forged, replayed, reused for other arguments).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readdir } from 'node:fs/promises';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';

const BIN = join(import.meta.dirname, '../../../../bin/toolwright.js');
const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };

let h: TestHost;
let bundleID: string;

beforeAll(async () => {
  h = await startHost();
  await h.api('PATCH', '/tools/config', { approvalTimeoutSeconds: 20 });
  bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'ops', displayName: 'Ops' });
  for (const slug of ['wipe', 'shred'])
    await h.api('PUT', `/tools/bundles/${bundleID}/tools/${slug}/version/v1`, {
      type: 'function',
      displayName: slug === 'wipe' ? 'Wipe' : 'Shred',
      safety: 'privileged',
      impl: { function: 'core.uuid' },
      argSchema: { type: 'object', properties: { count: { type: 'integer' } } },
    });
  await h.api('PUT', `/tools/bundles/${bundleID}/tools/peek/version/v1`, {
    type: 'function',
    displayName: 'Peek',
    impl: { function: 'core.uuid' },
    argSchema: { type: 'object', properties: {} },
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

async function historyOf(slug: string): Promise<{ status: string; caller?: string }[]> {
  return (await h.api('GET', `/tools/bundles/${bundleID}/tools/${slug}/version/v1/history`)).body.items;
}

function httpClient(name: string, capabilities: Record<string, unknown> = {}, query = ''): { client: Client; connect: () => Promise<void> } {
  const client = new Client({ name, version: '1' }, { capabilities, ...MODERN });
  const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp${query}`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } });
  return { client, connect: () => client.connect(transport) };
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), ms))]);
}

describe('a 2026-07-28 client over Streamable HTTP', () => {
  let client: Client;
  let answer: boolean | 'cancel';
  beforeAll(async () => {
    const c = httpClient('modern-agent', { elicitation: {} });
    client = c.client;
    client.setRequestHandler('elicitation/create', async (req) => {
      expect(req.params.message).toMatch(/Wipe|Shred/);
      return answer === 'cancel' ? { action: 'cancel' } : { action: 'accept', content: { confirm: answer } };
    });
    await c.connect();
  }, 30_000);
  afterAll(async () => {
    await client?.close();
  });

  it('negotiates 2026-07-28 without a session and lists the same tools, in the same order, as a 2025 client', async () => {
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const modern = (await client.listTools(undefined, { cacheMode: 'bypass' })).tools;
    const legacy = new Client({ name: 'legacy-agent', version: '1' });
    await legacy.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }));
    try {
      expect(legacy.getProtocolEra()).toBe('legacy');
      expect(modern.map((t) => t.name)).toEqual((await legacy.listTools()).tools.map((t) => t.name));
    } finally {
      await legacy.close();
    }
    expect(modern.find((t) => t.name === 'wipe')).toMatchObject({ annotations: { readOnlyHint: false, destructiveHint: true } });
  });

  it('calls a tool and gets structuredContent, history names the 2026 client', async () => {
    const r = (await client.callTool({ name: 'calc', arguments: { expression: '6*7' } })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ value: 42 });
    await expect(client.callTool({ name: 'no-such-tool', arguments: {} })).rejects.toThrow(/Unknown tool: no-such-tool/);
  });

  it('asks for an approval as an input-required result, runs the tool once after the yes, and not after a no or a dismissal', async () => {
    const before = (await historyOf('wipe')).length;
    answer = true;
    const yes = (await client.callTool({ name: 'wipe', arguments: { count: 1 } })) as CallToolResult;
    expect(yes.isError, textOf(yes)).toBeFalsy();
    answer = false;
    const no = (await client.callTool({ name: 'wipe', arguments: { count: 1 } })) as CallToolResult;
    expect(no.isError).toBe(true);
    expect(textOf(no)).toMatch(/declined/);
    answer = 'cancel';
    const dismissed = (await client.callTool({ name: 'wipe', arguments: { count: 1 } })) as CallToolResult;
    expect(textOf(dismissed)).toMatch(/dismissed/);
    const after = await historyOf('wipe');
    expect(after.length - before).toBe(1);
    expect(after[0]).toMatchObject({ status: 'ok', caller: 'mcp:modern-agent' });
    // Settled approvals leave nothing behind.
    expect((await h.api('GET', '/tools/approvals')).body.items).toEqual([]);
  }, 30_000);

  it('hears of a switch flipped by another process through subscriptions/listen', async () => {
    const changed = new Promise<void>((resolve) => client.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
    await client.listen({ toolsListChanged: true });
    await h.api('PATCH', `/tools/bundles/${bundleID}/tools/peek/version/v1`, { isEnabled: false });
    await withTimeout(changed, 8000, 'notifications/tools/list_changed on the listen stream');
    expect((await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name)).not.toContain('peek');
    await h.api('PATCH', `/tools/bundles/${bundleID}/tools/peek/version/v1`, { isEnabled: true });
  }, 30_000);

  it('limits a request to ?bundles= as a 2025 session is limited', async () => {
    const scoped = httpClient('scoped-modern', {}, '?bundles=ops');
    await scoped.connect();
    try {
      const names = (await scoped.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('peek');
      expect(names).not.toContain('calc');
      await expect(scoped.client.callTool({ name: 'calc', arguments: { expression: '1' } })).rejects.toThrow(/Unknown tool/);
    } finally {
      await scoped.client.close();
    }
  });

  it('without elicitation, waits inside the request for the app panel, as a 2025 client does', async () => {
    const plain = httpClient('panel-agent');
    await plain.connect();
    try {
      const call = plain.client.callTool({ name: 'shred', arguments: { count: 1 } }, { timeout: 30_000 });
      let approvalID: string | undefined;
      for (let i = 0; i < 200 && !approvalID; i++) {
        const items = (await h.api('GET', '/tools/approvals')).body.items as { approvalID: string; caller: string; tool: { slug: string } }[];
        approvalID = items.find((a) => a.tool.slug === 'shred' && a.caller === 'mcp:panel-agent')?.approvalID;
        if (!approvalID) await new Promise((r) => setTimeout(r, 50));
      }
      expect(approvalID).toBeDefined();
      expect((await h.api('POST', `/tools/approvals/${approvalID}`, { decision: 'approve' })).status).toBe(200);
      const r = (await call) as CallToolResult;
      expect(r.isError, textOf(r)).toBeFalsy();
    } finally {
      await plain.client.close();
    }
  }, 40_000);
});

describe('a 2026-07-28 client over stdio (toolwright mcp)', () => {
  it('negotiates 2026, lists, calls, asks for approval by input-required and hears list changes', async () => {
    const client = new Client({ name: 'stdio-modern', version: '1' }, { capabilities: { elicitation: {} }, ...MODERN });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--data-dir', h.dataDir, 'mcp'], stderr: 'pipe' }));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('wipe');
      const before = (await historyOf('shred')).length;
      const r = (await client.callTool({ name: 'shred', arguments: { count: 2 } })) as CallToolResult;
      expect(r.isError, textOf(r)).toBeFalsy();
      // Written by the stdio process; the host reads it from disk.
      await expect.poll(async () => (await historyOf('shred')).length - before).toBe(1);
      const changed = new Promise<void>((resolve) => client.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
      await client.listen({ toolsListChanged: true });
      await h.api('PATCH', `/tools/bundles/${bundleID}/tools/peek/version/v1`, { isEnabled: false });
      await withTimeout(changed, 8000, 'list_changed over stdio');
      await h.api('PATCH', `/tools/bundles/${bundleID}/tools/peek/version/v1`, { isEnabled: true });
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('the 2026-07-28 wire, raw', () => {
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw-agent', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  };
  let id = 0;
  async function raw(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}, clientName = 'raw-agent') {
    const res = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${h.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(typeof params['name'] === 'string' ? { 'mcp-name': params['name'] } : {}),
        ...headers,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method,
        params: { ...params, _meta: { ...envelope, 'io.modelcontextprotocol/clientInfo': { name: clientName, version: '1' } } },
      }),
    });
    const text = await res.text();
    const json = text.startsWith('{') ? JSON.parse(text) : JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? 'null');
    return { status: res.status, json };
  }
  const yes = { approve: { action: 'accept', content: { confirm: true } } };

  it('answers server/discover, and list results carry resultType and cache hints', async () => {
    const discover = await raw('server/discover', {});
    expect(discover.status).toBe(200);
    expect(discover.json.result.supportedVersions).toContain('2026-07-28');
    expect(discover.json.result.capabilities.tools).toMatchObject({ listChanged: true });
    const list = await raw('tools/list', {});
    expect(list.json.result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'private' });
    expect(list.json.result.tools.length).toBeGreaterThan(3);
  });

  it('refuses a request whose Mcp-Method header does not match its body', async () => {
    const bad = await raw('tools/list', {}, { 'mcp-method': 'tools/call' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/Mcp-Method/i);
  });

  it('binds an approval to the exact call: other arguments, a replay and a forged state run nothing', async () => {
    const before = (await historyOf('wipe')).length;
    const first = await raw('tools/call', { name: 'wipe', arguments: { count: 1 } });
    expect(first.json.result).toMatchObject({ resultType: 'input_required', inputRequests: { approve: { method: 'elicitation/create' } } });
    const state = first.json.result.requestState as string;
    // The person sees it in the app too while the client asks.
    const pending = (await h.api('GET', '/tools/approvals')).body.items as { caller: string; tool: { slug: string } }[];
    expect(pending.some((a) => a.tool.slug === 'wipe' && a.caller === 'mcp:raw-agent')).toBe(true);

    const other = await raw('tools/call', { name: 'wipe', arguments: { count: 2 }, inputResponses: yes, requestState: state });
    expect(other.json.result.isError).toBe(true);
    expect(other.json.result.content[0].text).toMatch(/another call/);

    const ok = await raw('tools/call', { name: 'wipe', arguments: { count: 1 }, inputResponses: yes, requestState: state });
    expect(ok.json.result.isError, JSON.stringify(ok.json)).toBeFalsy();
    expect(ok.json.result.resultType).toBe('complete');

    const replay = await raw('tools/call', { name: 'wipe', arguments: { count: 1 }, inputResponses: yes, requestState: state });
    expect(replay.json.result.isError).toBe(true);
    expect(replay.json.result.content[0].text).toMatch(/already used/);

    const forged = await raw('tools/call', { name: 'wipe', arguments: { count: 1 }, inputResponses: yes, requestState: state.slice(0, -4) + 'AAAA' });
    expect(forged.json.error?.message ?? '').toMatch(/requestState/);

    expect((await historyOf('wipe')).length - before).toBe(1);
  });

  it("an approval asked by one caller never runs another caller's call", async () => {
    const before = (await historyOf('wipe')).length;
    const first = await raw('tools/call', { name: 'wipe', arguments: { count: 4 } });
    const state = first.json.result.requestState as string;
    const stolen = await raw('tools/call', { name: 'wipe', arguments: { count: 4 }, inputResponses: yes, requestState: state }, {}, 'other-agent');
    expect(stolen.json.result.isError).toBe(true);
    expect(stolen.json.result.content[0].text).toMatch(/another call \(other arguments, another caller/);
    expect((await historyOf('wipe')).length).toBe(before);
    const own = await raw('tools/call', { name: 'wipe', arguments: { count: 4 }, inputResponses: yes, requestState: state });
    expect(own.json.result.isError, JSON.stringify(own.json)).toBeFalsy();
  });

  it("takes the app panel's decision when a person answered there first", async () => {
    const before = (await historyOf('wipe')).length;
    const first = await raw('tools/call', { name: 'wipe', arguments: { count: 3 } });
    const items = (await h.api('GET', '/tools/approvals')).body.items as { approvalID: string; tool: { slug: string }; args: { count?: number } }[];
    const mine = items.find((a) => a.tool.slug === 'wipe' && a.args.count === 3)!;
    expect((await h.api('POST', `/tools/approvals/${mine.approvalID}`, { decision: 'deny' })).status).toBe(200);
    const retry = await raw('tools/call', { name: 'wipe', arguments: { count: 3 }, inputResponses: yes, requestState: first.json.result.requestState });
    expect(retry.json.result.isError).toBe(true);
    expect(retry.json.result.content[0].text).toMatch(/denied .* in Toolwright/);
    expect((await historyOf('wipe')).length).toBe(before);
    expect((await readdir(join(h.dataDir, 'approvals'))).filter((n) => n === `${mine.approvalID}.json`)).toEqual([]);
  });
});
