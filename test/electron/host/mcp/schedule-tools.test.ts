/**
 * Agents manage schedules (issue 35 point 6) through the built-in `schedules` bundle, over real
 * MCP: the SDK's client of both eras against a real host, at a profile's address with its own
 * tokens. Off until a person switches the bundle on; schedule-create is privileged (the person
 * approves, through elicitation here); each principal sees and changes only the schedules it
 * created, and another's is answered exactly as an ID that never existed; the host's owner sees all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';

const SCHEDULES_BUNDLE = '0190a000-0000-7000-8000-00000000c1e0';
const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };

let h: TestHost;
let opsBundle: string;
let tokenA: string;
let tokenB: string;
const clients: Client[] = [];
/** How the person answers the next approval form, and how many forms were shown. */
let answer: 'accept' | 'decline' = 'accept';
let asked = 0;

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

async function connect(name: string, token: string, path: string, era: 'modern' | 'legacy'): Promise<Client> {
  const client = new Client({ name, version: '1' }, { capabilities: { elicitation: {} }, ...(era === 'modern' ? MODERN : {}) });
  client.setRequestHandler('elicitation/create', async () => {
    asked++;
    return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(h.url + path), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

beforeAll(async () => {
  h = await startHost();
  await h.api('PATCH', '/tools/config', { approvalTimeoutSeconds: 30 });
  opsBundle = uuidv7();
  const secretBundle = uuidv7();
  await h.api('PUT', `/tools/bundles/${opsBundle}`, { slug: 'ops', displayName: 'Ops' });
  await h.api('PUT', `/tools/bundles/${secretBundle}`, { slug: 'secret', displayName: 'Secret' });
  const fn = {
    type: 'function',
    displayName: 'Make IDs',
    impl: { function: 'core.uuid' },
    argSchema: { type: 'object', properties: { count: { type: 'integer' } } },
  };
  expect((await h.api('PUT', `/tools/bundles/${opsBundle}/tools/ids/version/v1`, fn)).status).toBe(201);
  expect((await h.api('PUT', `/tools/bundles/${secretBundle}/tools/vault/version/v1`, fn)).status).toBe(201);
  const profileID = uuidv7();
  const profile = await h.api('PUT', `/tools/profiles/${profileID}`, { slug: 'agents', bundles: [opsBundle, SCHEDULES_BUNDLE], mode: 'all' });
  expect(profile.status, JSON.stringify(profile.body)).toBeLessThan(300);
  tokenA = (await h.api('POST', `/tools/profiles/${profileID}/tokens`, { label: 'a' })).body.token;
  tokenB = (await h.api('POST', `/tools/profiles/${profileID}/tokens`, { label: 'b' })).body.token;
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await h?.close();
});

describe('the schedules bundle', () => {
  it('ships switched off; once a person switches it on, agents are offered its six tools with the seed’s safety tiers', async () => {
    const owner = await connect('owner-agent', h.token, '/mcp', 'legacy');
    const before = (await owner.listTools()).tools.map((t) => t.name);
    expect(before).not.toContain('schedule-search');
    expect((await h.api('GET', `/tools/bundles/${SCHEDULES_BUNDLE}`)).body).toMatchObject({ slug: 'schedules', isEnabled: false, isBuiltIn: true });

    expect((await h.api('PATCH', `/tools/bundles/${SCHEDULES_BUNDLE}`, { isEnabled: true })).status).toBe(200);
    const tools = (await owner.listTools()).tools;
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].filter((n) => n.startsWith('schedule-')).sort()).toEqual([
      'schedule-create',
      'schedule-delete',
      'schedule-edit',
      'schedule-run-output',
      'schedule-runs',
      'schedule-search',
    ]);
    expect(byName.get('schedule-create')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    for (const n of ['schedule-edit', 'schedule-delete']) expect(byName.get(n)!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    for (const n of ['schedule-search', 'schedule-runs', 'schedule-run-output']) expect(byName.get(n)!.annotations).toMatchObject({ readOnlyHint: true });
  });
});

describe('an agent manages its schedules over MCP', () => {
  let a: Client;
  let b: Client;
  let mine: string;

  beforeAll(async () => {
    await h.api('PATCH', `/tools/bundles/${SCHEDULES_BUNDLE}`, { isEnabled: true });
    a = await connect('agent-a', tokenA, '/mcp/p/agents', 'modern');
    b = await connect('agent-b', tokenB, '/mcp/p/agents', 'legacy');
  }, 30_000);

  it('creates a schedule only after a person approves, and nothing when the person declines', async () => {
    asked = 0;
    answer = 'decline';
    const no = await call(a, 'schedule-create', { tool: 'ids', everySeconds: 3600, args: { count: 100 }, name: 'declined' });
    expect(no.isError).toBe(true);
    expect(textOf(no)).toMatch(/declined/);
    expect(asked).toBe(1);
    expect((await h.api('GET', '/tools/schedules/search?text=declined')).body.total).toBe(0);

    answer = 'accept';
    const yes = await call(a, 'schedule-create', { tool: 'ids', everySeconds: 3600, args: { count: 100 }, name: 'hourly ids' });
    expect(yes.isError, textOf(yes)).toBeFalsy();
    expect(asked).toBe(2);
    expect(yes.structuredContent).toMatchObject({ tool: 'ops/ids@v1', state: 'active', cadence: 'interval', name: 'hourly ids', createdBy: 'mcp:agent-a' });
    mine = (yes.structuredContent as { scheduleID: string }).scheduleID;
    const stored = (await h.api('GET', `/tools/bundles/${opsBundle}/tools/ids/version/v1`)).body.schedules;
    expect(stored).toEqual([{ scheduleID: mine, name: 'hourly ids', everySeconds: 3600, args: { count: 100 }, isEnabled: true }]);
  }, 60_000);

  it('refuses, before anything is written, a bad cadence, a one-off in the past, and a tool its address does not offer', async () => {
    answer = 'accept';
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ tool: 'ids', cron: '99 * * * *' }, /cron/],
      [{ tool: 'ids', at: '2021-03-04T05:06:07Z' }, /at: is in the past/],
      [{ tool: 'secret/vault@v1', everySeconds: 3600 }, /no tool 'secret\/vault@v1' you may schedule/],
      [{ tool: 'vault', everySeconds: 3600 }, /no tool 'vault' you may schedule/],
    ];
    for (const [args, message] of cases) {
      const r = await call(a, 'schedule-create', args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(r)).toMatch(message);
    }
    expect((await h.api('GET', `/tools/bundles/${opsBundle}/tools/ids/version/v1`)).body.schedules).toHaveLength(1);
  }, 60_000);

  it('searches, pauses and resumes, reads runs and a run’s output in chunks', async () => {
    const found = await call(a, 'schedule-search', { text: 'hourly' });
    expect(found.structuredContent).toMatchObject({ total: 1, remaining: 0, items: [{ scheduleID: mine }] });
    expect((await call(a, 'schedule-edit', { scheduleID: mine, state: 'paused' })).structuredContent).toMatchObject({ state: 'paused' });
    expect((await call(a, 'schedule-search', { state: 'paused' })).structuredContent).toMatchObject({ total: 1 });
    expect((await call(a, 'schedule-edit', { scheduleID: mine, state: 'active', everySeconds: 7200 })).structuredContent).toMatchObject({
      state: 'active',
      everySeconds: 7200,
    });

    // A person runs it now; the agent reads what it gave.
    const run = await h.api('POST', `/tools/schedules/${mine}/run`, {});
    expect(run.body.ok, JSON.stringify(run.body)).toBe(true);
    const runs = (await call(a, 'schedule-runs', { scheduleID: mine })).structuredContent as { items: { invocationID: string; outputChars: number }[] };
    expect(runs.items.map((r) => r.invocationID)).toEqual([run.body.invocationID]);
    let text = '';
    let offset: number | null = 0;
    let chunks = 0;
    while (offset !== null) {
      const chunk = (await call(a, 'schedule-run-output', { scheduleID: mine, invocationID: run.body.invocationID, offset, maxChars: 2000 }))
        .structuredContent as { text: string; nextOffset: number | null };
      text += chunk.text;
      offset = chunk.nextOffset;
      chunks++;
    }
    expect(chunks).toBeGreaterThan(1);
    expect(text.length).toBe(runs.items[0]!.outputChars);
    expect(JSON.parse(text)).toEqual(run.body.value);
  }, 60_000);

  it('refuses hostile paging: limit 10,000, a negative offset, maxChars out of 200–8,000', async () => {
    for (const [name, args] of [
      ['schedule-search', { limit: 10_000 }],
      ['schedule-search', { offset: -1 }],
      ['schedule-runs', { scheduleID: mine, limit: 51 }],
      ['schedule-run-output', { scheduleID: mine, invocationID: uuidv7(), maxChars: 100 }],
      ['schedule-run-output', { scheduleID: mine, invocationID: uuidv7(), maxChars: 9000 }],
    ] as const) {
      const r = await call(a, name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(r)).toMatch(/limit|offset|maxChars/);
    }
  });

  it("another principal's agent cannot see, edit, delete or read the schedule: answered as an ID that never existed", async () => {
    expect((await call(b, 'schedule-search', {})).structuredContent).toMatchObject({ total: 0, items: [] });
    const never = uuidv7();
    for (const [name, extra] of [
      ['schedule-edit', { state: 'paused' }],
      ['schedule-delete', {}],
      ['schedule-runs', {}],
      ['schedule-run-output', { invocationID: uuidv7() }],
    ] as const) {
      const theirs = await call(b, name, { scheduleID: mine, ...extra });
      const unknown = await call(b, name, { scheduleID: never, ...extra });
      expect(theirs.isError, name).toBe(true);
      expect(textOf(theirs).replaceAll(mine, '<id>'), name).toBe(textOf(unknown).replaceAll(never, '<id>'));
    }
    // Nothing changed: still active, still there.
    expect((await call(a, 'schedule-search', {})).structuredContent).toMatchObject({ total: 1, items: [{ scheduleID: mine, state: 'active' }] });
  });

  it("the host's owner sees every schedule, with who created it; the agent deletes its own", async () => {
    const all = (await h.api('GET', '/tools/schedules/search?text=hourly')).body;
    expect(all.items).toEqual([expect.objectContaining({ scheduleID: mine, createdBy: 'mcp:agent-a' })]);
    const gone = await call(a, 'schedule-delete', { scheduleID: mine });
    expect(gone.structuredContent).toEqual({ deleted: true, scheduleID: mine });
    expect((await h.api('GET', `/tools/bundles/${opsBundle}/tools/ids/version/v1`)).body.schedules ?? []).toEqual([]);
  });
});
