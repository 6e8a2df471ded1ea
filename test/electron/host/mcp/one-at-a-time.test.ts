/**
 * Seed 002's run policy at the agent door (issue 31, point 4): one agent's side-effecting calls
 * run one at a time in arrival order, its read-only calls run together, and two agents do not
 * wait for each other. A real loopback HTTP server holds every request until the test lets it
 * answer, so "overlap" is what the server saw, not a timing guess. An agent is a 2025 session, or
 * one principal and client in the 2026 era.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-http.js';

const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };

let h: TestHost;
let server: LoopbackServer;
/** What the server saw, in order: `in:<tag>` when a request arrived, `out:<tag>` when it answered. */
let seen: string[] = [];
const held = new Map<string, () => void>();

beforeAll(async () => {
  server = await startLoopbackServer();
  server.route('/hold', async (req, res) => {
    const tag = req.query.get('tag') ?? '?';
    seen.push(`in:${tag}`);
    await new Promise<void>((resolve) => held.set(tag, resolve));
    seen.push(`out:${tag}`);
    sendJson(res, 200, { tag });
  });
  h = await startHost();
  await h.api('PATCH', '/tools/config', { allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true });
  const bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'held', displayName: 'Held' });
  for (const [slug, safety] of [
    ['write', 'sideEffecting'],
    ['peek', 'readOnly'],
  ] as const) {
    const put = await h.api('PUT', `/tools/bundles/${bundleID}/tools/${slug}/version/v1`, {
      type: 'http',
      displayName: slug,
      safety,
      impl: { method: 'GET', urlTemplate: `${server.url('/hold')}?tag=\${tag}`, timeoutMs: 30_000 },
      argSchema: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(201);
  }
}, 60_000);

afterAll(async () => {
  for (const release of held.values()) release();
  await h?.close();
  await server?.close();
});

async function agent(name: string, modern: boolean): Promise<Client> {
  const c = new Client({ name, version: '1' }, modern ? MODERN : {});
  await c.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }));
  return c;
}

async function until(what: string, cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; the server saw ${JSON.stringify(seen)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const arrived = (tag: string) => seen.includes(`in:${tag}`);
/** Time for a request that is not held back to reach the server (it would, well within this). */
const SETTLE_MS = 700;

function release(tag: string): void {
  const r = held.get(tag);
  if (!r) throw new Error(`${tag} is not held; the server saw ${JSON.stringify(seen)}`);
  held.delete(tag);
  r();
}

function call(c: Client, tool: string, tag: string): Promise<CallToolResult> {
  return c.callTool({ name: tool, arguments: { tag } }) as Promise<CallToolResult>;
}

describe('one agent’s side effects run one at a time; read-only calls and other agents run together', () => {
  for (const modern of [false, true]) {
    const era = modern ? '2026 (one principal and client)' : '2025 (one session)';

    it(`${era}: two side-effecting calls never overlap, and run in arrival order`, async () => {
      seen = [];
      const c = await agent(`serial-${modern}`, modern);
      try {
        const first = call(c, 'write', 'w1');
        await until('the first call', () => arrived('w1'));
        const second = call(c, 'write', 'w2');
        await new Promise((r) => setTimeout(r, SETTLE_MS));
        expect(seen).toEqual(['in:w1']);
        release('w1');
        expect((await first).isError).toBeFalsy();
        await until('the second call', () => arrived('w2'));
        expect(seen).toEqual(['in:w1', 'out:w1', 'in:w2']);
        release('w2');
        expect((await second).isError).toBeFalsy();
      } finally {
        await c.close();
      }
    });

    it(`${era}: two read-only calls overlap, and a read-only call runs beside a side-effecting one`, async () => {
      seen = [];
      const c = await agent(`readers-${modern}`, modern);
      try {
        const calls = [call(c, 'peek', 'r1'), call(c, 'peek', 'r2')];
        await until('both read-only calls at once', () => arrived('r1') && arrived('r2'));
        const write = call(c, 'write', 'w3');
        await until('the side-effecting call beside them', () => arrived('w3'));
        const peek = call(c, 'peek', 'r3');
        await until('a read-only call beside the side-effecting one', () => arrived('r3'));
        for (const tag of ['r1', 'r2', 'w3', 'r3']) release(tag);
        for (const r of await Promise.all([...calls, write, peek])) expect(r.isError).toBeFalsy();
      } finally {
        await c.close();
      }
    });

    it(`${era}: two agents’ side-effecting calls overlap`, async () => {
      seen = [];
      const a = await agent(`agent-a-${modern}`, modern);
      const b = await agent(`agent-b-${modern}`, modern);
      try {
        const calls = [call(a, 'write', 'a1'), call(b, 'write', 'b1')];
        await until('both agents’ calls at once', () => arrived('a1') && arrived('b1'));
        release('a1');
        release('b1');
        for (const r of await Promise.all(calls)) expect(r.isError).toBeFalsy();
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  }

  it('a call cancelled while it waits leaves the queue without running; the next one runs after the first', async () => {
    seen = [];
    const c = await agent('canceller', false);
    try {
      const first = call(c, 'write', 'c1');
      await until('the first call', () => arrived('c1'));
      const giveUp = new AbortController();
      const cancelled = c.callTool({ name: 'write', arguments: { tag: 'c2' } }, { signal: giveUp.signal });
      const third = call(c, 'write', 'c3');
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      giveUp.abort();
      await expect(cancelled).rejects.toThrow();
      release('c1');
      await first;
      await until('the third call', () => arrived('c3'));
      release('c3');
      await third;
      expect(seen).toEqual(['in:c1', 'out:c1', 'in:c3', 'out:c3']);
    } finally {
      await c.close();
    }
  });

  it('two 2025 sessions of the same client are two agents', async () => {
    seen = [];
    const [a, b] = await Promise.all([agent('same-name', false), agent('same-name', false)]);
    try {
      const calls = [call(a, 'write', 's1'), call(b, 'write', 's2')];
      await until('both sessions’ calls at once', () => arrived('s1') && arrived('s2'));
      release('s1');
      release('s2');
      await Promise.all(calls);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('REST calls are not queued behind an agent', async () => {
    seen = [];
    const c = await agent('rest-neighbour', false);
    try {
      const agentCall = call(c, 'write', 'm1');
      await until('the agent’s call', () => arrived('m1'));
      const tools = (await h.api('GET', '/tools/tools?tags=')).body.items as { slug: string; bundleID: string }[];
      const write = tools.find((t) => t.slug === 'write')!;
      const rest = h.api('POST', `/tools/bundles/${write.bundleID}/tools/write/version/v1/invoke`, { args: { tag: 'x1' } });
      await until('the REST call beside it', () => arrived('x1'));
      release('m1');
      release('x1');
      await Promise.all([agentCall, rest]);
    } finally {
      await c.close();
    }
  });
});
