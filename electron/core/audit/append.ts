/**
 * How a batch of audit records reaches the end of the chain on disk (writer.ts queues them and
 * decides when). The folder's cross-process lock is held across a train of batches that follow
 * one another (writer.ts releases it once the queue is empty, and now and then for other
 * processes): a mkdir and rmdir per batch, each a journal operation, cost more than the write.
 * The current file stays open; the end of the chain is cached with that file's inode and size,
 * so the usual batch reads nothing and runs in one synchronous go (appendInPlace); anything else
 * reads the end of the chain from disk (appendChained).
 */
import { ftruncateSync, promises as fsp, statSync, writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir } from '../fs/atomic.js';
import { acquireLock } from '../fs/lock.js';
import { auditFileName } from './files.js';
import { chainRecord, type PendingRecord } from './record.js';
import { readChainTail, type Tail } from './tail.js';

/**
 * A process that finds the folder's lock held touches this file (each time it tries), so the
 * holder of a long train of batches lets go only when someone is waiting for it.
 */
export const LOCK_WANTED = '.lock-wanted';

/** Tells the holder of the audit folder's lock that this process waits for it (never rejects). */
export function markLockWanted(dir: string): void {
  const path = join(dir, LOCK_WANTED);
  const now = new Date();
  void fsp
    .utimes(path, now, now)
    .catch(() => fsp.writeFile(path, ''))
    .catch(() => undefined);
}

/** The current file, open for appending across batches; its inode tells whether the name still leads to it. */
interface OpenFile {
  n: number;
  handle: FileHandle;
  ino: number;
  dev: number;
}

/** A batch on its way to the disk: where it went, so a failed sync can take it back. */
export interface Written {
  file: OpenFile;
  start: number;
  end: number;
  /** The batch started a new file, whose name must be made durable too. */
  rotated: boolean;
}

/** The records chained after a tail, as one write, and the new end of the chain. */
function chainText(records: PendingRecord[], after: Pick<Tail, 'hash' | 'seq'>): { text: Buffer; hash: string; seq: number } {
  let { hash, seq } = after;
  let text = '';
  for (const r of records) {
    const record = chainRecord(r, ++seq, hash);
    hash = record.hash;
    text += JSON.stringify(record) + '\n';
  }
  return { text: Buffer.from(text, 'utf8'), hash, seq };
}

export class AuditAppender {
  /** The end of the chain as this process left it. */
  private tail: Tail | undefined;
  private file: OpenFile | undefined;
  /** The folder's lock, while a train of batches holds it. */
  private held: { release: () => Promise<void>; since: number } | undefined;
  /** A release under way: the next train takes the lock once it is done. */
  private releasing: Promise<void> | undefined;
  private lingerTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dir: string,
    private readonly maxFileBytes: () => number,
    /** When, by whom: the fields of a gap record this process notes. */
    private readonly stamp: () => Pick<PendingRecord, 'at' | 'pid' | 'host'>,
  ) {}

  /** Appends one batch under the folder's lock (taken, waiting for it, unless held already); not yet synced. */
  async append(records: PendingRecord[]): Promise<Written> {
    clearTimeout(this.lingerTimer);
    this.lingerTimer = undefined;
    if (!this.held) {
      await this.releasing;
      const release = await acquireLock(join(this.dir, '.lock'), { onBusy: () => markLockWanted(this.dir) });
      this.held = { release, since: Date.now() };
    }
    return this.appendInPlace(records) ?? (await this.appendChained(records));
  }

  /** How long the lock has been held (0: not held). */
  heldForMs(): number {
    return this.held ? Date.now() - this.held.since : 0;
  }

  /**
   * Whether another process asked for the folder's lock within `ms` (LOCK_WANTED; a time ahead of
   * this process's clock counts as asked). Nobody asking, the hold's clock starts again.
   */
  othersWaiting(ms: number): boolean {
    const wanted = statSync(join(this.dir, LOCK_WANTED), { throwIfNoEntry: false });
    if (wanted && wanted.mtimeMs > Date.now() - ms) return true;
    if (this.held) this.held.since = Date.now();
    return false;
  }

  /** Lets other processes have the folder. Never rejects. */
  async release(): Promise<void> {
    clearTimeout(this.lingerTimer);
    this.lingerTimer = undefined;
    const held = this.held;
    this.held = undefined;
    if (held) this.releasing = held.release();
    await this.releasing;
  }

  /**
   * Releases the lock unless another batch comes within `ms`: one caller after another (each
   * waiting for its answer before the next call) would otherwise take and release it per call.
   */
  releaseSoon(ms: number): void {
    if (!this.held || this.lingerTimer) return;
    this.lingerTimer = setTimeout(() => void this.release(), ms);
    this.lingerTimer.unref();
  }

  /** Makes a written batch durable: fdatasync (the bytes and the new size, not the times fsync also writes), and a new file's name. */
  async sync(written: Written): Promise<void> {
    await written.file.handle.datasync();
    if (written.rotated) await fsyncDir(this.dir);
  }

  /**
   * The usual batch, all synchronous (under the held lock): find the file exactly as this process
   * left it (same inode, same size, no later file), chain, append with one write. A small append
   * to the page cache costs microseconds, and done in one go it never waits for the event loop
   * between steps, which on a busy host costs milliseconds a step. Undefined when the slow path
   * must run: no file known yet, another writer came between, or the file is due to rotate.
   */
  private appendInPlace(records: PendingRecord[]): Written | undefined {
    const file = this.file;
    const tail = this.tail;
    if (!file || !tail || tail.n !== file.n || tail.size >= this.maxFileBytes()) return undefined;
    const now = statSync(join(this.dir, auditFileName(file.n)), { throwIfNoEntry: false });
    if (!now || now.ino !== file.ino || now.dev !== file.dev || now.size !== tail.size) return undefined;
    if (statSync(join(this.dir, auditFileName(file.n + 1)), { throwIfNoEntry: false })) return undefined;
    const { text, hash, seq } = chainText(records, tail);
    try {
      for (let done = 0; done < text.length;) done += writeSync(file.handle.fd, text, done, text.length - done);
    } catch (e) {
      // A partial write (a full disk) must not stay: cut back to where this batch began.
      this.tail = undefined;
      try {
        ftruncateSync(file.handle.fd, tail.size);
      } catch {
        // The next writer finds the torn line and notes it.
      }
      throw e;
    }
    this.tail = { n: file.n, size: tail.size + text.length, hash, seq };
    return { file, start: tail.size, end: tail.size + text.length, rotated: false };
  }

  /** Under the lock (the slow path): find the tail on disk, chain the records after it, append them with one write. */
  private async appendChained(records: PendingRecord[]): Promise<Written> {
    const found = await this.currentTail();
    const { text, hash, seq } = chainText([...found.notes, ...records], found.tail);
    const rotate = found.tail.n === 0 || found.tail.size >= this.maxFileBytes();
    const n = rotate ? found.tail.n + 1 : found.tail.n;
    const size = rotate ? 0 : found.tail.size;
    const file = await this.openFile(n);
    try {
      // A full disk answers a short write first (what fitted) and ENOSPC only on the next one.
      for (let done = 0; done < text.length;) done += (await file.handle.write(text, done, text.length - done)).bytesWritten;
    } catch (e) {
      // A partial write (a full disk) must not stay: cut back to where this batch began.
      this.tail = undefined;
      await file.handle.truncate(size).catch(() => undefined);
      throw e;
    }
    this.tail = { n, size: size + text.length, hash, seq };
    return { file, start: size, end: size + text.length, rotated: rotate };
  }

  /** The file to append to, kept open across batches (opened again only when it changes). */
  private async openFile(n: number): Promise<OpenFile> {
    const path = join(this.dir, auditFileName(n));
    const kept = this.file;
    if (kept?.n === n) {
      const now = await fsp.stat(path).catch(() => undefined);
      if (now && now.ino === kept.ino && now.dev === kept.dev) return kept;
    }
    await this.closeFile();
    const handle = await fsp.open(path, 'a');
    const { ino, dev } = await handle.stat();
    this.file = { n, handle, ino, dev };
    return this.file;
  }

  async closeFile(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await file?.handle.close().catch(() => undefined);
  }

  /**
   * After a failure: a batch whose sync failed is taken back (under the lock still held) when
   * nothing was appended after it, so the retry writes its records once; the file is closed and
   * the lock released, so the retry starts from what the disk holds.
   */
  async reset(written: Written | undefined): Promise<void> {
    this.tail = undefined;
    if (written && this.held) {
      const now = await written.file.handle.stat().catch(() => undefined);
      if (now?.size === written.end) await written.file.handle.truncate(written.start).catch(() => undefined);
    }
    await this.closeFile();
    await this.release();
  }

  /**
   * The end of the chain: the cached tail while its file has the size this process left it at and
   * no later file exists; otherwise read from disk (tail.ts).
   */
  private async currentTail(): Promise<{ tail: Tail; notes: PendingRecord[] }> {
    const cached = this.tail;
    if (cached) {
      const size = await fsp.stat(join(this.dir, auditFileName(cached.n))).then(
        (s) => s.size,
        () => -1,
      );
      const next = await fsp.stat(join(this.dir, auditFileName(cached.n + 1))).then(
        () => true,
        () => false,
      );
      if (size === cached.size && !next) return { tail: cached, notes: [] };
    }
    return readChainTail(this.dir, this.stamp);
  }
}
