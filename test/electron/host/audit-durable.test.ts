/**
 * No answer without its audit record, with real host processes (serve.ts) stopped mid-flight:
 * - one host under 100 concurrent calls (REST and MCP's plain 2026 path) and 10 changes, killed
 *   with SIGKILL the moment the last answer arrives: every answered call and change is in the log;
 * - three hosts on one data folder, 120 calls, all three killed at once: every answered call is
 *   there, and the chain the three wrote together verifies;
 * - SIGTERM while calls are in flight: the host finishes them, writes their records and exits 0.
 * Before group commit (records flushed 200 ms after the answer) the first lost ~40 of 100.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { argsDigest } from '../../../electron/core/audit/record.js';
import { verifyAudit } from '../../../electron/core/audit/verify.js';
import { auditRecordsNow, mcpCalc, restCalc, restCall, startServeProcess, type ServeProcess } from '../../helpers/serve-process.js';

const dirs: string[] = [];
const hosts: ServeProcess[] = [];
let solo: { dir: string; host: ServeProcess };
let trio: { dir: string; hosts: ServeProcess[] };
let term: { dir: string; host: ServeProcess };

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tw-audit-durable-'));
  dirs.push(dir);
  return dir;
}

/** One call of calc through REST or MCP's plain 2026 path; true when it was answered with a result. */
async function call(h: ServeProcess, expression: string, via: 'rest' | 'mcp'): Promise<boolean> {
  if (via === 'rest') return (await restCalc(h, expression)).status === 200;
  const answer = await mcpCalc(h, expression);
  return answer.result !== undefined && answer.result.isError !== true;
}

/** The digests of the call records in a data folder. */
function recordedCalls(dir: string): Set<string> {
  return new Set(auditRecordsNow(dir).flatMap((r) => (r.kind === 'call' ? [r.argsDigest] : [])));
}

const unrecorded = (dir: string, answered: string[]) => {
  const recorded = recordedCalls(dir);
  return answered.filter((expression) => !recorded.has(argsDigest({ expression })));
};

beforeAll(async () => {
  const [soloDir, trioDir, termDir] = [await dataDir(), await dataDir(), await dataDir()];
  // The three of the trio start one after another: the first creates the folder's files.
  const started = await Promise.all([startServeProcess(soloDir), startServeProcess(trioDir), startServeProcess(termDir)]);
  const rest = await Promise.all([startServeProcess(trioDir), startServeProcess(trioDir)]);
  hosts.push(...started, ...rest);
  solo = { dir: soloDir, host: started[0]! };
  trio = { dir: trioDir, hosts: [started[1]!, ...rest] };
  term = { dir: termDir, host: started[2]! };
  // Calls are limited to 60 a minute per tool by default.
  for (const h of [solo.host, trio.hosts[0]!, term.host]) {
    expect((await restCall(h, 'PATCH', '/tools/config', { limits: { maxCallsPerMinute: 100000, maxOutputBytes: 16384 } })).status).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  for (const h of hosts) h.child.kill('SIGKILL');
  await Promise.all(hosts.map((h) => h.exited));
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('no answer without its audit record (real host processes)', () => {
  it('a host killed with SIGKILL the moment its last of 100 concurrent answers arrives keeps the record of every answered call and change', async () => {
    const h = solo.host;
    const answered: string[] = [];
    const created: string[] = [];
    await Promise.all([
      ...Array.from({ length: 100 }, async (_, i) => {
        const expression = `${i} + 0.25`;
        if (await call(h, expression, i % 2 ? 'rest' : 'mcp')) answered.push(expression);
      }),
      ...Array.from({ length: 10 }, async (_, i) => {
        const bundleID = uuidv7();
        const put = await restCall(h, 'PUT', `/tools/bundles/${bundleID}`, { slug: `durable-${i}` });
        if (put.status === 200 || put.status === 201) created.push(bundleID);
      }),
    ]);
    h.child.kill('SIGKILL');
    expect((await h.exited).signal).toBe('SIGKILL');
    expect(answered).toHaveLength(100);
    expect(created).toHaveLength(10);
    expect(unrecorded(solo.dir, answered)).toEqual([]);
    const changed = new Set(auditRecordsNow(solo.dir).flatMap((r) => (r.kind === 'change' ? [r.path] : [])));
    expect(created.filter((id) => !changed.has(`bundles/${id}/bundle.json`))).toEqual([]);
    const verified = await verifyAudit(join(solo.dir, 'audit'));
    expect(verified.ok, verified.summary).toBe(true);
  }, 60_000);

  it('three hosts on one data folder, 120 calls, all killed at once: every answered call recorded, one valid chain', async () => {
    const answered: string[] = [];
    await Promise.all(
      Array.from({ length: 120 }, async (_, i) => {
        const expression = `${i} * 3`;
        if (await call(trio.hosts[i % 3]!, expression, i % 2 ? 'mcp' : 'rest')) answered.push(expression);
      }),
    );
    for (const h of trio.hosts) h.child.kill('SIGKILL');
    await Promise.all(trio.hosts.map((h) => h.exited));
    expect(answered).toHaveLength(120);
    expect(unrecorded(trio.dir, answered)).toEqual([]);
    const pids = new Set(auditRecordsNow(trio.dir).flatMap((r) => (r.kind === 'call' ? [r.pid] : [])));
    expect(pids.size).toBe(3);
    const verified = await verifyAudit(join(trio.dir, 'audit'));
    expect(verified.ok, verified.summary).toBe(true);
  }, 60_000);

  it('SIGTERM while calls are in flight: the host answers them, writes their records and exits 0', async () => {
    const h = term.host;
    const answered: string[] = [];
    let signalled = false;
    await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const expression = `${i} - 0.5`;
        const ok = await call(h, expression, i % 2 ? 'rest' : 'mcp').catch(() => false);
        if (ok) answered.push(expression);
        if (answered.length === 30 && !signalled) {
          signalled = true;
          h.child.kill('SIGTERM');
        }
      }),
    );
    expect(signalled).toBe(true);
    expect(await h.exited).toEqual({ code: 0, signal: null });
    expect(answered.length).toBeGreaterThanOrEqual(30);
    expect(unrecorded(term.dir, answered)).toEqual([]);
    const verified = await verifyAudit(join(term.dir, 'audit'));
    expect(verified.ok, verified.summary).toBe(true);
  }, 60_000);
});
