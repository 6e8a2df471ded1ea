/**
 * Appends records to `<data>/audit/`, from any number of processes sharing the folder, with
 * group commit: a record is queued, and the records queued while the previous batch was being
 * synced go together in the next one, written the moment that sync returns (no timer). A batch
 * takes the folder's cross-process lock only to append: find the tail (cached with the file's
 * inode and size, so the usual batch reads nothing), chain, one write to the file kept open;
 * then, outside the lock, fdatasync. append() answers once its record is durable, so a call,
 * change or approval is answered only after its record is on disk; concurrent answers share the
 * write and its sync.
 *
 * When the log cannot be written (disk full, permissions, a read-only file system) it is
 * "failing": in the `required` mode (config auditRecords, the default) ready() and append()
 * answer AUDIT_UNAVAILABLE naming the cause, so work is refused rather than done unrecorded;
 * `when-possible` lets it go on. Either way the records are kept (up to a cap, then counted by a
 * `gap` record) and written once a retry succeeds. A torn last line (a writer stopped mid-write)
 * is cut off and noted by a `gap` record. Nothing here throws at a caller but that refusal.
 */
import { promises as fsp } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { AuditRecordBody } from '../../../shared/audit.js';
import { DEFAULT_AUDIT_MAX_FILE_BYTES, type AuditRecords } from '../../../shared/schemas.js';
import { withLock } from '../fs/lock.js';
import { listAuditFiles } from './files.js';
import type { PendingRecord } from './record.js';
import { AuditAppender, markLockWanted, type Written } from './append.js';
import { auditUnavailable } from './unavailable.js';
import { noteRecord } from './acting-caller.js';

/** Records kept in memory while they cannot be written; beyond this they are counted as lost. */
export const DEFAULT_MAX_PENDING = 10_000;
/**
 * A busy writer lets go of the folder's lock this often, for YIELD_MS, when another process has
 * asked for it within the last HOLD_MAX_MS (append.ts LOCK_WANTED), so other processes are not
 * starved; alone on the folder it keeps it (a yield stalls every answer for YIELD_MS and more).
 */
const HOLD_MAX_MS = 1000;
const YIELD_MS = 20;
/** An idle writer keeps the lock this long for the next record (flush() lets go at once). */
const LINGER_MS = 50;
/** A failing log is tried again by a refused caller at most this often (besides its own backoff). */
const RETRY_ON_DEMAND_MS = 1000;

export interface AuditLogOptions {
  dir: string;
  /** Start a new file once the current one has passed this size (config auditMaxFileBytes). */
  maxFileBytes?: () => number;
  /** Whether work is refused while the log cannot be written (config auditRecords; default required). */
  records?: () => AuditRecords;
  /**
   * Benchmarks and tests only: the former batching, each record written this long after it
   * happened and no answer waiting for it (`npm run bench -- host` compares both).
   */
  batchedDelayMs?: number;
  maxPending?: number;
  clock?: () => Date;
  onError?: (what: string, error: unknown) => void;
}

interface Dropped {
  count: number;
  from: string;
  to: string;
}

interface Queued {
  record: PendingRecord;
  /** Who waits for the record to be durable (none for one kept for a retry). */
  waiter?: { resolve(): void; reject(e: unknown): void };
}

type Health = { kind: 'unknown' } | { kind: 'ok' } | { kind: 'failing'; error: unknown; at: number };

const RESOLVED = Promise.resolve();

export class AuditLog {
  private queue: Queued[] = [];
  private dropped: Dropped | undefined;
  private readonly appender: AuditAppender;
  /** The write loop in progress, if any. */
  private writing: Promise<void> | undefined;
  private checking: Promise<void> | undefined;
  private batchTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  /** The folder was made (or found) by this process: not asked again before every write. */
  private dirMade = false;
  private health: Health = { kind: 'unknown' };
  private readonly host = hostname();
  private readonly clock: () => Date;

  constructor(private readonly opts: AuditLogOptions) {
    this.clock = opts.clock ?? (() => new Date());
    this.appender = new AuditAppender(
      opts.dir,
      () => opts.maxFileBytes?.() ?? DEFAULT_AUDIT_MAX_FILE_BYTES,
      () => ({ at: this.clock().toISOString(), pid: process.pid, host: this.host }),
    );
  }

  get dir(): string {
    return this.opts.dir;
  }

  /** Records waiting in memory (for tests and the disk-full case). */
  pendingCount = (): number => this.queue.length;

  private required(): boolean {
    return (this.opts.records?.() ?? 'required') === 'required';
  }

  private get batched(): boolean {
    return this.opts.batchedDelayMs !== undefined;
  }

  /**
   * Resolves when work may go on: the log was written (or checked) lately, or it is failing and
   * `when-possible` allows that. A failing log is tried again first, at most once a second, so
   * work resumes as soon as the disk has room again. Throws AUDIT_UNAVAILABLE otherwise.
   */
  async ready(): Promise<void> {
    if (this.batched || this.health.kind === 'ok') return;
    if (this.health.kind === 'unknown' || this.clock().getTime() - this.health.at >= RETRY_ON_DEMAND_MS) await this.check();
    if (this.health.kind === 'failing' && this.required()) throw auditUnavailable(this.health.error);
  }

  /**
   * Notes one record; resolves once it is durable (the operation in progress waits for it too).
   * While the log is failing it is kept for a retry, and the answer is AUDIT_UNAVAILABLE
   * (`required`) or at once (`when-possible`). Batched (bench only): resolves at once.
   */
  append(body: AuditRecordBody): Promise<void> {
    const at = this.clock().toISOString();
    const record: PendingRecord = { ...body, at, pid: process.pid, host: this.host };
    // Only records that cannot be written pile up (a healthy queue holds one write's worth): those are capped.
    const full = this.queue.length >= (this.opts.maxPending ?? DEFAULT_MAX_PENDING);
    if (this.batched) {
      if (full) this.noteDropped(1, at, at);
      else this.queue.push({ record });
      this.batchTimer ??= setTimeout(() => void this.flush(), this.opts.batchedDelayMs);
      // close() flushes what is left; a pending timer must not keep a finished CLI command alive.
      this.batchTimer.unref();
      return RESOLVED;
    }
    if (this.health.kind === 'failing') {
      if (full) this.noteDropped(1, at, at);
      else this.queue.push({ record });
      this.scheduleRetry();
      return this.track(this.refusal());
    }
    const durable = new Promise<void>((resolve, reject) => this.queue.push({ record, waiter: { resolve, reject } }));
    this.writing ??= this.writeLoop();
    return this.track(durable);
  }

  /** The answer to a record that cannot be written now. */
  private refusal(): Promise<void> {
    if (!this.required() || this.health.kind !== 'failing') return RESOLVED;
    return Promise.reject(auditUnavailable(this.health.error));
  }

  private track(durable: Promise<void>): Promise<void> {
    // Handled here, so a caller that does not wait (a background write) leaves no unhandled rejection.
    durable.catch(() => undefined);
    noteRecord(durable);
    return durable;
  }

  private noteDropped(count: number, from: string, to: string): void {
    if (!this.dropped) this.dropped = { count, from, to };
    else {
      this.dropped.count += count;
      if (from < this.dropped.from) this.dropped.from = from;
      if (to > this.dropped.to) this.dropped.to = to;
    }
  }

  /** Writes what is queued now; resolves when it is on disk or kept for a retry. Never rejects. */
  async flush(): Promise<void> {
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    await this.writing;
    if (this.queue.length || this.dropped) await (this.writing ??= this.writeLoop());
    // Written means let go too: nothing of this process's is left holding the folder.
    if (!this.writing) await this.appender.release();
  }

  /** One check at a time: the queue written, or (nothing queued) the folder tried for writing. */
  private check(): Promise<void> {
    this.checking ??= (async () => {
      await this.writing;
      if (this.queue.length || this.dropped) await (this.writing ??= this.writeLoop());
      else await this.probe();
    })().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  /** Proves the folder takes a write: its lock is a folder made in it, and the current file opens for appending. */
  private async probe(): Promise<void> {
    try {
      await fsp.mkdir(this.opts.dir, { recursive: true });
      await withLock(
        join(this.opts.dir, '.lock'),
        async () => {
          const files = await listAuditFiles(this.opts.dir);
          const last = files[files.length - 1];
          if (last) await (await fsp.open(join(this.opts.dir, last.name), 'a')).close();
        },
        { onBusy: () => markLockWanted(this.opts.dir) },
      );
      this.succeeded();
    } catch (e) {
      this.failed(e, []);
    }
  }

  /**
   * Writes batch after batch until the queue is empty or a write fails (the rest then waits for
   * the retry), holding the folder's lock across them; released LINGER_MS after the queue is
   * empty, and every HOLD_MAX_MS for a moment, so other processes on the folder get their turn.
   */
  private async writeLoop(): Promise<void> {
    // The records of this turn of the event loop go in one write.
    await new Promise((r) => setImmediate(r));
    try {
      while (this.queue.length || this.dropped) {
        if (!(await this.writeBatch())) return;
        if (this.appender.heldForMs() > HOLD_MAX_MS && (this.queue.length || this.dropped) && this.appender.othersWaiting(HOLD_MAX_MS)) {
          await this.appender.release();
          await new Promise((r) => setTimeout(r, YIELD_MS));
        }
      }
      this.appender.releaseSoon(LINGER_MS);
    } finally {
      this.writing = undefined;
    }
  }

  private async writeBatch(): Promise<boolean> {
    const batch = this.queue;
    const dropped = this.dropped;
    this.queue = [];
    this.dropped = undefined;
    const records = batch.map((q) => q.record);
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
    let written: Written | undefined;
    try {
      if (!this.dirMade) await fsp.mkdir(this.opts.dir, { recursive: true });
      this.dirMade = true;
      written = await this.appender.append(records);
      // Outside the lock, so another process appends while this one waits for the disk. The
      // records queued meanwhile form the next batch, written as soon as this returns.
      await this.appender.sync(written);
    } catch (e) {
      this.dirMade = false;
      await this.appender.reset(written);
      this.keepForRetry(batch, dropped);
      this.failed(e, batch);
      return false;
    }
    this.succeeded();
    for (const q of batch) q.waiter?.resolve();
    return true;
  }

  private succeeded(): void {
    this.health = { kind: 'ok' };
    this.failures = 0;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private failed(error: unknown, batch: Queued[]): void {
    this.health = { kind: 'failing', error, at: this.clock().getTime() };
    if (this.failures++ === 0) this.opts.onError?.('writing the audit log (records are kept and written once it works again)', error);
    const required = this.required();
    // The failed batch, and what was queued meanwhile: nobody waits for a retry's backoff.
    for (const q of [...batch, ...this.queue]) {
      if (!q.waiter) continue;
      if (required) q.waiter.reject(auditUnavailable(error));
      else q.waiter.resolve();
      delete q.waiter;
    }
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.batchTimer) return;
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = undefined;
        void this.check();
      },
      Math.min(30_000, 250 * 2 ** Math.min(this.failures, 7)),
    );
    this.retryTimer.unref();
  }

  private keepForRetry(batch: Queued[], dropped: Dropped | undefined): void {
    const cap = this.opts.maxPending ?? DEFAULT_MAX_PENDING;
    const all = [...batch, ...this.queue];
    const kept = all.slice(0, cap);
    const over = all.slice(cap);
    this.queue = kept;
    if (dropped) this.noteDropped(dropped.count, dropped.from, dropped.to);
    if (over.length) this.noteDropped(over.length, over[0]!.record.at, over[over.length - 1]!.record.at);
  }

  async close(): Promise<void> {
    await this.flush();
    await this.appender.closeFile();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }
}
