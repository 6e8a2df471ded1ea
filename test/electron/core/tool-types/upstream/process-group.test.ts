/**
 * An upstream stdio server is stopped with everything it started (issue 31, point 5): a server
 * that never answers `initialize` fails its start after the timeout and leaves no process behind,
 * nor does a server that answers and is stopped while a helper of its own runs. The servers are
 * real processes (test/fixtures/mcp/hung-server.mjs) that ignore SIGTERM, read their stdin without
 * ever exiting on its end, and start a helper that does the same; the test reads their pids and
 * looks in /proc for every process of the server's group.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpstreamConnection } from '../../../../../electron/core/tool-types/upstream/connection.js';
import type { ResolvedSource } from '../../../../../electron/core/tool-types/upstream/source.js';
import type { Logger } from '../../../../../electron/core/log.js';

const HUNG = join(import.meta.dirname, '../../../../fixtures/mcp/hung-server.mjs');
const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

let dir: string;
let toolsFile: string;
const started: number[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tw-process-group-'));
  toolsFile = join(dir, 'tools.json');
  await writeFile(toolsFile, JSON.stringify({ tools: [{ name: 'echo', inputSchema: { type: 'object', properties: {} } }] }));
});

afterAll(async () => {
  // Whatever a failing run left is not left to the next test file.
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone, as it should be.
    }
  }
  await rm(dir, { recursive: true, force: true });
});

function connection(args: string[], startTimeoutMs: number): UpstreamConnection {
  const source: ResolvedSource = { transport: 'stdio', command: process.execPath, args, env: {} };
  return new UpstreamConnection({
    bundleID: 'group',
    source: () => source,
    startTimeoutMs,
    idleMs: () => 0,
    appVersion: '0.0.0',
    onToolsChanged: () => undefined,
    onStatus: () => undefined,
    log: quiet,
  });
}

/** A process still running: /proc has it and it is not a zombie waiting to be reaped. */
async function running(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The running processes whose process group is `pgid`. */
async function groupMembers(pgid: number): Promise<number[]> {
  const members: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(name));
    } catch {
      // It ended while the list was read.
    }
  }
  return members;
}

async function pidsOf(file: string): Promise<{ server: number; helper: number }> {
  const pids = JSON.parse(await readFile(file, 'utf8')) as { server: number; helper: number };
  started.push(pids.server, pids.helper);
  return pids;
}

/** What is still running of a server a moment after it was stopped (a generous bound: the machine may be loaded). */
async function leftOver(pids: { server: number; helper: number }): Promise<number[]> {
  const end = Date.now() + 10_000;
  for (;;) {
    const left = [
      ...new Set([
        ...(await groupMembers(pids.server)),
        ...((await running(pids.server)) ? [pids.server] : []),
        ...((await running(pids.helper)) ? [pids.helper] : []),
      ]),
    ];
    if (!left.length || Date.now() > end) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(process.platform !== 'linux')('an upstream stdio server is stopped with its whole process group', () => {
  it('a server that never answers initialize fails its start, and it and its helper are gone, at every retry', async () => {
    const c = connection([HUNG, join(dir, 'hung.json')], 1500);
    for (const attempt of [1, 2]) {
      await expect(c.connect(), `attempt ${attempt}`).rejects.toThrow(/did not answer the MCP handshake/);
      const pids = await pidsOf(join(dir, 'hung.json'));
      expect(await leftOver(pids), `attempt ${attempt}: processes left running`).toEqual([]);
      expect(c.status().state).toBe('failed');
    }
  }, 60_000);

  it('a server that answers is stopped with the helper it started', async () => {
    const c = connection([HUNG, join(dir, 'serving.json'), '--serve', toolsFile], 30_000);
    expect((await c.listTools()).map((t) => t.name)).toEqual(['echo']);
    const pids = await pidsOf(join(dir, 'serving.json'));
    expect(await running(pids.helper)).toBe(true);
    await c.stop();
    expect(await leftOver(pids), 'processes left running').toEqual([]);
  }, 60_000);
});
