/**
 * The audit folder's lock under a busy writer: held across batches, let go now and then only
 * when another writer has asked for it (append.ts LOCK_WANTED). Real files, two AuditLogs on one
 * folder (the lock is a folder made in it, so two logs in one process contend as two processes do).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AuditLog } from '../../../../electron/core/audit/writer.js';
import { listAuditFiles } from '../../../../electron/core/audit/files.js';
import { verifyAudit } from '../../../../electron/core/audit/verify.js';
import { tempDir } from '../../../helpers/store.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const change = (path: string) => ({ kind: 'change' as const, path, op: 'update' as const, actor: 'app' as const, after: 'a'.repeat(64) });

/** `loops` concurrent callers appending one awaited record after another until `until` resolves. */
async function busy(log: AuditLog, name: string, loops: number, until: Promise<void>): Promise<number> {
  let stop = false;
  void until.then(() => (stop = true));
  let n = 0;
  await Promise.all(
    Array.from({ length: loops }, async (_, c) => {
      while (!stop) await log.append(change(`${name}/${c}/${n++}`));
    }),
  );
  return n;
}

const after = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function pathsOnDisk(dir: string): Promise<string[]> {
  const files = await listAuditFiles(dir);
  const texts = await Promise.all(files.map((f) => readFile(join(dir, f.name), 'utf8')));
  return texts
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { path?: string }).path ?? '');
}

describe("the audit folder's lock under a busy writer", () => {
  it('alone on the folder, it keeps the lock past the hold time (no yield stalls its answers)', async () => {
    const dir = join(await tempDir('tw-audit-hold-'), 'audit');
    dirs.push(dir);
    const log = new AuditLog({ dir });
    await log.append(change('first'));
    const lock = await stat(join(dir, '.lock'));
    // Well past HOLD_MAX_MS (1 s) of batches following one another.
    const written = await busy(log, 'alone', 4, after(2500));
    const still = await stat(join(dir, '.lock'));
    // Let go and taken again, the lock would be a new folder (a new birth time).
    expect(still.birthtimeMs).toBe(lock.birthtimeMs);
    expect(written).toBeGreaterThan(10);
    await log.close();
    expect((await verifyAudit(dir)).ok).toBe(true);
  });

  it('with another writer waiting, it lets go, so both write and neither is starved', async () => {
    const dir = join(await tempDir('tw-audit-hold-'), 'audit');
    dirs.push(dir);
    const first = new AuditLog({ dir });
    const second = new AuditLog({ dir });
    await first.append(change('first'));
    const done = after(3000);
    const [a, b] = await Promise.all([busy(first, 'a', 4, done), after(200).then(() => busy(second, 'b', 4, done))]);
    await Promise.all([first.close(), second.close()]);
    const paths = await pathsOnDisk(dir);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    expect(paths.filter((p) => p.startsWith('a/'))).toHaveLength(a);
    expect(paths.filter((p) => p.startsWith('b/'))).toHaveLength(b);
    expect((await verifyAudit(dir)).ok).toBe(true);
  });
});
