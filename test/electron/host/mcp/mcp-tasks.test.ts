/**
 * Long runs as tasks (the `io.modelcontextprotocol/tasks` extension) with the SDK's 2.x client
 * pinned to 2026-07-28, over the headless host's /mcp and over stdio (`toolwright mcp`, a real
 * process on the same data folder): a call started as a task, polled to its result, cancelled
 * and polled from another connection or another process, given an approval through
 * tasks/update, kept for its ttl and then gone. Results are checked against ext-tasks' own wire
 * schemas, so a shape the extension's client would refuse fails here too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readdir } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { CreateTaskResultV2Schema, DetailedTaskV2Schema, GetTaskResultV2Schema, TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-http.js';

const BIN = join(import.meta.dirname, '../../../../bin/toolwright.js');
const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };
const ASKS_FOR_TASKS = { extensions: { [TASKS_EXTENSION_ID_V2]: {} } };

let h: TestHost;
let upstream: LoopbackServer;
let bundleID: string;
/** Requests to /wait the upstream has received, and seen end (answered or dropped by the caller). */
let waitsStarted = 0;
let waitsEnded = 0;

beforeAll(async () => {
  h = await startHost();
  upstream = await startLoopbackServer();
  upstream.route('/wait', async (req, res) => {
    const ms = Number(req.query.get('ms'));
    waitsStarted++;
    let gone = false;
    res.on('close', () => {
      gone = true;
      waitsEnded++;
    });
    const deadline = Date.now() + ms;
    while (!gone && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    if (!gone) sendJson(res, 200, { waited: ms });
  });
  await h.api('PATCH', '/tools/config', { allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true, approvalTimeoutSeconds: 30 });
  bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'ops', displayName: 'Ops' });
  const slow = await h.api('PUT', `/tools/bundles/${bundleID}/tools/slow/version/v1`, {
    type: 'http',
    displayName: 'Slow',
    impl: { method: 'GET', urlTemplate: upstream.url('/wait') + '?ms=${ms}', timeoutMs: 60_000 },
    argSchema: { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] },
    outputSchema: { type: 'object', properties: { waited: { type: 'integer' } } },
  });
  expect(slow.status).toBe(201);
  await h.api('PUT', `/tools/bundles/${bundleID}/tools/wipe/version/v1`, {
    type: 'function',
    displayName: 'Wipe',
    safety: 'privileged',
    impl: { function: 'core.uuid' },
    argSchema: { type: 'object', properties: { count: { type: 'integer' } } },
  });
  const other = uuidv7();
  await h.api('PUT', `/tools/bundles/${other}`, { slug: 'other', displayName: 'Other' });
  await h.api('PUT', `/tools/bundles/${other}/tools/peek/version/v1`, {
    type: 'function',
    displayName: 'Peek',
    impl: { function: 'core.uuid' },
    argSchema: { type: 'object', properties: {} },
  });
}, 60_000);

afterAll(async () => {
  await upstream?.close();
  await h?.close();
});

async function httpClient(name: string, query = '', capabilities: Record<string, unknown> = ASKS_FOR_TASKS): Promise<Client> {
  const client = new Client({ name, version: '1' }, { capabilities, ...MODERN });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${h.url}/mcp${query}`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }),
  );
  return client;
}

const TASK_CLIENT_META = (capabilities: Record<string, unknown>) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw-task-agent', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

type RawAnswer = { result?: Record<string, unknown>; error?: { code: number; message: string } };

/**
 * tools/call on the raw wire: the SDK's 2.x client refuses a `resultType: "task"` answer
 * ("Unsupported result type 'task' for tools/call"), so the call that starts a task is sent as the
 * extension's own client sends it; tasks/get, update and cancel go through the SDK client.
 */
async function rawHttp(
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = ASKS_FOR_TASKS,
  query = '',
): Promise<RawAnswer> {
  const name = (params['name'] ?? params['taskId']) as string | undefined;
  const res = await fetch(`${h.url}/mcp${query}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${h.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: TASK_CLIENT_META(capabilities) } }),
  });
  const text = await res.text();
  return JSON.parse(text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? 'null')) as RawAnswer;
}

async function startTask(name: string, args: Record<string, unknown>, capabilities?: Record<string, unknown>) {
  const answer = await rawHttp('tools/call', { name, arguments: args }, capabilities);
  expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
  return CreateTaskResultV2Schema.parse(answer.result);
}

/** `toolwright mcp` as a real process, spoken to line by line in the 2026 era (no handshake). */
function rawStdio() {
  const child = spawn(process.execPath, [BIN, '--data-dir', h.dataDir, 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const waiting = new Map<number, (answer: RawAnswer) => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as RawAnswer & { id?: number };
    if (typeof message.id === 'number') waiting.get(message.id)?.(message);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let nextID = 0;
  return {
    exited,
    request(method: string, params: Record<string, unknown>): Promise<RawAnswer> {
      const id = ++nextID;
      const answer = new Promise<RawAnswer>((resolve) => waiting.set(id, resolve));
      child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: TASK_CLIENT_META(ASKS_FOR_TASKS) } }) + '\n');
      return answer;
    },
    /** The agent goes away: its end of stdin closes. */
    disconnect: () => child.stdin!.end(),
    kill: () => child.kill(),
  };
}

// The SDK client hands results on without their resultType; the raw wire is checked with GetTaskResultV2Schema below.
const getTask = (client: Client, taskId: string) => client.request({ method: 'tasks/get', params: { taskId } }, DetailedTaskV2Schema);
const Anything = DetailedTaskV2Schema.catch({} as never);
const cancelTask = (client: Client, taskId: string) => client.request({ method: 'tasks/cancel', params: { taskId } }, Anything);

async function pollUntil(client: Client, taskId: string, done: (status: string) => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await getTask(client, taskId);
    if (done(task.status)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${task.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const finished = (s: string) => s === 'completed' || s === 'failed' || s === 'cancelled';

async function historyOf(slug: string): Promise<{ status: string; caller?: string }[]> {
  return (await h.api('GET', `/tools/bundles/${bundleID}/tools/${slug}/version/v1/history`)).body.items;
}

const textOf = (r: unknown) => (r as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('tasks over Streamable HTTP', () => {
  it('starts a slow call as a task when the client asks for one, and tasks/get polls it to its result', async () => {
    const client = await httpClient('task-agent');
    try {
      const before = (await historyOf('slow')).length;
      const created = await startTask('slow', { ms: 600 });
      expect(created).toMatchObject({ resultType: 'task', status: 'working' });
      expect(created.ttlMs).toBeGreaterThan(0);
      const done = await pollUntil(client, created.taskId, finished);
      expect(done.status).toBe('completed');
      if (done.status !== 'completed') return;
      expect(done.result).toMatchObject({ structuredContent: { waited: 600 } });
      expect((await historyOf('slow')).length - before).toBe(1);
      expect(GetTaskResultV2Schema.parse((await rawHttp('tasks/get', { taskId: created.taskId })).result)).toMatchObject({
        resultType: 'complete',
        status: 'completed',
      });
      // A client that did not ask for tasks still gets its answer inline.
      const plain = await httpClient('plain-agent', '', {});
      try {
        const inline = await plain.callTool({ name: 'slow', arguments: { ms: 10 } });
        expect((inline as CallToolResult).structuredContent).toMatchObject({ waited: 10 });
      } finally {
        await plain.close();
      }
    } finally {
      await client.close();
    }
  }, 30_000);

  it('answers the task at once and the run goes on with no connection left open; another client polls it to its result', async () => {
    const started = Date.now();
    const created = await startTask('slow', { ms: 1200 });
    expect(Date.now() - started).toBeLessThan(1000);
    const other = await httpClient('comes-later');
    try {
      const done = await pollUntil(other, created.taskId, finished);
      expect(done).toMatchObject({ status: 'completed', result: { structuredContent: { waited: 1200 } } });
    } finally {
      await other.close();
    }
  }, 30_000);

  it('answers unknown ids, ids of another audience and a cancel of a finished task with a clear error', async () => {
    const client = await httpClient('bad-input');
    const scoped = await httpClient('scoped', '?bundles=other');
    try {
      await expect(getTask(client, 'no-such-task')).rejects.toThrow(/Unknown task no-such-task/);
      await expect(cancelTask(client, uuidv7())).rejects.toThrow(/Unknown task/);
      const created = await startTask('slow', { ms: 10 });
      await expect(getTask(scoped, created.taskId)).rejects.toThrow(/another MCP audience/);
      await expect(cancelTask(scoped, created.taskId)).rejects.toThrow(/another MCP audience/);
      await pollUntil(client, created.taskId, finished);
      await expect(cancelTask(client, created.taskId)).rejects.toThrow(/already completed.*cannot be cancelled/);
      expect((await getTask(client, created.taskId)).status).toBe('completed');
    } finally {
      await client.close();
      await scoped.close();
    }
  }, 30_000);

  it('asks for an approval as an input_required task; tasks/update with the yes runs the tool once, a replay runs nothing', async () => {
    const client = await httpClient('approver');
    try {
      const before = (await historyOf('wipe')).length;
      const created = await startTask('wipe', { count: 1 }, { ...ASKS_FOR_TASKS, elicitation: {} });
      const asking = await pollUntil(client, created.taskId, (s) => s !== 'working');
      expect(asking.status).toBe('input_required');
      if (asking.status !== 'input_required') return;
      expect(asking.inputRequests['approve']).toMatchObject({ method: 'elicitation/create', params: { message: expect.stringMatching(/Wipe/) } });
      // The app's panel lists it like any other approval.
      expect((await h.api('GET', '/tools/approvals')).body.items).toHaveLength(1);
      const answer = { approve: { action: 'accept', content: { confirm: true } } };
      await client.request({ method: 'tasks/update', params: { taskId: created.taskId, inputResponses: answer } }, Anything);
      await expect(client.request({ method: 'tasks/update', params: { taskId: created.taskId, inputResponses: answer } }, Anything)).rejects.toThrow(/already/);
      const done = await pollUntil(client, created.taskId, finished);
      expect(done.status, JSON.stringify(done)).toBe('completed');
      const after = await historyOf('wipe');
      expect(after.length - before).toBe(1);
      expect(after[0]).toMatchObject({ status: 'ok', caller: 'mcp:raw-task-agent' });
      expect((await h.api('GET', '/tools/approvals')).body.items).toEqual([]);
    } finally {
      await client.close();
    }
  }, 30_000);

  it('runs a pipeline as a task and cancels it by task id in the middle of its step', async () => {
    const put = await h.api('PUT', `/tools/bundles/${bundleID}/tools/chain/version/v1`, {
      type: 'pipeline',
      displayName: 'Chain',
      argSchema: { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] },
      impl: { steps: [{ id: 'wait', tool: { slug: 'slow', version: 'v1' }, args: { ms: '${input.ms}' } }], output: '${steps.wait.value}' },
    });
    expect(put.status).toBe(201);
    const client = await httpClient('pipeline-agent');
    try {
      const quick = await startTask('chain', { ms: 50 });
      expect(await pollUntil(client, quick.taskId, finished)).toMatchObject({
        status: 'completed',
        result: { content: [{ text: expect.stringContaining('50') }] },
      });
      const startedBefore = waitsStarted;
      const long = await startTask('chain', { ms: 20_000 });
      await expect.poll(() => waitsStarted).toBe(startedBefore + 1); // in the middle of its step
      await cancelTask(client, long.taskId);
      expect((await pollUntil(client, long.taskId, finished, 5000)).status).toBe('cancelled');
      await expect
        .poll(async () => (await h.api('GET', `/tools/bundles/${bundleID}/tools/chain/version/v1/history`)).body.items[0]?.status, { timeout: 5000 })
        .toBe('cancelled');
    } finally {
      await client.close();
    }
  }, 30_000);

  it('keeps a finished task for its ttl, then removes it', async () => {
    await h.api('PATCH', '/tools/config', { taskResultTtlSeconds: 1 });
    const client = await httpClient('ttl');
    try {
      const startedAt = Date.now();
      const created = await startTask('slow', { ms: 10 });
      expect(created.ttlMs).toBe(1000);
      expect((await pollUntil(client, created.taskId, finished)).status).toBe('completed');
      // Asked until it is gone (not a fixed wait past the ttl), and gone no sooner than its ttl.
      const answer = () =>
        getTask(client, created.taskId).then(
          (task) => task.status,
          (e: unknown) => String(e),
        );
      await expect.poll(answer).toMatch(/Unknown task .*expired/);
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1000);
      expect((await readdir(join(h.dataDir, 'tasks'))).filter((n) => n.startsWith(created.taskId))).toEqual([]);
    } finally {
      await h.api('PATCH', '/tools/config', { taskResultTtlSeconds: 3600 });
      await client.close();
    }
  }, 30_000);
});

describe('tasks across processes (toolwright mcp over stdio beside the host)', () => {
  it('cancels a run of the host from another process by task id: the run stops, the task says cancelled, it ran once', async () => {
    const starter = await httpClient('starter');
    const stdio = rawStdio();
    try {
      const endedBefore = waitsEnded;
      const before = (await historyOf('slow')).length;
      // The other process is up (and answers an unknown id as such) before the run starts.
      expect((await stdio.request('tasks/get', { taskId: 'not-yet' })).error?.message).toMatch(/Unknown task not-yet/);
      const startedBefore = waitsStarted;
      const created = await startTask('slow', { ms: 60_000 });
      await expect.poll(() => waitsStarted).toBe(startedBefore + 1); // running
      expect(await stdio.request('tasks/cancel', { taskId: created.taskId })).toMatchObject({ result: { resultType: 'complete' } });
      const done = await pollUntil(starter, created.taskId, finished, 5000);
      expect(done.status).toBe('cancelled');
      // The upstream saw its request dropped: the run really stopped, not just the record.
      await expect.poll(() => waitsEnded - endedBefore, { timeout: 5000 }).toBe(1);
      await expect.poll(async () => (await historyOf('slow')).length - before, { timeout: 5000 }).toBe(1);
      expect((await historyOf('slow'))[0]?.status).toBe('cancelled');
      expect((await stdio.request('tasks/cancel', { taskId: created.taskId })).error?.message).toMatch(/already cancelled/);
    } finally {
      await starter.close();
      stdio.kill();
    }
  }, 60_000);

  it('a task started over stdio goes on after the agent disconnects, and the host answers for it', async () => {
    const stdio = rawStdio();
    const started = await stdio.request('tools/call', { name: 'slow', arguments: { ms: 1500 } });
    const created = CreateTaskResultV2Schema.parse(started.result);
    stdio.disconnect();
    const client = await httpClient('stdio-poller');
    try {
      expect((await getTask(client, created.taskId)).status).toBe('working');
      const done = await pollUntil(client, created.taskId, finished);
      expect(done).toMatchObject({ status: 'completed', result: { structuredContent: { waited: 1500 } } });
      expect(textOf((done as { result: unknown }).result)).toContain('1500');
      // The stdio server left once its task was done, on its own.
      expect(await stdio.exited).toBe(0);
    } finally {
      stdio.kill();
      await client.close();
    }
  }, 60_000);
});
