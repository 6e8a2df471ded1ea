/**
 * How a batch of audit records reaches the end of the chain on disk (writer.ts queues them and
 * decides when). The current file stays open across batches; the end of the chain is cached with
 * that file's inode and size, so the usual batch reads nothing and runs in one synchronous go
 * (appendInPlace); anything else takes the slow path under the folder's lock (appendChained).
 */
import { ftruncateSync, mkdirSync, promises as fsp, rmdirSync, statSync, writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import { auditFileName } from './files.js';
import { chainRecord, type PendingRecord } from './record.js';
import { readChainTail, type Tail } from './tail.js';

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

  constructor(
    private readonly dir: string,
    private readonly maxFileBytes: () => number,
    /** When, by whom: the fields of a gap record this process notes. */
    private readonly stamp: () => Pick<PendingRecord, 'at' | 'pid' | 'host'>,
  ) {}

  /** Appends one batch (in place when it can, else under the folder's lock, waiting for it); not yet synced. */
  async append(records: PendingRecord[]): Promise<Written> {
    return this.appendInPlace(records) ?? (await withLock(join(this.dir, '.lock'), () => this.appendChained(records)));
  }

  /** Makes a written batch durable: fdatasync (the bytes and the new size, not the times fsync also writes), and a new file's name. */
  async sync(written: Written): Promise<void> {
    await written.file.handle.datasync();
    if (written.rotated) await fsyncDir(this.dir);
  }

  /**
   * The usual batch, all synchronous: take the folder's lock (a mkdir), find the file exactly as
   * this process left it (same inode, same size, no later file), chain, append with one write,
   * release. Small appends to the page cache cost microseconds, and done in one go they never
   * wait for the event loop between steps, which a busy host would make cost milliseconds per
   * step. Undefined when the slow path must run: no file known yet, another writer came between,
   * the file is due to rotate, or another process holds the lock (the slow path waits for it).
   * A lock that cannot be made (permissions, a read-only or missing folder) throws: the log fails.
   */
  private appendInPlace(records: PendingRecord[]): Written | undefined {
    const file = this.file;
    const tail = this.tail;
    if (!file || !tail || tail.n !== file.n || tail.size >= this.maxFileBytes()) return undefined;
    const lockPath = join(this.dir, '.lock');
    try {
      mkdirSync(lockPath);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
      throw e;
    }
    try {
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
    } finally {
      try {
        rmdirSync(lockPath);
      } catch {
        // Gone already: nothing to release.
      }
    }
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
   * A batch whose sync failed is taken back when nothing was appended after it (the records are
   * then written again by the retry); otherwise it stays, and a retry may repeat its records.
   */
  async takeBack(written: Written): Promise<void> {
    this.tail = undefined;
    await withLock(join(this.dir, '.lock'), async () => {
      const now = await written.file.handle.stat();
      if (now.size === written.end) await written.file.handle.truncate(written.start);
    }).catch(() => undefined);
    await this.closeFile();
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
