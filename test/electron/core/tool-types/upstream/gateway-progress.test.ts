/**
 * An upstream server's progress, passed on as it was sent (issue 32, point 1): the reference
 * server `@modelcontextprotocol/server-everything`'s trigger-long-running-operation sends
 * `notifications/progress` with `progress` and `total` and no `message`, as most servers do. A
 * streamed REST call gets each as a `progress` event; an MCP agent that sent a progressToken gets
 * each as a progress notification of its own request (both protocol eras), so a long upstream
 * call gives it something to reset its request timeout on. A server that does send messages
 * (the test's own file-tools server) has each reach the agent once, with its progress.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { Client, StreamableHTTPClientTransport, type CallToolResult, type Progress } from '@modelcontextprotocol/client';
import { startHost, type TestHost } from '../../../../helpers/host.js';
import { postSse } from '../../../../helpers/sse.js';

const FIXTURE = join(import.meta.dirname, '../../../../fixtures/mcp/file-tools-server.mjs');
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const STEPS = 4;
/** Short steps: the test waits for the notifications, not the clock. */
const ARGS = { duration: 0.4, steps: STEPS };

let h: TestHost;
let bundleID: string;
let slug: string;

beforeAll(async () => {
  h = await startHost();
  bundleID = uuidv7();
  const put = await h.api('PUT', `/tools/bundles/${bundleID}`, {
    slug: 'everything',
    source: { kind: 'mcp', transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(201);
  const sync = await h.api('POST', `/tools/bundles/${bundleID}/sync`);
  expect(sync.status, JSON.stringify(sync.body)).toBe(200);
  slug = sync.body.added.find((a: { name: string }) => a.name === 'trigger-long-running-operation').slug;
  const enabled = await h.api('PATCH', `/tools/bundles/${bundleID}/tools/${slug}/version/v1`, { isEnabled: true });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
}, 60_000);

async function connectAgent(name: string, options: ConstructorParameters<typeof Client>[1] = {}): Promise<Client> {
  const client = new Client({ name, version: '1' }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }));
  return client;
}

afterAll(async () => {
  await h?.close();
});

const expected = Array.from({ length: STEPS }, (_, i) => ({ progress: i + 1, total: STEPS }));

describe("an upstream server's progress", () => {
  it('reaches a streamed REST call as progress events, one per notification, before the result', async () => {
    const { status, events } = await postSse(`${h.url}/tools/bundles/${bundleID}/tools/${slug}/version/v1/invoke?stream=true`, h.token, { args: ARGS });
    expect(status).toBe(200);
    const progress = events.filter((e) => e.event === 'progress').map((e) => e.data);
    // The server's last one may race its result in the SDK's client (typescript-sdk#2580): never more, never out of order.
    expect(progress.length).toBeGreaterThanOrEqual(STEPS - 1);
    expect(progress).toEqual(expected.slice(0, progress.length));
    // A progress without a message is no output: no chunk stands for it.
    expect(events.filter((e) => e.event === 'chunk')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ event: 'result', data: { ok: true } });
  }, 30_000);

  for (const era of [
    { label: '2025-11-25', options: {} },
    { label: '2026-07-28', options: { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } },
  ]) {
    it(`reaches an MCP ${era.label} agent that sent a progressToken, each with progress and total as sent`, async () => {
      const client = await connectAgent(`progress-${era.label}`, era.options);
      try {
        const { tools } = await client.listTools();
        const name = tools.find((t) => t.name.includes('long-running'))?.name;
        expect(name, tools.map((t) => t.name).join(', ')).toBeDefined();
        const progress: Progress[] = [];
        const result = (await client.callTool({ name: name!, arguments: ARGS }, { onprogress: (p) => progress.push(p) })) as CallToolResult;
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        // The last one may race the result in the SDK's client (typescript-sdk#2580): never more, never out of order.
        expect(progress.length).toBeGreaterThanOrEqual(STEPS - 1);
        expect(progress).toEqual(expected.slice(0, progress.length));
      } finally {
        await client.close();
      }
    }, 30_000);
  }

  it("passes a server's progress messages to an MCP agent once each, with their progress", async () => {
    const tools = join(h.dataDir, 'file-tools.json');
    await writeFile(
      tools,
      JSON.stringify({
        tools: [{ name: 'slow', description: 'Counts to a hundred', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } }],
      }),
    );
    const id = uuidv7();
    await h.api('PUT', `/tools/bundles/${id}`, {
      slug: 'files',
      source: { kind: 'mcp', transport: 'stdio', command: process.execPath, args: [FIXTURE, tools, join(h.dataDir, 'calls.log')] },
    });
    const sync = await h.api('POST', `/tools/bundles/${id}/sync`);
    expect(sync.status, JSON.stringify(sync.body)).toBe(200);
    await h.api('PATCH', `/tools/bundles/${id}/tools/slow/version/v1`, { isEnabled: true });
    const client = await connectAgent('progress-messages');
    try {
      const name = (await client.listTools()).tools.find((t) => t.name.includes('slow'))!.name;
      const progress: Progress[] = [];
      const stop = new AbortController();
      const call = client.callTool({ name, arguments: {} }, { signal: stop.signal, onprogress: (p) => progress.push(p) === 3 && stop.abort() });
      await expect(call).rejects.toThrow();
      // The message came as progress and as a line of output: the agent hears it once.
      expect(progress.slice(0, 3)).toEqual([1, 2, 3].map((i) => ({ progress: i, message: `step ${i}` })));
    } finally {
      await client.close();
    }
  }, 30_000);
});
