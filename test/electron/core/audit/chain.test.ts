import { afterAll, describe, expect, it } from 'vitest';
import { readFile, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AuditLog } from '../../../../electron/core/audit/writer.js';
import { verifyAudit } from '../../../../electron/core/audit/verify.js';
import { listAudit } from '../../../../electron/core/audit/query.js';
import type { AuditRecord } from '../../../../shared/audit.js';
import { tempDir } from '../../../helpers/store.js';
import { collect, runTogether, spawnTs } from '../../../helpers/procs.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function auditDir(): Promise<string> {
  const dir = await tempDir('tw-audit-');
  dirs.push(dir);
  return join(dir, 'audit');
}

function change(i: number) {
  return { kind: 'change' as const, path: `bundles/x/${i}.json`, op: 'update' as const, actor: 'cli' as const, before: 'b'.repeat(64), after: 'a'.repeat(64) };
}

/** A log of `count` records, written in a few flushes; maxFileBytes small enough to rotate when asked. */
async function writeLog(dir: string, count: number, maxFileBytes = 16 * 1024 * 1024): Promise<void> {
  const log = new AuditLog({ dir, maxFileBytes: () => maxFileBytes });
  for (let i = 0; i < count; i++) {
    log.append(change(i));
    if (i % 4 === 3) await log.flush();
  }
  await log.close();
}

async function lines(path: string): Promise<string[]> {
  return (await readFile(path, 'utf8')).split('\n').slice(0, -1);
}

describe('the audit chain', () => {
  it('verifies an intact chain and says how many records, files and which times', async () => {
    const dir = await auditDir();
    await writeLog(dir, 10);
    const result = await verifyAudit(dir);
    expect(result.ok).toBe(true);
    expect(result.summary).toMatch(/^10 records in 1 file, chain intact, from \S+ to \S+; head [0-9a-f]{64}$/);
    const first = JSON.parse((await lines(join(dir, 'audit-000001.jsonl')))[0]!) as AuditRecord;
    expect(first.prev).toBe('0'.repeat(64));
    expect(first.seq).toBe(1);
    expect(first.pid).toBe(process.pid);
  });

  it('finds and locates an edited byte', async () => {
    const dir = await auditDir();
    await writeLog(dir, 10);
    const file = join(dir, 'audit-000001.jsonl');
    const text = await readFile(file, 'utf8');
    const at = text.indexOf('bundles/x/6.json');
    await writeFile(file, text.slice(0, at + 10) + '7' + text.slice(at + 11));
    const result = await verifyAudit(dir);
    expect(result.ok).toBe(false);
    expect(result.summary).toBe("audit-000001.jsonl line 7: the record's hash does not match its content — it was edited");
  });

  it('finds a removed line and says between which lines', async () => {
    const dir = await auditDir();
    await writeLog(dir, 10);
    const file = join(dir, 'audit-000001.jsonl');
    const all = await lines(file);
    all.splice(4, 1);
    await writeFile(file, all.join('\n') + '\n');
    const result = await verifyAudit(dir);
    expect(result.summary).toBe('audit-000001.jsonl line 5: record 5 is missing between audit-000001.jsonl line 4 and this line — removed');
  });

  it('finds two swapped lines as reordered', async () => {
    const dir = await auditDir();
    await writeLog(dir, 10);
    const file = join(dir, 'audit-000001.jsonl');
    const all = await lines(file);
    [all[2], all[3]] = [all[3]!, all[2]!];
    await writeFile(file, all.join('\n') + '\n');
    const result = await verifyAudit(dir);
    expect(result.summary).toBe(
      'audit-000001.jsonl line 3: records are out of order: this is record 4, but record 3 comes later (line 4) — they were reordered',
    );
  });

  it('finds a file truncated mid-record', async () => {
    const dir = await auditDir();
    await writeLog(dir, 10);
    const file = join(dir, 'audit-000001.jsonl');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.slice(0, text.length - 40));
    const result = await verifyAudit(dir);
    expect(result.ok).toBe(false);
    expect(result.summary).toMatch(/^audit-000001\.jsonl line 10: the record is cut off \(no end of line\)/);
  });

  it('continues the chain across rotated files, and finds a deleted middle file', async () => {
    const dir = await auditDir();
    await writeLog(dir, 24, 1500);
    const names = (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort();
    expect(names.length).toBeGreaterThanOrEqual(3);
    const second = JSON.parse((await lines(join(dir, names[1]!)))[0]!) as AuditRecord;
    const before = (await lines(join(dir, names[0]!))).map((l) => JSON.parse(l) as AuditRecord);
    expect(second.prev).toBe(before[before.length - 1]!.hash);
    const intact = await verifyAudit(dir);
    expect(intact.ok, intact.summary).toBe(true);
    expect(intact.summary).toContain(`24 records in ${names.length} files, chain intact`);
    await unlink(join(dir, 'audit-000002.jsonl'));
    const result = await verifyAudit(dir);
    expect(result.summary).toBe('audit-000002.jsonl: missing from the sequence (the log goes on with audit-000003.jsonl): a file was deleted');
  });

  it('a torn tail left by a killed writer is noted by a gap record and appending goes on', async () => {
    const dir = await auditDir();
    await writeLog(dir, 3);
    const file = join(dir, 'audit-000001.jsonl');
    const worker = spawnTs('test/helpers/race-worker.ts', ['tear', file]);
    const tear = collect(worker);
    await new Promise<void>((resolve) => tear.onLine(() => resolve()));
    expect(tear.lines[0]).toEqual({ torn: true });
    worker.kill('SIGKILL');
    await tear.done;
    const torn = await verifyAudit(dir);
    expect(torn.summary).toMatch(/^audit-000001\.jsonl line 4: the record is cut off/);
    const log = new AuditLog({ dir });
    log.append(change(99));
    await log.close();
    const all = (await lines(file)).map((l) => JSON.parse(l) as AuditRecord);
    expect(all.map((r) => r.kind)).toEqual(['change', 'change', 'change', 'gap', 'change']);
    expect(all[3]).toMatchObject({ kind: 'gap', reason: 'torn-tail', file: 'audit-000001.jsonl', tornBytes: 59 });
    const result = await verifyAudit(dir);
    expect(result.ok, result.summary).toBe(true);
    expect(result.gaps).toBe(1);
  });

  it('100 writers in 3 processes: every record once, whole lines, one chain', async () => {
    const dir = await auditDir();
    const writers = [34, 33, 33];
    const results = await runTogether(
      'test/helpers/race-worker.ts',
      writers.map((w) => ['audit', dir, String(w), '6']),
      { AUDIT_MAX_FILE_BYTES: '40000' },
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const result = await verifyAudit(dir);
    expect(result.ok, result.summary).toBe(true);
    expect(result.records).toBe(600);
    expect(result.files).toBeGreaterThan(1);
    const paths = new Map<string, number>();
    for (const name of (await readdir(dir)).filter((n) => n.endsWith('.jsonl'))) {
      for (const line of await lines(join(dir, name))) {
        const r = JSON.parse(line) as AuditRecord;
        if (r.kind === 'change') paths.set(r.path, (paths.get(r.path) ?? 0) + 1);
      }
    }
    expect(paths.size).toBe(600);
    expect([...paths.values()].every((n) => n === 1)).toBe(true);
  }, 90_000);

  it('lists newest first with filters, paged by seq', async () => {
    const dir = await auditDir();
    const log = new AuditLog({ dir });
    for (let i = 0; i < 5; i++) {
      log.append({
        kind: 'call',
        toolID: `t${i % 2}`,
        slug: `tool-${i % 2}`,
        version: '1',
        bundleID: 'b',
        caller: i % 2 ? 'mcp:claude' : 'cli',
        transport: i % 2 ? 'mcp' : 'cli',
        argsDigest: 'd'.repeat(64),
        status: 'ok',
        durationMs: 1,
        invocationID: `i${i}`,
      });
      log.append(change(i));
    }
    await log.close();
    const first = await listAudit(dir, { kind: ['call'], caller: 'MCP', pageSize: 1 });
    expect(first.items.map((r) => r.kind === 'call' && r.invocationID)).toEqual(['i3']);
    const second = await listAudit(dir, { kind: ['call'], caller: 'MCP', pageSize: 1, pageToken: first.nextPageToken! });
    expect(second.items.map((r) => r.kind === 'call' && r.invocationID)).toEqual(['i1']);
    expect(second.nextPageToken).toBeUndefined();
    expect((await listAudit(dir, { tool: 'tool-0' })).items).toHaveLength(3);
    await expect(listAudit(dir, { kind: ['change'], pageToken: first.nextPageToken! })).rejects.toThrow(/other filters/);
  });
});
