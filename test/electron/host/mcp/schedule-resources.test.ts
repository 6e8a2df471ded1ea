/**
 * Schedule outputs as MCP resources, with the official SDK's client: over stdio (`toolwright mcp`,
 * a separate process), the latest output of a schedule is listed, read, and subscribed to; a run
 * made by another process (this one, through REST) reaches the subscriber as
 * notifications/resources/updated through the watched scheduler folder. The prompt
 * schedule-outputs puts the outputs into a conversation; over HTTP the same resources follow the
 * switches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';

const ROOT = join(import.meta.dirname, '../../../..');
const BIN = join(ROOT, 'bin/toolwright.js');

let h: TestHost;
let bundleID: string;
let scheduleID: string;
let hidden: string;
const uri = (id: string) => `toolwright://schedules/${id}/latest`;
// The list also holds the ui:// card apps of the tools with a card (card-apps.test.ts).
const scheduleUris = (resources: { uri: string }[]) => resources.map((r) => r.uri).filter((u) => u.startsWith('toolwright://schedules/'));

beforeAll(async () => {
  h = await startHost();
  bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'news' });
  // Once a year: nothing fires by itself while the test runs; runs come from "Run now".
  const digest = await h.api('PUT', `/tools/bundles/${bundleID}/tools/digest/version/v1`, {
    type: 'function',
    displayName: 'Digest',
    impl: { function: 'core.calc' },
    argSchema: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
    schedules: [{ cron: '0 6 1 1 *', timezone: 'Europe/Malta', args: { expression: '40+2' } }],
  });
  expect(digest.status).toBe(201);
  scheduleID = digest.body.schedules[0].scheduleID;
  const off = await h.api('PUT', `/tools/bundles/${bundleID}/tools/hidden/version/v1`, {
    type: 'function',
    isEnabled: false,
    impl: { function: 'core.calc' },
    argSchema: { type: 'object', properties: { expression: { type: 'string' } } },
    schedules: [{ cron: '0 6 1 1 *', args: { expression: '1' } }],
  });
  hidden = off.body.schedules[0].scheduleID;
}, 60_000);

afterAll(() => h.close());

async function readJson(client: Client, u: string): Promise<any> {
  const [content] = (await client.readResource({ uri: u })).contents;
  expect(content).toMatchObject({ uri: u, mimeType: 'application/json' });
  return JSON.parse((content as { text: string }).text);
}

function next<T>(register: (resolve: (v: T) => void) => void, what: string, timeoutMs = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${what}`)), timeoutMs);
    register((v) => {
      clearTimeout(timer);
      resolve(v);
    });
  });
}

describe('schedule outputs over MCP stdio (another process runs the schedule)', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'context-agent', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--data-dir', h.dataDir, 'mcp'], stderr: 'pipe' }));
  }, 60_000);
  afterAll(() => client.close());

  it('announces resources with subscribe, and prompts', () => {
    expect(client.getServerCapabilities()).toMatchObject({ resources: { subscribe: true, listChanged: true }, prompts: {} });
  });

  it('lists the latest output of each schedule of the tools it may see, and reads it before and after a run, after a subscription update', async () => {
    const { resources } = await client.listResources();
    expect(scheduleUris(resources)).toEqual([uri(scheduleID)]); // the switched-off tool's schedule is not visible
    expect(resources.find((r) => r.uri === uri(scheduleID))).toMatchObject({
      mimeType: 'application/json',
      title: 'Digest: At 06:00, on day 1 of the month, only in January (Europe/Malta)',
    });
    const before = await readJson(client, uri(scheduleID));
    expect(before).toMatchObject({
      schedule: { scheduleID, cron: '0 6 1 1 *', timezone: 'Europe/Malta', isEnabled: true },
      tool: { name: 'digest' },
      latest: null,
    });
    expect(before.schedule.nextRunAt).toMatch(/-01-01T05:00:00\.000Z$/);

    await client.subscribeResource({ uri: uri(scheduleID) });
    const updated = next<string>(
      (resolve) => client.setNotificationHandler('notifications/resources/updated', (n) => resolve(n.params.uri)),
      'resources/updated',
    );
    const run = await h.api('POST', `/tools/schedules/${scheduleID}/run`, {});
    expect(run.status).toBe(200);
    expect(await updated).toBe(uri(scheduleID));

    const after = await readJson(client, uri(scheduleID));
    expect(after.latest).toEqual({
      ranAt: expect.any(String),
      fireAt: null,
      status: 'ok',
      durationMs: expect.any(Number),
      value: { expression: '40+2', text: '42', value: 42 },
    });
    await client.unsubscribeResource({ uri: uri(scheduleID) });
  });

  it('refuses resources it may not see', async () => {
    await expect(client.readResource({ uri: uri(hidden) })).rejects.toThrow(/Resource not found/);
    await expect(client.readResource({ uri: 'toolwright://schedules/nope/latest' })).rejects.toThrow(/Resource not found/);
  });

  it('the prompt schedule-outputs puts chosen outputs into the conversation, and completes schedule names', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['schedule-outputs']);
    const got = await client.getPrompt({ name: 'schedule-outputs', arguments: { schedules: 'digest' } });
    const text = got.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('');
    expect(text).toMatch(
      /## Digest \(news\/digest@v1\): At 06:00, on day 1 of the month, only in January \(Europe\/Malta\)\nRan .* \(ok, \d+ ms\):\n[\s\S]*"value": 42/,
    );
    await expect(client.getPrompt({ name: 'schedule-outputs', arguments: { schedules: 'weather' } })).rejects.toThrow(
      /No schedule you may see is called weather; scheduled tools: digest/,
    );
    const done = await client.complete({ ref: { type: 'ref/prompt', name: 'schedule-outputs' }, argument: { name: 'schedules', value: 'dig' } });
    expect(done.completion.values).toEqual(['digest']);
  });
});

describe('schedule outputs over MCP HTTP', () => {
  it('the resource list follows the switches (list_changed), like tools/list', async () => {
    const client = new Client({ name: 'http-agent', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }));
    try {
      expect(scheduleUris((await client.listResources()).resources)).toEqual([uri(scheduleID)]);
      await new Promise((r) => setTimeout(r, 300)); // the GET stream opens after initialisation
      const changed = next<void>((resolve) => client.setNotificationHandler('notifications/resources/list_changed', () => resolve()), 'resources/list_changed');
      await h.api('PATCH', `/tools/bundles/${bundleID}/tools/hidden/version/v1`, { isEnabled: true });
      await changed;
      expect(scheduleUris((await client.listResources()).resources).sort()).toEqual([uri(scheduleID), uri(hidden)].sort());
    } finally {
      await client.close();
    }
  });
});
