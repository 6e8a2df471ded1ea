/**
 * Appends records to `<data>/audit/`, from any number of processes sharing the folder. Records
 * are batched in memory (off every answer's path) and flushed under the folder's cross-process
 * lock: read the tail (cached with the file's size, so the usual flush reads nothing), chain,
 * append with one write, fsync. A torn last line (a writer stopped mid-write) is cut off and noted
 * by a `gap` record; a full disk keeps records pending (up to a cap, then counts what was
 * dropped) and a `gap` record says how many were lost once space returns. Nothing here throws
 * at a caller.
 */
import { promises as fsp } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { AuditRecord, AuditRecordBody } from '../../../shared/audit.js';
import { fsyncDir } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import { auditFileName, listAuditFiles, readTail } from './files.js';
import { chainRecord, GENESIS, sha256Hex, type PendingRecord } from './record.js';

import { DEFAULT_AUDIT_MAX_FILE_BYTES } from '../../../shared/schemas.js';
/** Records kept in memory while they cannot be written; beyond this they are counted as lost. */
export const DEFAULT_MAX_PENDING = 10_000;

export interface AuditLogOptions {
  dir: string;
  /** Start a new file once the current one has passed this size (config auditMaxFileBytes). */
  maxFileBytes?: () => number;
  flushDelayMs?: number;
  maxPending?: number;
  clock?: () => Date;
  onError?: (what: string, error: unknown) => void;
}

/** The end of the chain: the file it is in, that file's size, and the last record's hash and seq. */
interface Tail {
  n: number;
  size: number;
  hash: string;
  seq: number;
}

interface Dropped {
  count: number;
  from: string;
  to: string;
}

export class AuditLog {
  private pending: PendingRecord[] = [];
  private dropped: Dropped | undefined;
  private tail: Tail | undefined;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private failures = 0;
  private readonly host = hostname();
  private readonly clock: () => Date;

  constructor(private readonly opts: AuditLogOptions) {
    this.clock = opts.clock ?? (() => new Date());
  }

  get dir(): string {
    return this.opts.dir;
  }

  /** Records waiting in memory (for tests and the disk-full case). */
  pendingCount(): number {
    return this.pending.length;
  }

  /** Notes one record; returns at once, the write happens later. */
  append(body: AuditRecordBody): void {
    const at = this.clock().toISOString();
    if (this.pending.length >= (this.opts.maxPending ?? DEFAULT_MAX_PENDING)) {
      this.noteDropped(1, at, at);
    } else {
      this.pending.push({ ...body, at, pid: process.pid, host: this.host });
    }
    this.timer ??= setTimeout(() => void this.flush(), this.opts.flushDelayMs ?? 200);
    // close() flushes what is left; a pending timer must not keep a finished CLI command alive.
    this.timer.unref();
  }

  private noteDropped(count: number, from: string, to: string): void {
    if (!this.dropped) this.dropped = { count, from, to };
    else {
      this.dropped.count += count;
      if (from < this.dropped.from) this.dropped.from = from;
      if (to > this.dropped.to) this.dropped.to = to;
    }
  }

  /** Writes what is pending now; resolves when it is on disk or kept for a retry. Never rejects. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const run = this.flushing.then(() => this.flushOnce());
    this.flushing = run;
    return run;
  }

  private async flushOnce(): Promise<void> {
    const batch = this.pending;
    const dropped = this.dropped;
    if (!batch.length && !dropped) return;
    this.pending = [];
    this.dropped = undefined;
    try {
      const records = [...batch];
      if (dropped) {
        records.push({
          kind: 'gap',
          reason: 'dropped',
          lost: dropped.count,
          from: dropped.from,
          to: dropped.to,
          at: this.clock().toISOString(),
          pid: process.pid,
          host: this.host,
        });
      }
      await fsp.mkdir(this.opts.dir, { recursive: true });
      await withLock(join(this.opts.dir, '.lock'), () => this.appendChained(records));
      this.failures = 0;
    } catch (e) {
      this.keepForRetry(batch, dropped);
      if (this.failures++ === 0) this.opts.onError?.('writing the audit log (records are kept and written once it works again)', e);
      this.timer ??= setTimeout(() => void this.flush(), Math.min(30_000, 250 * 2 ** Math.min(this.failures, 7)));
      this.timer.unref();
    }
  }

  private keepForRetry(batch: PendingRecord[], dropped: Dropped | undefined): void {
    const cap = this.opts.maxPending ?? DEFAULT_MAX_PENDING;
    const all = [...batch, ...this.pending];
    const kept = all.slice(0, cap);
    const over = all.slice(cap);
    this.pending = kept;
    if (dropped) this.noteDropped(dropped.count, dropped.from, dropped.to);
    if (over.length) this.noteDropped(over.length, over[0]!.at, over[over.length - 1]!.at);
  }

  /** Under the lock: find the tail, chain the records after it, append them with one write. */
  private async appendChained(records: PendingRecord[]): Promise<void> {
    const found = await this.currentTail();
    const chained: AuditRecord[] = [];
    let { hash, seq } = found.tail;
    for (const r of [...found.notes, ...records]) {
      const record = chainRecord(r, ++seq, hash);
      hash = record.hash;
      chained.push(record);
    }
    const text = Buffer.from(chained.map((r) => JSON.stringify(r)).join('\n') + '\n', 'utf8');
    const limit = this.opts.maxFileBytes?.() ?? DEFAULT_AUDIT_MAX_FILE_BYTES;
    const rotate = found.tail.n === 0 || found.tail.size >= limit;
    const n = rotate ? found.tail.n + 1 : found.tail.n;
    const size = rotate ? 0 : found.tail.size;
    const path = join(this.opts.dir, auditFileName(n));
    const handle = await fsp.open(path, 'a');
    try {
      try {
        // A full disk answers a short write first (what fitted) and ENOSPC only on the next one.
        for (let done = 0; done < text.length;) done += (await handle.write(text, done, text.length - done)).bytesWritten;
        await handle.sync();
      } catch (e) {
        // A partial write (a full disk) must not stay: cut back to where this batch began.
        this.tail = undefined;
        await handle.truncate(size).catch(() => undefined);
        throw e;
      }
    } finally {
      await handle.close();
    }
    if (rotate) await fsyncDir(this.opts.dir);
    this.tail = { n, size: size + text.length, hash, seq };
  }

  /**
   * The end of the chain. The cached tail holds while its file has the size this process left it
   * at and no later file exists; otherwise it is read from disk, and a torn or unreadable last
   * line is cut off and noted by a gap record (returned in `notes`, to be chained first).
   */
  private async currentTail(): Promise<{ tail: Tail; notes: PendingRecord[] }> {
    const cached = this.tail;
    if (cached) {
      const size = await fsp.stat(join(this.opts.dir, auditFileName(cached.n))).then(
        (s) => s.size,
        () => -1,
      );
      const next = await fsp.stat(join(this.opts.dir, auditFileName(cached.n + 1))).then(
        () => true,
        () => false,
      );
      if (size === cached.size && !next) return { tail: cached, notes: [] };
    }
    const files = await listAuditFiles(this.opts.dir);
    const notes: PendingRecord[] = [];
    for (let i = files.length - 1; i >= 0; i--) {
      const { n, name } = files[i]!;
      const path = join(this.opts.dir, name);
      const tail = await readTail(path);
      let record: AuditRecord | undefined;
      let cut = tail.goodBytes;
      let torn = tail.torn;
      if (tail.lastLine !== undefined) {
        record = parseRecord(tail.lastLine);
        if (!record) {
          // A complete but unreadable last line: treat it like a torn one, so the chain goes on.
          const lineBytes = Buffer.byteLength(tail.lastLine, 'utf8') + 1;
          cut = tail.goodBytes - lineBytes;
          torn = Buffer.concat([Buffer.from(tail.lastLine + '\n', 'utf8'), tail.torn ?? Buffer.alloc(0)]);
        }
      }
      if (torn?.length) {
        await fsp.truncate(path, cut);
        notes.push({
          kind: 'gap',
          reason: 'torn-tail',
          lost: 0,
          file: name,
          tornBytes: torn.length,
          tornDigest: sha256Hex(torn),
          at: this.clock().toISOString(),
          pid: process.pid,
          host: this.host,
        });
      }
      if (record) {
        // A later file left empty by a cut-off write is written into next.
        const lastN = files[files.length - 1]!.n;
        const size = lastN === n ? cut : 0;
        return { tail: { n: lastN, size, hash: record.hash, seq: record.seq }, notes };
      }
      if (!record && tail.lastLine !== undefined) {
        // The cut line was the only complete one we read; look again at this file.
        i++;
        continue;
      }
    }
    const lastN = files.length ? files[files.length - 1]!.n : 0;
    return { tail: { n: lastN, size: 0, hash: GENESIS, seq: 0 }, notes };
  }

  async close(): Promise<void> {
    await this.flush();
  }
}

export function parseRecord(line: string): AuditRecord | undefined {
  try {
    const v = JSON.parse(line) as AuditRecord;
    if (typeof v !== 'object' || v === null || typeof v.hash !== 'string' || typeof v.seq !== 'number' || typeof v.prev !== 'string') return undefined;
    return v;
  } catch {
    return undefined;
  }
}
