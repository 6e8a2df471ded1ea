/**
 * A plain 2026-07-28 tools/list is answered from a body cached per audience (list-cache.ts): the
 * bytes are the SDK's own, the id is the request's, a change the scope sees is in the very next
 * answer, and anything but a plain request still goes to the SDK. A request that asks for a log
 * level is one the cache leaves to the SDK, which is how these tests get the SDK's answer to
 * compare with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';

const VERSION = '2026-07-28';
const TOOLS = 400;

let h: TestHost;
let bundleID: string;

beforeAll(async () => {
  h = await startHost();
  bundleID = uuidv7();
  await h.core.bundles.put(bundleID, { slug: 'many' });
  // Long descriptions make a list of a few MB from a few hundred tools, quick to write.
  for (let i = 0; i < TOOLS; i++) {
    await h.core.tools.create(
      { bundleID, slug: `tool-${i}`, version: 'v1' },
      {
        type: 'function',
        displayName: `Tool ${i}`,
        description: `Tool number ${i}. ${'A long description of what this tool does. '.repeat(120)}`,
        impl: { function: 'core.uuid' },
        argSchema: { type: 'object', properties: { n: { type: 'integer', description: 'how many' } } },
      },
    );
  }
}, 120_000);

afterAll(async () => {
  await h?.close();
});

function envelope(extra: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-lister', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
    ...extra,
  };
}

async function list(opts: { id?: string | number; sdk?: boolean; query?: string; headers?: Record<string, string> } = {}) {
  const meta = envelope(opts.sdk ? { 'io.modelcontextprotocol/logLevel': 'error' } : {});
  const res = await fetch(`${h.url}/mcp${opts.query ?? ''}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${h.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': 'tools/list',
      ...opts.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: opts.id ?? 1, method: 'tools/list', params: { _meta: meta } }),
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

const names = (text: string) => (JSON.parse(text) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);

describe('tools/list of a 2026 request from the cached body', () => {
  it("answers the same bytes as the SDK, with the request's own id", async () => {
    for (const id of [7, 'abc-"quoted"', 0]) {
      const fast = await list({ id });
      const sdk = await list({ id, sdk: true });
      expect(fast.status).toBe(200);
      expect(fast.type).toBe(sdk.type);
      expect(fast.text).toBe(sdk.text);
      expect(JSON.parse(fast.text)).toMatchObject({ jsonrpc: '2.0', id, result: { resultType: 'complete', ttlMs: 60_000, cacheScope: 'private' } });
    }
  });

  it('holds a change the scope saw in the very next answer, and keeps audiences apart', async () => {
    expect(names((await list()).text)).toContain('tool-3');
    await h.api('PATCH', `/tools/bundles/${bundleID}/tools/tool-3/version/v1`, { isEnabled: false });
    const after = await list();
    expect(names(after.text)).not.toContain('tool-3');
    expect(after.text).toBe((await list({ sdk: true })).text);
    await h.api('PATCH', `/tools/bundles/${bundleID}/tools/tool-3/version/v1`, { isEnabled: true });
    expect(names((await list()).text)).toContain('tool-3');

    const scoped = names((await list({ query: '?bundles=many' })).text);
    expect(scoped).toHaveLength(TOOLS);
    expect(names((await list()).text).length).toBeGreaterThan(TOOLS);

    await h.api('PATCH', '/tools/config', { toolsEnabled: false });
    expect(names((await list()).text)).toEqual([]);
    await h.api('PATCH', '/tools/config', { toolsEnabled: true });
    expect(names((await list()).text).length).toBeGreaterThan(TOOLS);
  });

  it('leaves a request that is not plain to the SDK, which says what was wrong', async () => {
    const mismatch = await list({ headers: { 'mcp-method': 'tools/call' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toMatch(/Mcp-Method/i);
    const noVersion = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${h.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } }),
    });
    expect(noVersion.status).toBe(400);
    expect(await noVersion.text()).toMatch(/MCP-Protocol-Version/i);
  });
});
