/**
 * A plain 2026-07-28 tools/call is answered before the SDK (plain-call.ts), through the same
 * tools.invoke operation, and its answer is the SDK's byte for byte. A request that names a log
 * level is one the fast path leaves to the SDK, which is how these tests get the SDK's answer to
 * compare with (at level `error`, the SDK sends no log message for a call, so it answers JSON).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { putSumsBundle, SUMS_CALL_CASES } from '../../../helpers/mcp-sums.js';
import { watchAudience } from '../../../../electron/host/mcp/server/audience-watch.js';
import { plainModernCall } from '../../../../electron/host/mcp/fast-path/plain-call.js';

const VERSION = '2026-07-28';
let h: TestHost;
let bundleID: string;

beforeAll(async () => {
  h = await startHost();
  bundleID = await putSumsBundle(h);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const envelope = (extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-caller', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
});

const headersFor = (name: string) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': VERSION,
  'mcp-method': 'tools/call',
  'mcp-name': name,
});

async function call(name: string, args: unknown, opts: { id?: string | number; sdk?: boolean } = {}) {
  const meta = envelope(opts.sdk ? { 'io.modelcontextprotocol/logLevel': 'error' } : {});
  const res = await fetch(`${h.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.token}`, ...headersFor(name) },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: opts.id ?? 1,
      method: 'tools/call',
      params: { name, ...(args === undefined ? {} : { arguments: args }), _meta: meta },
    }),
  });
  // A card's resource is named by its run's invocation ID, which differs from run to run.
  const text = (await res.text()).replace(/invocations\/[0-9a-f-]{36}/g, 'invocations/<id>');
  return { status: res.status, type: res.headers.get('content-type'), text };
}

describe('a plain 2026 tools/call answered before the SDK', () => {
  it("answers the SDK's bytes: a card, no card, structured content, a refused call, a failed run", async () => {
    for (const [name, args, id] of SUMS_CALL_CASES) {
      const fast = await call(name, args, { id });
      const sdk = await call(name, args, { id, sdk: true });
      expect(fast.status, fast.text).toBe(200);
      expect(fast.type).toBe(sdk.type);
      expect(fast.text).toBe(sdk.text);
      expect(JSON.parse(fast.text)).toMatchObject({ jsonrpc: '2.0', id, result: { resultType: 'complete' } });
    }
    expect(JSON.parse((await call('shaped', { expression: '6 / 3' })).text).result.structuredContent).toMatchObject({ value: 2 });
  });

  it('runs through tools.invoke: the call is in the history with its caller', async () => {
    await call('bare', { expression: '40 + 2' });
    const items = (await h.api('GET', `/tools/bundles/${bundleID}/tools/bare/version/v1/history`)).body.items as { caller?: string; status: string }[];
    expect(items[0]).toMatchObject({ caller: 'mcp:raw-caller', status: 'ok' });
  });

  it('takes only plain calls of tools it may run without asking; the SDK answers the rest', async () => {
    const watch = await watchAudience(h.core, {});
    const scope = watch.view();
    const request = (name: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
      ({
        method: 'POST',
        headers: { ...headersFor(name), ...headers },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { expression: '1' }, _meta: envelope(), ...params } },
      }) as unknown as FastifyRequest;
    try {
      expect(plainModernCall(request('bare'), scope)).toMatchObject({ id: 1, client: 'raw-caller', args: { expression: '1' } });
      expect(plainModernCall(request('guarded'), scope)).toBeUndefined(); // its approval is the SDK's input_required round
      expect(plainModernCall(request('nowhere'), scope)).toBeUndefined(); // the SDK's error names the way out
      expect(plainModernCall(request('bare', {}, { 'mcp-name': 'carded' }), scope)).toBeUndefined();
      expect(plainModernCall(request('bare', { _meta: envelope({ progressToken: 3 }) }), scope)).toBeUndefined();
      expect(plainModernCall(request('bare', { _meta: envelope({ 'io.modelcontextprotocol/logLevel': 'info' }) }), scope)).toBeUndefined();
      expect(plainModernCall(request('bare', { task: { ttl: 1000 } }), scope)).toBeUndefined();
      const tasks = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
      expect(plainModernCall(request('bare', { _meta: envelope(tasks) }), scope)).toBeUndefined(); // a task: tasks.ts
      expect(plainModernCall(request('bare', { arguments: ['x'] }), scope)).toBeUndefined();
      expect(plainModernCall(request('bare', {}, { 'mcp-protocol-version': '2025-11-25' }), scope)).toBeUndefined();
    } finally {
      watch.dispose();
    }
    const unknown = await call('nowhere', {});
    expect(unknown.text).toMatch(/Unknown tool: nowhere.*tools\/list/);
  });
});
