/**
 * MCP and streamed output, with the SDK's client and `toolwright mcp` as a real process: a call
 * with a progressToken gets the tool's output as progress text while it runs (the upstream
 * holds its second half until the first reached the client), notifications/cancelled stops a
 * streaming run, and a run of the stdio server is stopped through the host's REST endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult, Progress } from '@modelcontextprotocol/client';
import { startHost, type TestHost } from '../../../helpers/host.js';
import type { LoopbackServer } from '../../../helpers/loopback-http.js';
import { setUpLiveTools, type LiveTools } from '../../../helpers/live-tools.js';

const BIN = join(import.meta.dirname, '../../../../bin/toolwright.js');

let h: TestHost;
let upstream: LoopbackServer;
let client: Client;
let releaseSecond: () => void;
let open: LiveTools['open'];

beforeAll(async () => {
  h = await startHost();
  ({ upstream, open, releaseSecond } = await setUpLiveTools(h));
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--data-dir', h.dataDir, 'mcp'], stderr: 'pipe' });
  client = new Client({ name: 'stream-agent', version: '1.0.0' });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await upstream?.close();
  await h?.close();
});

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  for (let waited = 0; !(await check()); waited += 25) {
    if (waited > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('MCP tools/call with streamed output', () => {
  it('sends the output as it arrives in progress messages, counting up, then the result', async () => {
    const progress: Progress[] = [];
    const call = client.callTool(
      { name: 'halves', arguments: {} },
      {
        onprogress: (p) => {
          progress.push(p);
          if (p.message?.includes('first line')) releaseSecond();
        },
      },
    );
    const result = (await call) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('first line\nsecond line\n');
    const messages = progress.map((p) => p.message ?? '');
    // The first piece came while the upstream still held the rest back: partial output, live.
    expect(messages[0]).toBe('first line\n');
    // The last one may race the result in the SDK's client (typescript-sdk#2580): never more, never out of order.
    expect('first line\nsecond line\n'.startsWith(messages.join(''))).toBe(true);
    const counts = progress.map((p) => p.progress);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(new Set(counts).size).toBe(counts.length);
  });

  it('notifications/cancelled stops a streaming run and its upstream request', async () => {
    const controller = new AbortController();
    let ticks = 0;
    const call = client.callTool(
      { name: 'forever', arguments: {} },
      {
        signal: controller.signal,
        onprogress: (p) => {
          ticks += (p.message ?? '').split('tick').length - 1;
          if (ticks >= 3) controller.abort();
        },
      },
    );
    await expect(call).rejects.toThrow();
    await until(() => open.size === 0);
  });

  it('a run of the stdio server is cancelled through the host: POST /tools/invocations/{id}/cancel', async () => {
    const dir = join(h.dataDir, 'invocations');
    // Runs that ended a moment ago may still be registered while their files go.
    const before = new Set(await readdir(dir).catch(() => []));
    const call = client.callTool({ name: 'forever', arguments: {} }, { onprogress: () => undefined });
    let invocationID = '';
    // The other process registered its run under <data>/invocations/: find it as a person's tool would.
    await until(async () => {
      for (const name of (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.json') && !before.has(n))) {
        const entry = JSON.parse(await readFile(join(dir, name), 'utf8').catch(() => '{}')) as { caller?: string; invocationID?: string };
        if (entry.caller === 'mcp:stream-agent' && entry.invocationID) invocationID = entry.invocationID;
      }
      return invocationID !== '';
    });
    const cancel = await h.api('POST', `/tools/invocations/${invocationID}/cancel`);
    expect(cancel.body).toEqual({ cancelled: true });
    const result = (await call) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/cancel/i);
    await until(() => open.size === 0);
    await until(async () => !(await readdir(dir)).some((n) => n.startsWith(invocationID)));
  });
});
