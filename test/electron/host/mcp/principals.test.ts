/**
 * What belongs to a principal is served to that principal alone (issue 31, point 1): a task, the
 * approval it waits on, an approval asked through an input_required round and a 2025 session are
 * bound to the credential whose call made them — the host's token, a profile's token, an OAuth
 * subject and client — and any other credential is answered exactly as for an id that never
 * existed, over the raw wire of both eras on one host with an authorization server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { startOAuthServer, type OAuthServer } from '../../../helpers/oauth-server.js';
import { loadOAuthIssuer } from '../../../../electron/host/oauth/issuer.js';

const SCOPES = 'toolwright:read toolwright:call toolwright:profile:narrow';
const ALICE = { clientId: 'alice-agent', secret: 'alice-secret-0123456789' };
const BOB = { clientId: 'bob-agent', secret: 'bob-secret-0123456789' };
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const TASKS_AND_FORMS = { ...TASKS, elicitation: {} };
const yes = { approve: { action: 'accept', content: { confirm: true } } };

let h: TestHost;
let as: OAuthServer;
let profileID: string;
let tokenA: string;
let tokenB: string;
let openBundle: string;

type Answer = { status: number; result?: Record<string, any>; error?: { code: number; message: string } };

/** One 2026-07-28 request, as a client of that era sends it. */
async function modern(
  path: string,
  token: string,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = TASKS,
): Promise<Answer> {
  const res = await fetch(h.url + path, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof (params['name'] ?? params['taskId']) === 'string' ? { 'mcp-name': (params['name'] ?? params['taskId']) as string } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'same-agent', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      },
    }),
  });
  const text = await res.text();
  const json = text.startsWith('{') ? JSON.parse(text) : JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? 'null');
  return { status: res.status, ...(json?.result ? { result: json.result } : {}), ...(json?.error ? { error: json.error } : {}) };
}

async function startTask(path: string, token: string, name: string, capabilities: Record<string, unknown> = TASKS): Promise<string> {
  const answer = await modern(path, token, 'tools/call', { name, arguments: {} }, capabilities);
  expect(answer.result, JSON.stringify(answer)).toMatchObject({ resultType: 'task' });
  return answer.result!['taskId'] as string;
}

async function waitFor(path: string, token: string, taskId: string, status: string): Promise<Record<string, any>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await modern(path, token, 'tasks/get', { taskId });
    if (answer.result?.['status'] === status) return answer.result;
    if (Date.now() > deadline) throw new Error(`task ${taskId}: ${JSON.stringify(answer)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What a request about a task answers, with the task's id put out of the way: to compare it with the answer about an id that never existed. */
async function aboutTask(path: string, token: string, method: string, taskId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const answer = await modern(path, token, method, { taskId, ...extra });
  return JSON.stringify({ status: answer.status, result: answer.result ?? null, error: answer.error ?? null }).replaceAll(taskId, '<id>');
}

/** Every way a principal may ask about a task, answered as for an unknown id. */
async function expectUnknown(path: string, token: string, taskId: string): Promise<void> {
  const never = uuidv7();
  for (const [method, extra] of [
    ['tasks/get', {}],
    ['tasks/cancel', {}],
    ['tasks/update', { inputResponses: yes }],
  ] as const) {
    const theirs = await aboutTask(path, token, method, taskId, extra);
    expect(theirs, method).toBe(await aboutTask(path, token, method, never, extra));
    expect(theirs, method).toMatch(/Unknown task <id>/);
  }
}

async function historyOf(slug: string): Promise<{ status: string; caller?: string }[]> {
  return (await h.api('GET', `/tools/bundles/${openBundle}/tools/${slug}/version/v1/history`)).body.items;
}

beforeAll(async () => {
  const resources = () => (h ? [`${h.url}/mcp`, `${h.url}/mcp/p/narrow`] : []);
  const clients = [ALICE, BOB].map((c) => ({ client_id: c.clientId, client_secret: c.secret, grant_types: ['client_credentials'], scope: SCOPES }));
  as = await startOAuthServer({ resources, scope: SCOPES, clients });
  h = await startHost({ oauth: await loadOAuthIssuer({ issuer: as.issuer }) });
  await h.api('PATCH', '/tools/config', { approvalTimeoutSeconds: 60 });
  openBundle = uuidv7();
  const secretBundle = uuidv7();
  const fn = (extra: Record<string, unknown> = {}) => ({
    type: 'function',
    displayName: 'Fn',
    impl: { function: 'core.uuid' },
    argSchema: { type: 'object', properties: {} },
    ...extra,
  });
  await h.api('PUT', `/tools/bundles/${openBundle}`, { slug: 'open', displayName: 'Open' });
  await h.api('PUT', `/tools/bundles/${secretBundle}`, { slug: 'secret', displayName: 'Secret' });
  expect((await h.api('PUT', `/tools/bundles/${openBundle}/tools/peek/version/v1`, fn())).status).toBe(201);
  expect((await h.api('PUT', `/tools/bundles/${openBundle}/tools/wipe/version/v1`, fn({ safety: 'privileged' }))).status).toBe(201);
  expect((await h.api('PUT', `/tools/bundles/${secretBundle}/tools/vault/version/v1`, fn())).status).toBe(201);
  profileID = uuidv7();
  expect((await h.api('PUT', `/tools/profiles/${profileID}`, { slug: 'narrow', bundles: [openBundle], mode: 'all' })).status).toBeLessThan(300);
  tokenA = (await h.api('POST', `/tools/profiles/${profileID}/tokens`, { label: 'a' })).body.token;
  tokenB = (await h.api('POST', `/tools/profiles/${profileID}/tokens`, { label: 'b' })).body.token;
  expect(tokenA && tokenB).toBeTruthy();
}, 90_000);

afterAll(async () => {
  await h?.close();
  await as?.close();
});

describe('tasks are their principal’s', () => {
  it("a profile's token cannot read, cancel or answer a task the host's token started on /mcp, for a tool outside the profile", async () => {
    const taskId = await startTask('/mcp', h.token, 'vault');
    const done = await waitFor('/mcp', h.token, taskId, 'completed');
    expect(done['result']).toBeDefined();
    await expectUnknown('/mcp/p/narrow', tokenA, taskId);
    // The host's own token at the profile's address is the same principal, at another audience: it is told where the task is.
    expect((await modern('/mcp/p/narrow', h.token, 'tasks/get', { taskId })).error?.message).toMatch(/another MCP audience/);
    expect((await modern('/mcp', h.token, 'tasks/get', { taskId })).result).toMatchObject({ status: 'completed' });
  });

  it("at one address, a task is the host token's or one profile token's, not the other token's", async () => {
    const hosts = await startTask('/mcp/p/narrow', h.token, 'peek');
    await waitFor('/mcp/p/narrow', h.token, hosts, 'completed');
    await expectUnknown('/mcp/p/narrow', tokenA, hosts);

    const byA = await startTask('/mcp/p/narrow', tokenA, 'peek');
    await waitFor('/mcp/p/narrow', tokenA, byA, 'completed');
    await expectUnknown('/mcp/p/narrow', tokenB, byA);
    await expectUnknown('/mcp/p/narrow', h.token, byA);
  });

  it('an OAuth subject’s task is not another subject’s, nor the host token’s', async () => {
    const alice = await as.clientCredentialsToken(ALICE, `${h.url}/mcp`, SCOPES);
    const bob = await as.clientCredentialsToken(BOB, `${h.url}/mcp`, SCOPES);
    const taskId = await startTask('/mcp', alice, 'peek');
    await waitFor('/mcp', alice, taskId, 'completed');
    await expectUnknown('/mcp', bob, taskId);
    await expectUnknown('/mcp', h.token, taskId);
  });

  it('the approval a task waits on is answered by its own principal only', async () => {
    const before = (await historyOf('wipe')).length;
    const taskId = await startTask('/mcp/p/narrow', h.token, 'wipe', TASKS_AND_FORMS);
    await waitFor('/mcp/p/narrow', h.token, taskId, 'input_required');
    await expectUnknown('/mcp/p/narrow', tokenA, taskId);
    expect((await modern('/mcp/p/narrow', h.token, 'tasks/get', { taskId })).result).toMatchObject({ status: 'input_required' });
    expect((await historyOf('wipe')).length).toBe(before);
    expect((await modern('/mcp/p/narrow', h.token, 'tasks/update', { taskId, inputResponses: yes })).error).toBeUndefined();
    await waitFor('/mcp/p/narrow', h.token, taskId, 'completed');
    expect((await historyOf('wipe')).length).toBe(before + 1);
  });
});

describe('approvals asked through an agent are their principal’s', () => {
  it("a profile's token cannot answer the input_required round the host's token was asked, with the same client name", async () => {
    const before = (await historyOf('wipe')).length;
    const first = await modern('/mcp/p/narrow', h.token, 'tools/call', { name: 'wipe', arguments: {} }, { elicitation: {} });
    expect(first.result).toMatchObject({ resultType: 'input_required' });
    const state = first.result!['requestState'] as string;
    const stolen = await modern(
      '/mcp/p/narrow',
      tokenA,
      'tools/call',
      { name: 'wipe', arguments: {}, inputResponses: yes, requestState: state },
      { elicitation: {} },
    );
    expect(stolen.result?.['isError'], JSON.stringify(stolen)).toBe(true);
    expect((await historyOf('wipe')).length).toBe(before);
    const own = await modern(
      '/mcp/p/narrow',
      h.token,
      'tools/call',
      { name: 'wipe', arguments: {}, inputResponses: yes, requestState: state },
      { elicitation: {} },
    );
    expect(own.result?.['isError'], JSON.stringify(own)).toBeFalsy();
    expect((await historyOf('wipe')).length).toBe(before + 1);
  });
});

describe('2025 sessions are their principal’s', () => {
  it("a profile's token cannot use a session the host's token began at the profile's address", async () => {
    const post = (token: string, body: unknown, session?: string) =>
      fetch(`${h.url}/mcp/p/narrow`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          ...(session ? { 'mcp-session-id': session } : {}),
        },
        body: JSON.stringify(body),
      });
    const init = await post(h.token, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'session-agent', version: '1' } },
    });
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    expect(session).toBeTruthy();
    await (await post(h.token, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const theirs = await post(tokenA, list, session);
    const never = await post(tokenA, list, 'no-such-session');
    expect(theirs.status).toBe(404);
    expect((await theirs.text()).replace(session, '<id>')).toBe((await never.text()).replace('no-such-session', '<id>'));
    const own = await post(h.token, list, session);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('"peek"');
  });
});
