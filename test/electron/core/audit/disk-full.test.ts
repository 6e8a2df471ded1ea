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
  it('keeps records pending, counts those beyond its cap, and writes a gap record once space returns', async () => {
    const dir = join(mounted!, 'audit');
    const errors: unknown[] = [];
    const log = new AuditLog({ dir, flushDelayMs: 60_000, maxPending: 5, onError: (_what, e) => errors.push(e) });
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
});
