/**
 * tools/call past the SDK Client's per-message work (direct-call.ts), against the tests' real
 * file-tools server over stdio, in both protocol eras: the same result as the Client's own call,
 * progress that resets the timeout, a timeout and a cancel that tell the server, a late answer
 * dropped quietly, and a 2026 question (`input_required`) left to the Client's flow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sdk from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { GroupStdioTransport } from '../../../../../electron/core/tool-types/upstream/stdio-transport.js';
import { callToolDirect, canCallDirect } from '../../../../../electron/core/tool-types/upstream/direct-call.js';
import type { ProgressUpdate } from '../../../../../shared/types.js';

const FIXTURE = join(import.meta.dirname, '../../../../fixtures/mcp/file-tools-server.mjs');
const TOOLS = ['echo', 'slow', 'ask'].map((name) => ({ name, inputSchema: { type: 'object', properties: {} } }));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tw-direct-call-'));
  await writeFile(join(dir, 'tools.json'), JSON.stringify({ tools: TOOLS }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each([
  ['2026-07-28', { mode: 'auto' as const }],
  ['2025-11-25', { mode: 'legacy' as const }],
])('a direct tools/call, %s', (era, versionNegotiation) => {
  let client: sdk.Client;
  let stdio: GroupStdioTransport;
  const sent: JSONRPCMessage[] = [];
  const clientErrors: Error[] = [];

  beforeAll(async () => {
    client = new sdk.Client({ name: 'direct-call-test', version: '1' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation } as never);
    stdio = new GroupStdioTransport(sdk, {
      command: process.execPath,
      args: [FIXTURE, join(dir, 'tools.json')],
      env: getDefaultEnvironment(),
      maxBufferSize: 1024 * 1024,
    });
    const send = stdio.send.bind(stdio);
    stdio.send = (m) => (sent.push(m), send(m));
    await client.connect(stdio);
    client.onerror = (e) => clientErrors.push(e);
    expect(client.getNegotiatedProtocolVersion()).toBe(era);
    expect(canCallDirect(client, stdio)).toBe(true);
  });
  afterAll(async () => {
    await client.close();
  });

  it('answers as the Client’s own call does, on a request in the era’s envelope', async () => {
    const args = { message: 'hello' };
    const direct = await callToolDirect(sdk, client, stdio, 'echo', args, { timeoutMs: 5000 });
    const viaClient = await client.callTool({ name: 'echo', arguments: args });
    expect(direct).toEqual(viaClient);
    expect(direct).toMatchObject({ structuredContent: { echo: args } });
    const request = sent.find((m) => 'id' in m && typeof m.id === 'string') as { params: { _meta?: Record<string, unknown> } };
    // The 2026 era carries its per-request envelope; 2025 carries none.
    expect(Object.keys(request.params._meta ?? {}).length > 0).toBe(era === '2026-07-28');
  });

  it('passes progress as sent and lets it reset the timeout; a cancel tells the server, and its late answer is dropped', async () => {
    const updates: ProgressUpdate[] = [];
    const abort = new AbortController();
    const call = callToolDirect(sdk, client, stdio, 'slow', {}, { timeoutMs: 250, signal: abort.signal, onProgress: (u) => updates.push(u) });
    // Progress every 100 ms keeps a 250 ms timeout from firing.
    await expect.poll(() => updates.length, { timeout: 5000 }).toBeGreaterThanOrEqual(5);
    expect(updates[0]).toMatchObject({ progress: 1, message: 'step 1' });
    abort.abort(new Error('stopped by the test'));
    await expect(call).rejects.toThrow('stopped by the test');
    const request = sent.findLast((m) => 'method' in m && m.method === 'tools/call') as { id: string };
    expect(sent.at(-1)).toMatchObject({ method: 'notifications/cancelled', params: { requestId: request.id } });
    // The server's answer to a cancelled call (and any progress still on its way) does not reach the Client.
    await new Promise((r) => setTimeout(r, 300));
    expect(clientErrors).toEqual([]);
    expect(await callToolDirect(sdk, client, stdio, 'echo', { n: 1 }, { timeoutMs: 5000 })).toMatchObject({ structuredContent: { echo: { n: 1 } } });
  });

  it('times out without progress, and tells the server', async () => {
    await expect(callToolDirect(sdk, client, stdio, 'slow', {}, { timeoutMs: 150 })).rejects.toThrow(/Request timed out/);
    expect(sent.at(-1)).toMatchObject({ method: 'notifications/cancelled' });
  });

  it.runIf(era === '2026-07-28')('leaves a server’s question (input_required) to the Client’s flow', async () => {
    expect(await callToolDirect(sdk, client, stdio, 'ask', {}, { timeoutMs: 5000 })).toBeUndefined();
  });
});
