/**
 * A team runs several hosts on one data folder behind one proxy: two real host processes (serve.ts's
 * startServe, with --behind-proxy 127.0.0.1, the proxy's address as --public-url and one
 * --token-file) behind a round-robin reverse proxy on loopback (test/helpers/proxy.ts). Requests
 * alternate between them; both list the same tools; a change made through one is seen through the
 * other (REST, MCP tools/list, list_changed); a 2026 tools/call works on both; a 2025 session is
 * valid only on the host that made it (404 elsewhere, so the client initialises again), so the
 * proxy keeps a session on its host (sticky on Mcp-Session-Id), with which it works; and a
 * schedule fires exactly once per slot across the two, also when its holder is killed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { v7 as uuidv7 } from 'uuid';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { collect, spawnTs } from '../../helpers/procs.js';
import { claimedFires, nextMinute, until } from '../../helpers/schedules.js';
import { startProxy, type Proxy } from '../../helpers/proxy.js';
import { calcToolBody } from '../../helpers/host.js';

const CORE = '0190a000-0000-7000-8000-00000000c0e0';
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const SPEED = 12;
const TOKEN = 'team-token-' + Math.random().toString(36).slice(2);

type Line = { pid: number; at: number; role?: string; fire?: string; scheduleID?: string; status?: string; invocationID?: string };

interface TeamHost {
  port: number;
  child: ChildProcess;
  out: ReturnType<typeof collect>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  await new Promise((r) => server.close(r));
  return typeof address === 'object' && address ? address.port : 0;
}

async function api(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'team-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One stateless 2026 request: its HTTP answer and the JSON-RPC message in it. */
async function modern(base: string, method: string, params: Record<string, unknown>, name?: string) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: modernMeta } }),
  });
  const text = await res.text();
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? 'null');
  return { status: res.status, upstream: res.headers.get('x-upstream'), message: JSON.parse(json) as { result?: any; error?: any } };
}

function mcpClient(base: string, options: Record<string, unknown> = {}): Client & { connectNow(): Promise<void> } {
  const client = new Client({ name: 'team-test', version: '1' }, options) as Client & { connectNow(): Promise<void> };
  client.connectNow = () =>
    client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  return client;
}

describe('two hosts on one data folder behind one proxy', () => {
  let dataDir: string;
  let tokenFile: string;
  let proxy: Proxy;
  let hosts: TeamHost[] = [];
  const realAnchor = Date.now();
  // The schedulers' clock runs an hour ahead, so a schedule exists well before its fires.
  const fakeAnchor = nextMinute(realAnchor + 3_600_000) - 1000;
  const direct = (i: number) => `http://127.0.0.1:${hosts[i]!.port}`;
  const lines = () => hosts.flatMap((h) => h.out.lines as Line[]).sort((a, b) => a.at - b.at);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tw-team-data-'));
    tokenFile = join(await mkdtemp(join(tmpdir(), 'tw-team-token-')), 'host.token');
    await writeFile(tokenFile, TOKEN + '\n', { mode: 0o600 });
    const ports = [await freePort(), await freePort()];
    proxy = await startProxy(ports);
    hosts = ports.map((port) => {
      const child = spawnTs('test/helpers/team-host.ts', [
        String(SPEED),
        String(realAnchor),
        String(fakeAnchor),
        '--data-dir',
        dataDir,
        '--port',
        String(port),
        '--public-url',
        proxy.url,
        '--behind-proxy',
        '127.0.0.1',
        '--token-file',
        tokenFile,
      ]);
      return { port, child, out: collect(child) };
    });
    for (const [i] of hosts.entries()) {
      await until(
        `host ${i} ready (its start-up work, Docker's first probe among it, done)`,
        () =>
          fetch(`${direct(i)}/readyz`).then(
            (r) => r.ok,
            () => false,
          ),
        90_000,
        200,
      );
    }
  }, 120_000);

  afterAll(async () => {
    for (const h of hosts) if (h.child.exitCode === null && h.child.signalCode === null) h.child.kill('SIGKILL');
    await proxy?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('sends requests to both hosts in turn, and both serve the same tools', async () => {
    const invoke = () => api(proxy.url, 'POST', `/tools/bundles/${CORE}/tools/calc/version/v1/invoke`, { args: { expression: '6*7' } });
    const answers = [await invoke(), await invoke(), await invoke(), await invoke()];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const upstreams = answers.map((a) => a.headers.get('x-upstream'));
    expect(new Set(upstreams).size).toBe(2);
    expect(upstreams[0]).not.toBe(upstreams[1]);
    // Not only the proxy says so: the calls' audit records name both host processes.
    const pids = hosts.map((h) => h.child.pid);
    await expect
      .poll(async () => {
        const calls = (await api(proxy.url, 'GET', '/tools/audit?kind=call&tool=calc&pageSize=4')).body.items as { pid: number }[];
        return new Set(calls.map((c) => c.pid));
      })
      .toEqual(new Set(pids));

    const listed = async (base: string) =>
      ((await api(base, 'GET', '/tools/tools?pageSize=1000')).body.items as { toolID: string }[]).map((t) => t.toolID).sort();
    const mcpListed = async (base: string) => ((await modern(base, 'tools/list', {})).message.result.tools as { name: string }[]).map((t) => t.name).sort();
    expect(await listed(direct(0))).toEqual(await listed(direct(1)));
    expect(await mcpListed(direct(0))).toEqual(await mcpListed(direct(1)));
    const throughProxy = [await modern(proxy.url, 'tools/list', {}), await modern(proxy.url, 'tools/list', {})];
    expect(new Set(throughProxy.map((a) => a.upstream)).size).toBe(2);
    expect(throughProxy[0]!.message.result.tools).toEqual(throughProxy[1]!.message.result.tools);
  }, 60_000);

  it('a change made through one host is seen through the other: REST, tools/list and list_changed', async () => {
    const listener = mcpClient(direct(1), { versionNegotiation: { mode: { pin: MODERN } } });
    await listener.connectNow();
    try {
      const heard = new Promise<void>((resolve) => listener.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
      await listener.listen({ toolsListChanged: true });
      const bundleID = uuidv7();
      expect((await api(direct(0), 'PUT', `/tools/bundles/${bundleID}`, { slug: 'team' })).status).toBeLessThan(300);
      const made = await api(direct(0), 'PUT', `/tools/bundles/${bundleID}/tools/shared-calc/version/v1`, calcToolBody());
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      await heard;
      await expect.poll(async () => (await api(direct(1), 'GET', `/tools/bundles/${bundleID}/tools/shared-calc/version/v1`)).status).toBe(200);
      const names = (await listener.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name);
      expect(names).toContain('shared-calc');
    } finally {
      await listener.close();
    }
  }, 60_000);

  it('a 2026 tools/call works through the proxy on both hosts', async () => {
    const calls = [await modern(proxy.url, 'tools/call', { name: 'calc', arguments: { expression: '2+3' } }, 'calc')];
    calls.push(await modern(proxy.url, 'tools/call', { name: 'calc', arguments: { expression: '2+3' } }, 'calc'));
    expect(new Set(calls.map((c) => c.upstream))).toEqual(new Set(['0', '1']));
    for (const c of calls) {
      expect(c.status).toBe(200);
      expect(c.message.result.isError ?? false).toBe(false);
      expect(JSON.stringify(c.message.result.content)).toContain('5');
    }
  }, 30_000);

  it('a 2025 session lives on the host that made it: 404 on the other (initialise again), whole behind a sticky proxy', async () => {
    const initialize = await fetch(`${direct(0)}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'team-test', version: '1' } },
      }),
    });
    const session = initialize.headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    await initialize.text();
    const elsewhere = await fetch(`${direct(1)}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': LEGACY,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    // The spec's answer to a session the server does not know: 404, and the client starts a new one.
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.text()).toMatch(/unknown or ended MCP session .*; initialize a new one/);

    // Round robin breaks a session at its first request after initialize...
    const roundRobin = mcpClient(proxy.url);
    await expect(async () => {
      await roundRobin.connectNow();
      for (let i = 0; i < 4; i++) await roundRobin.listTools();
    }).rejects.toThrow(/404|session/i);
    await roundRobin.close().catch(() => undefined);

    // ...a proxy that keeps each session on its host (sticky on Mcp-Session-Id) serves it whole.
    proxy.sticky = true;
    const before = [...proxy.counts];
    const client = mcpClient(proxy.url);
    try {
      await client.connectNow();
      for (let i = 0; i < 4; i++) {
        const result = (await client.callTool({ name: 'calc', arguments: { expression: `${i}+1` } })) as CallToolResult;
        expect(result.isError ?? false).toBe(false);
      }
      // All of the session on one host (its initialize went wherever round robin sent it)...
      const served = proxy.counts.map((n, i) => n - before[i]!);
      expect(served.filter((n) => n > 0)).toHaveLength(1);
      // ...while requests without a session (2026 callers) still go round the hosts.
      const upstreams = [await modern(proxy.url, 'tools/list', {}), await modern(proxy.url, 'tools/list', {})].map((a) => a.upstream);
      expect(new Set(upstreams).size).toBe(2);
    } finally {
      await client.close();
      proxy.sticky = false;
    }
  }, 60_000);

  it('a schedule fires exactly once per slot across both hosts, also when the holder is killed', async () => {
    const bundleID = uuidv7();
    expect((await api(proxy.url, 'PUT', `/tools/bundles/${bundleID}`, { slug: 'jobs' })).status).toBeLessThan(300);
    const made = await api(
      proxy.url,
      'PUT',
      `/tools/bundles/${bundleID}/tools/tick/version/v1`,
      calcToolBody({ schedules: [{ cron: '* * * * *', timezone: 'Europe/Paris', args: { expression: '1+1' } }] }),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const toolID = made.body.toolID as string;
    const scheduleID = made.body.schedules[0].scheduleID as string;
    const fires = () => lines().filter((l) => l.fire && l.scheduleID === scheduleID);
    try {
      // The holder now: at start, a host whose loop stalls past the lease's time to live (loading
      // under load) loses the lease to the other one, as designed, so the first holder may not be it.
      const roleOf = (pid: number) => lines().findLast((l) => l.pid === pid && l.role)?.role;
      const holderPid = await until(
        'a holder with two fires',
        () => hosts.map((h) => h.child.pid!).find((pid) => roleOf(pid) === 'holder' && fires().filter((l) => l.pid === pid).length >= 2),
        40_000,
      );
      const holder = hosts.find((h) => h.child.pid === holderPid)!;
      const other = hosts.find((h) => h !== holder)!;
      const killedAt = Date.now();
      holder.child.kill('SIGKILL');
      const next = await until(
        'the other host holds the lease',
        () => lines().find((l) => l.role === 'holder' && l.pid === other.child.pid && l.at >= killedAt),
        20_000,
      );
      expect(next.at - killedAt).toBeLessThanOrEqual(15_000);
      await until('two fires of the new holder', () => fires().filter((l) => l.pid === other.child.pid).length >= 2, 40_000);
    } catch (e) {
      throw new Error(`${(e as Error).message}\nlines: ${JSON.stringify(lines())}`);
    }

    const ran = fires();
    // A slot that comes while this schedule's previous run is still going is claimed and recorded as
    // skipped (a schedule never runs twice at once): on a loaded machine, with minutes of 5 s, the
    // new holder's catch-up run can still be going at the next slot. Anything else is a failure.
    expect(ran.filter((l) => l.status !== 'ok' && l.status !== 'skipped')).toEqual([]);
    for (const pid of new Set(ran.map((l) => l.pid)))
      expect(ran.filter((l) => l.pid === pid && l.status === 'ok').length, `ok runs of ${pid}`).toBeGreaterThan(0);
    const times = ran.map((l) => Date.parse(l.fire!)).sort((a, b) => a - b);
    expect(new Set(times).size, 'no slot twice').toBe(times.length);
    const every = Array.from({ length: (times.at(-1)! - times[0]!) / 60_000 + 1 }, (_, i) => times[0]! + i * 60_000);
    expect(times, 'no slot lost').toEqual(every);
    expect(new Set(ran.map((l) => l.pid)).size).toBe(2);
    // What is on disk agrees: one claim per slot, one scheduled run in history per slot.
    expect(await claimedFires(dataDir, scheduleID)).toEqual(every.map((ms) => new Date(ms).toISOString()));
    const survivor = hosts.findIndex((h) => h.child.exitCode === null && h.child.signalCode === null);
    const history = (await api(direct(survivor), 'GET', `/tools/bundles/${bundleID}/tools/tick/version/v1/history?pageSize=1000`)).body;
    const scheduled = ((history.items ?? history) as { trigger?: string; invocationID: string; toolID: string; error?: { message: string } }[]).filter(
      (e) => e.trigger === 'schedule',
    );
    expect(scheduled.every((e) => e.toolID === toolID)).toBe(true);
    const skipped = new Set(ran.filter((l) => l.status === 'skipped').map((l) => l.invocationID));
    for (const e of scheduled.filter((x) => skipped.has(x.invocationID)))
      expect(e.error?.message).toMatch(/^skipped: the previous run of this schedule .* was still going/);
    expect(scheduled.map((e) => e.invocationID).sort()).toEqual(ran.map((l) => l.invocationID).sort());
  }, 150_000);
});
