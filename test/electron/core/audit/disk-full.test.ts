/**
 * A full disk while the audit log appends, on a real full file system: a small tmpfs (mounting
 * needs root; the test is skipped where mount is not permitted).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditLog } from '../../../../electron/core/audit/writer.js';
import { verifyAudit } from '../../../../electron/core/audit/verify.js';
import type { AuditRecord } from '../../../../shared/audit.js';

function mountSmallTmpfs(): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'tw-audit-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

const mounted = mountSmallTmpfs();
afterAll(() => {
  if (!mounted) return;
  execFileSync('umount', [mounted]);
  rmSync(mounted, { recursive: true, force: true });
});

describe.skipIf(!mounted)('the audit log on a full disk (real tmpfs)', () => {
  it('batched (the former mode, bench only): keeps records pending, counts those beyond its cap, and writes a gap record once space returns', async () => {
    const dir = join(mounted!, 'audit');
    const errors: unknown[] = [];
    const log = new AuditLog({ dir, batchedDelayMs: 60_000, maxPending: 5, onError: (_what, e) => errors.push(e) });
    log.append({ kind: 'change', path: 'config.json', op: 'create', actor: 'app', after: 'a'.repeat(64) });
    await log.flush();
    // Fill the file system to the last byte (the records below are larger than the page the file has left).
    const filler = join(mounted!, 'filler');
    await writeFile(filler, Buffer.alloc(1024 * 1024)).catch((e: NodeJS.ErrnoException) => expect(e.code).toBe('ENOSPC'));
    for (let i = 0; i < 8; i++)
      log.append({ kind: 'change', path: `bundles/${'x'.repeat(1000)}/${i}.json`, op: 'update', actor: 'app', before: 'b'.repeat(64), after: 'c'.repeat(64) });
    await expect(log.flush()).resolves.toBeUndefined();
    expect(log.pendingCount()).toBe(5);
    expect((errors[0] as NodeJS.ErrnoException).code).toBe('ENOSPC');
    const onDisk = (await readFile(join(dir, 'audit-000001.jsonl'), 'utf8')).split('\n').filter(Boolean);
    expect(onDisk).toHaveLength(1); // nothing half-written was left behind
    await rm(filler);
    await log.close();
    const records = (await readFile(join(dir, 'audit-000001.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditRecord);
    expect(records.map((r) => r.kind)).toEqual(['change', 'change', 'change', 'change', 'change', 'change', 'gap']);
    expect(records[6]).toMatchObject({ kind: 'gap', reason: 'dropped', lost: 3 });
    const gap = records[6] as Extract<AuditRecord, { kind: 'gap' }>;
    expect(gap.from! <= gap.to!).toBe(true);
    expect((await verifyAudit(dir)).ok).toBe(true);
  });

  it('required (the default): a record that does not fit is refused naming the cause, and work resumes once space returns', async () => {
    const dir = join(mounted!, 'audit-required');
    let now = Date.parse('2026-11-29T10:00:00Z');
    const log = new AuditLog({ dir, clock: () => new Date(now), onError: () => undefined });
    await log.append({ kind: 'change', path: 'config.json', op: 'create', actor: 'app', after: 'a'.repeat(64) });
    const filler = join(mounted!, 'filler-required');
    await writeFile(filler, Buffer.alloc(1024 * 1024)).catch((e: NodeJS.ErrnoException) => expect(e.code).toBe('ENOSPC'));
    const big = (i: number) => ({
      kind: 'change' as const,
      path: `bundles/${'y'.repeat(4000)}/${i}.json`,
      op: 'update' as const,
      actor: 'app' as const,
      after: 'c'.repeat(64),
    });
    await expect(log.append(big(1))).rejects.toMatchObject({
      code: 'AUDIT_UNAVAILABLE',
      message: expect.stringMatching(/no space left on the device \(ENOSPC\)/),
    });
    await expect(log.ready()).rejects.toMatchObject({ code: 'AUDIT_UNAVAILABLE' });
    // While failing, a record is kept for the retry and answered at once.
    await expect(log.append(big(2))).rejects.toMatchObject({ code: 'AUDIT_UNAVAILABLE' });
    await rm(filler);
    now += 1000;
    await expect(log.ready()).resolves.toBeUndefined();
    await log.close();
    const records = (await readFile(join(dir, 'audit-000001.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditRecord);
    expect(records.map((r) => (r.kind === 'change' ? r.path.slice(-6) : r.kind))).toEqual(['config.json'.slice(-6), '1.json', '2.json']);
    expect((await verifyAudit(dir)).ok).toBe(true);
  });
});
