/**
 * A one-shot command that reached an upstream over HTTP ends when its work is done (issue 32,
 * point 7): `add-server`, `run` and `sync` are real `toolwright` processes against real
 * Streamable HTTP servers of the SDK's that keep their streams open — a 2025-era session's GET
 * stream, a 2026-era `subscriptions/listen` stream. Each process exits by itself with code 0,
 * says nothing of the streams it closed on its way out, and leaves no stream open at the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { runToolwright, type ToolwrightRun } from '../../../../helpers/procs.js';
import { tempDir } from '../../../../helpers/store.js';
import { startStreamingMcpServer, type StreamingMcpServer } from '../../../../helpers/streaming-mcp-server.js';

let dataDir: string;
const servers: Record<string, StreamingMcpServer> = {};

beforeAll(async () => {
  dataDir = await tempDir('tw-one-shot-');
  servers['legacy'] = await startStreamingMcpServer({ eras: '2025' });
  servers['modern'] = await startStreamingMcpServer({ eras: 'both' });
});

afterAll(async () => {
  for (const s of Object.values(servers)) await s.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The command to its end; a bound far above its work, so only a process that does not end fails it. */
async function command(args: string[]): Promise<ToolwrightRun> {
  const run = await Promise.race([
    runToolwright(dataDir, args),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`toolwright ${args.join(' ')} did not exit within 120 s`)), 120_000).unref()),
  ]);
  expect(run.code, `toolwright ${args.join(' ')}\n${run.stdout}${run.stderr}`).toBe(0);
  return run;
}

describe('a one-shot command on an HTTP upstream', () => {
  it.each([
    ['legacy', 'GET'],
    ['modern', 'POST subscriptions/listen'],
  ] as const)(
    'against a server that keeps its %s streams open: add-server, run and sync each exit, quietly, closing the stream',
    async (slug, stream) => {
      const server = servers[slug]!;
      const runs = [await command(['add-server', slug, '--url', server.url])];
      await command(['enable', `${slug}/echo`]);
      runs.push(await command(['run', `${slug}/echo`, '--args', '{"message":"hello"}']));
      expect(runs.at(-1)!.stdout.trim()).toBe('hello');
      runs.push(await command(['sync', slug]));
      expect(server.requests, 'the client opened the stream the server keeps open').toContain(stream);
      for (const run of runs) expect(run.stderr, 'nothing said of the streams closed on the way out').toBe('');
      await expect.poll(() => server.openStreams(), { timeout: 10_000 }).toBe(0);
    },
    400_000,
  );
});
