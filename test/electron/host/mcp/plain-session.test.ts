/**
 * Plain requests of a 2025 session (tools/list, tools/call of a quick tool) are answered before the
 * session's transport (plain-session.ts), and the answer is the transport's byte for byte: status,
 * headers, SSE framing, body. A request with a `_meta` of its own is one the fast path leaves to
 * the SDK, which is how these tests get the SDK's answer to compare with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { putSumsBundle, SUMS_CALL_CASES } from '../../../helpers/mcp-sums.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-http.js';
import { plainSessionCall, type PlainSession } from '../../../../electron/host/mcp/fast-path/plain-session.js';
import { watchAudience } from '../../../../electron/host/mcp/server/audience-watch.js';
import { createMcpServer } from '../../../../electron/host/mcp/server/mcp-server.js';

let h: TestHost;
let upstream: LoopbackServer;
let bundleID: string;

beforeAll(async () => {
  h = await startHost();
  bundleID = await putSumsBundle(h);
  upstream = await startLoopbackServer();
  upstream.route('/slow', async (_req, res) => {
    await new Promise((r) => setTimeout(r, 20_000));
    sendJson(res, 200, { late: true });
  });
  await h.api('PATCH', '/tools/config', { allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true });
  const slow = await h.api('PUT', `/tools/bundles/${bundleID}/tools/slow/version/v1`, {
    type: 'http',
    displayName: 'Slow',
    impl: { method: 'GET', urlTemplate: upstream.url('/slow') },
    argSchema: { type: 'object', properties: {} },
  });
  expect(slow.status, JSON.stringify(slow.body)).toBe(201);
}, 60_000);

afterAll(async () => {
  await upstream?.close();
  await h?.close();
});

interface Raw {
  status: number;
  /** Header names and values as sent, without the ones that depend on the moment (date) or the framing. */
  headers: string[];
  text: string;
}

/** One POST by node:http, so the headers are seen as the server wrote them. */
function post(path: string, headers: Record<string, string>, body: unknown): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${h.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        const headers: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase();
          if (!['date', 'content-length', 'transfer-encoding', 'keep-alive'].includes(name)) headers.push(`${name}: ${res.rawHeaders[i + 1]}`);
        }
        resolve({ status: res.statusCode ?? 0, headers, text: text.replace(/invocations\/[0-9a-f-]{36}/g, 'invocations/<id>') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A raw 2025 session: initialize, initialized, then requests with its id and version. */
async function session(version: string, path = '/mcp', capabilities: Record<string, unknown> = {}) {
  const init = await new Promise<string>((resolve, reject) => {
    const req = httpRequest(`${h.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, ...JSON_HEADERS } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers['mcp-session-id'] as string));
    });
    req.on('error', reject);
    req.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: version, capabilities, clientInfo: { name: 'raw-session', version: '1' } },
      }),
    );
  });
  const headers = { ...JSON_HEADERS, 'mcp-session-id': init, 'mcp-protocol-version': version };
  await post(path, headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    id: init,
    notify: (method: string, params: Record<string, unknown>) => post(path, headers, { jsonrpc: '2.0', method, params }),
    request: (method: string, params: Record<string, unknown> | undefined, id: string | number, sdk = false) =>
      post(path, headers, {
        jsonrpc: '2.0',
        id,
        method,
        ...(params === undefined && !sdk ? {} : { params: { ...params, ...(sdk ? { _meta: { 'example.com/path': 'sdk' } } : {}) } }),
      }),
  };
}

const names = (raw: Raw) =>
  (JSON.parse(raw.text.replace(/^event: message\ndata: /, '')) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);

describe.each(['2025-11-25', '2025-06-18'])('plain requests of a %s session, answered before its transport', (version) => {
  it("tools/list: the transport's bytes, the request's id", async () => {
    const s = await session(version);
    for (const id of [7, 'abc-"quoted"', 0]) {
      const fast = await s.request('tools/list', undefined, id);
      const sdk = await s.request('tools/list', {}, id, true);
      expect(fast.status).toBe(200);
      expect(fast.headers).toEqual(sdk.headers);
      expect(fast.headers).toContain(`mcp-session-id: ${s.id}`);
      expect(fast.text).toBe(sdk.text);
      expect(fast.text.startsWith('event: message\ndata: {"result":{"tools":[')).toBe(true);
      expect(fast.text).not.toContain('resultType');
    }
    expect((await s.request('tools/list', {}, 8)).text).toBe((await s.request('tools/list', {}, 8, true)).text);
  });

  it("tools/call: the transport's bytes — a card, no card, structured content, a refused call, a failed run", async () => {
    const s = await session(version);
    for (const [name, args, id] of SUMS_CALL_CASES) {
      const params = { name, ...(args === undefined ? {} : { arguments: args }) };
      const fast = await s.request('tools/call', params, id);
      const sdk = await s.request('tools/call', params, id, true);
      expect(fast.status, fast.text).toBe(200);
      expect(fast.headers).toEqual(sdk.headers);
      expect(fast.text).toBe(sdk.text);
      expect(fast.text).toMatch(/^event: message\ndata: \{"result":\{.*\},"jsonrpc":"2.0","id":.*\}\n\n$/s);
      expect(fast.text).not.toContain('resultType');
    }
  });
});

describe('a 2025 session answered before its transport', () => {
  it('runs through tools.invoke: the call is in the history with the client named at initialize', async () => {
    const s = await session('2025-11-25');
    await s.request('tools/call', { name: 'bare', arguments: { expression: '40 + 2' } }, 1);
    const items = (await h.api('GET', `/tools/bundles/${bundleID}/tools/bare/version/v1/history`)).body.items as { caller?: string; status: string }[];
    expect(items[0]).toMatchObject({ caller: 'mcp:raw-session', status: 'ok' });
  });

  it('holds a change in the very next list, per audience', async () => {
    const all = await session('2025-11-25');
    const scoped = await session('2025-11-25', '/mcp?bundles=sums');
    expect(names(await scoped.request('tools/list', undefined, 1)).sort()).toEqual(['bare', 'carded', 'guarded', 'shaped', 'slow']);
    expect(names(await all.request('tools/list', undefined, 1))).toContain('bare');
    await h.api('PATCH', `/tools/bundles/${bundleID}/tools/bare/version/v1`, { isEnabled: false });
    try {
      const after = await all.request('tools/list', undefined, 2);
      expect(names(after)).not.toContain('bare');
      expect(after.text).toBe((await all.request('tools/list', {}, 2, true)).text);
      expect(names(await scoped.request('tools/list', undefined, 2))).not.toContain('bare');
    } finally {
      await h.api('PATCH', `/tools/bundles/${bundleID}/tools/bare/version/v1`, { isEnabled: true });
    }
    expect(names(await all.request('tools/list', undefined, 3))).toContain('bare');
    expect(names(await scoped.request('tools/list', undefined, 3))).toHaveLength(5);
  });

  it('takes only plain calls of tools it may run without asking; the transport answers the rest', async () => {
    const audience = await watchAudience(h.core, {});
    const connection = createMcpServer(h.core, audience, { era: 'legacy', transport: 'http' });
    const s: PlainSession = { id: 'sid', connection, audience, calls: new Map() };
    const request = (name: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
      ({
        method: 'POST',
        headers: { ...JSON_HEADERS, 'mcp-session-id': 'sid', 'mcp-protocol-version': '2025-11-25', ...headers },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { expression: '1' }, ...params } },
      }) as unknown as FastifyRequest;
    try {
      // Before the server handled the initialize, nothing is plain.
      expect(plainSessionCall(request('bare'), s)).toBeUndefined();
      const server = connection.server as unknown as { _clientVersion: unknown; _clientCapabilities: unknown };
      server._clientVersion = { name: 'raw', version: '1' };
      expect(plainSessionCall(request('bare'), s)).toMatchObject({ id: 1, args: { expression: '1' } });
      expect(plainSessionCall(request('guarded'), s)).toBeUndefined(); // its approval goes through the session
      expect(plainSessionCall(request('nowhere'), s)).toBeUndefined(); // the SDK's error names the way out
      expect(plainSessionCall(request('bare', { _meta: { progressToken: 3 } }), s)).toBeUndefined();
      expect(plainSessionCall(request('bare', { task: { ttl: 1000 } }), s)).toBeUndefined();
      expect(plainSessionCall(request('bare', { arguments: ['x'] }), s)).toBeUndefined();
      expect(plainSessionCall(request('bare', {}, { 'mcp-session-id': 'other' }), s)).toBeUndefined();
      expect(plainSessionCall(request('bare', {}, { 'mcp-protocol-version': '2026-07-28' }), s)).toBeUndefined();
      expect(plainSessionCall(request('bare', {}, { accept: 'application/json' }), s)).toBeUndefined();
      server._clientCapabilities = { elicitation: {} };
      expect(plainSessionCall(request('bare'), s)).toBeUndefined(); // upstream questions go to the client through the session
      server._clientCapabilities = {};
      s.calls.set(1, new AbortController());
      expect(plainSessionCall(request('bare'), s)).toBeUndefined(); // the same id in flight
    } finally {
      await connection.dispose();
      audience.dispose();
    }
  });

  it('leaves a session that asked for log messages to the transport, which sends them', async () => {
    const s = await session('2025-11-25');
    await s.request('logging/setLevel', { level: 'info' }, 1);
    const answer = await s.request('tools/call', { name: 'bare', arguments: { expression: '1 + 1' } }, 2);
    expect(answer.text).toMatch(/^event: message\ndata: \{"jsonrpc":"2.0","method":"notifications\/message".*bare: ok/s);
  });

  it('cancels a running call on notifications/cancelled naming it: the run stops, the answer ends without a message', async () => {
    const s = await session('2025-11-25');
    const history = async () =>
      (await h.api('GET', `/tools/bundles/${bundleID}/tools/slow/version/v1/history`)).body.items as { caller?: string; status: string }[];
    const answer = s.request('tools/call', { name: 'slow', arguments: {} }, 'slow-1');
    await new Promise((r) => setTimeout(r, 500));
    const cancelled = await s.notify('notifications/cancelled', { requestId: 'slow-1', reason: 'no longer needed' });
    expect(cancelled.status).toBe(202);
    const ended = await answer;
    expect(ended.status).toBe(200);
    expect(ended.text).toBe('');
    await expect.poll(async () => (await history())[0], { timeout: 5000 }).toMatchObject({ status: 'cancelled', caller: 'mcp:raw-session' });
  }, 30_000);
});
