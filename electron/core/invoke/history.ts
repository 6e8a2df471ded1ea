/**
 * Invocation log per tool: <data>/history/<toolID>.jsonl, one JSON entry per line, appended.
 *
 * - Appends are queued per tool and written in batches, so callers need not wait and the
 *   order of entries per tool is the order of append() calls.
 * - The file is bounded: it keeps the newest `maxEntries`, rewritten (atomically) once it
 *   passes twice that. Appends and the rewrite take the same cross-process lock, so an entry
 *   written by another process is never lost to a rewrite.
 * - Reading tolerates a torn line (a crash mid-append): unreadable lines are skipped, and the
 *   next append first ends the torn line so it cannot swallow the new entry.
 * - Each entry is bounded: args and result over `maxFieldBytes` are kept as a clipped string.
 * - A tool's lock is held across a train of batches that follow one another (one call after
 *   another), and let go LINGER_MS after the last one, or after HOLD_MS of holding for a moment,
 *   so other processes get their turn: proper-lockfile's mkdir, stat and rmdir per batch cost
 *   more than the append. While held, the file stays open; a batch that finds it exactly as this
 *   process left it (same inode, same size) is appended in one synchronous write (page cache,
 *   microseconds), without waiting for the event loop between steps.
 */
import { promises as fsp, statSync, writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { HistoryEntry, PipelineStepRecord } from '../../../shared/types.js';
import type { ApiError } from '../../../shared/errors.js';
import { CoreError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { acquireLock, withLock } from '../fs/lock.js';
import { capJsonValue, capText } from './truncate.js';
import { countLines, parseLine } from './history-lines.js';

export interface HistoryOptions {
  /** Entries kept per tool (default 200). */
  maxEntries?: number;
  /** Bytes of JSON kept of args and of result in one entry (default 8 KiB). */
  maxFieldBytes?: number;
}

export const DEFAULT_HISTORY_ENTRIES = 200;
export const DEFAULT_HISTORY_FIELD_BYTES = 8 * 1024;
const MAX_ERROR_MESSAGE_BYTES = 2048;
const READ_CHUNK = 64 * 1024;
const NEWLINE = 0x0a;
const TOOL_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
/** A held lock is let go this long after the last batch of a train. */
const LINGER_MS = 50;
/** Held this long, the lock is let go between two batches, for PAUSE_MS, so other processes get their turn. */
const HOLD_MS = 1000;
const PAUSE_MS = 20;

/** A tool's lock while a train of batches holds it, and its file, kept open for appending. */
interface Held {
  release: () => Promise<void>;
  since: number;
  linger?: NodeJS.Timeout;
  file?: { handle: FileHandle; ino: number; dev: number };
}

interface Queue {
  lines: string[];
  waiters: Array<{ resolve: () => void; reject: (e: unknown) => void }>;
  draining: Promise<void> | undefined;
}

export class HistoryStore {
  readonly maxEntries: number;
  private readonly maxFieldBytes: number;
  private readonly queues = new Map<string, Queue>();
  /** Lines in each file as far as this process knows (other processes may have added more). */
  private readonly lineCounts = new Map<string, number>();
  /** Each file's size as this process left it: while it holds, the file ends with a whole line. */
  private readonly sizes = new Map<string, number>();
  private dirReady: Promise<void> | undefined;
  private readonly held = new Map<string, Held>();
  /** Lets go under way, per tool: the next train takes the lock once they are done. */
  private readonly releasing = new Map<string, Promise<void>>();

  constructor(
    private readonly dir: string,
    opts: HistoryOptions = {},
  ) {
    this.maxEntries = Math.max(1, opts.maxEntries ?? DEFAULT_HISTORY_ENTRIES);
    this.maxFieldBytes = Math.max(256, opts.maxFieldBytes ?? DEFAULT_HISTORY_FIELD_BYTES);
  }

  fileOf(toolID: string): string {
    this.checkID(toolID);
    return join(this.dir, `${toolID}.jsonl`);
  }

  private lockOf(toolID: string): string {
    return join(this.dir, `.${toolID}.lock`);
  }

  private checkID(toolID: string): void {
    if (!TOOL_ID.test(toolID))
      throw new CoreError('INVALID_INPUT', `invalid tool ID ${JSON.stringify(toolID.slice(0, 80))} for history`, {
        issues: [{ field: 'toolID', message: 'must be a tool ID' }],
      });
  }

  /** Resolves once the entry is on disk; callers on a hot path need not wait for it. */
  append(toolID: string, entry: HistoryEntry): Promise<void> {
    this.checkID(toolID);
    const line = JSON.stringify(this.bound({ ...entry, toolID }));
    let q = this.queues.get(toolID);
    if (!q) {
      q = { lines: [], waiters: [], draining: undefined };
      this.queues.set(toolID, q);
    }
    q.lines.push(line);
    const done = new Promise<void>((resolve, reject) => q.waiters.push({ resolve, reject }));
    if (!q.draining) q.draining = this.drain(toolID, q);
    return done;
  }

  /** Newest first. Waits for this process's pending appends to the tool first. */
  async list(toolID: string, limit = 50): Promise<HistoryEntry[]> {
    const file = this.fileOf(toolID);
    await this.settled(toolID);
    if (limit <= 0) return [];
    let fh: FileHandle;
    try {
      fh = await fsp.open(file, 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    const out: HistoryEntry[] = [];
    try {
      let pos = (await fh.stat()).size;
      // Bytes before the first newline of what was read so far: possibly part of an earlier line.
      let carry = Buffer.alloc(0);
      while (pos > 0 && out.length < limit) {
        const len = Math.min(READ_CHUNK, pos);
        pos -= len;
        const chunk = Buffer.alloc(len);
        await fh.read(chunk, 0, len, pos);
        let block = carry.length ? Buffer.concat([chunk, carry]) : chunk;
        if (pos > 0) {
          const firstNewline = block.indexOf(NEWLINE);
          if (firstNewline < 0) {
            carry = block;
            continue;
          }
          carry = block.subarray(0, firstNewline);
          block = block.subarray(firstNewline + 1);
        } else {
          carry = Buffer.alloc(0);
        }
        const lines = block.toString('utf8').split('\n');
        for (let i = lines.length - 1; i >= 0 && out.length < limit; i--) {
          const entry = parseLine(lines[i]!);
          if (entry) out.push(entry);
        }
      }
    } finally {
      await fh.close();
    }
    return out;
  }

  /** Deletes a tool's history (the tool was deleted). */
  async remove(toolID: string): Promise<void> {
    const file = this.fileOf(toolID);
    await this.settled(toolID);
    await this.letGo(toolID);
    await this.ensureDir();
    await withLock(this.lockOf(toolID), async () => {
      await fsp.rm(file, { force: true });
    });
    this.lineCounts.delete(toolID);
    this.sizes.delete(toolID);
  }

  /** Waits until every queued append is written and lets go of the locks held (e.g. before the app quits). */
  async flush(): Promise<void> {
    await Promise.all([...this.queues.keys()].map((id) => this.settled(id)));
    await Promise.all([...this.held.keys()].map((id) => this.letGo(id)));
  }

  private async settled(toolID: string): Promise<void> {
    for (;;) {
      const pending = this.queues.get(toolID)?.draining;
      if (!pending) return;
      await pending;
    }
  }

  private bound(entry: HistoryEntry): HistoryEntry {
    const out: HistoryEntry = { ...entry, args: capJsonValue(entry.args ?? {}, this.maxFieldBytes).value };
    if (entry.result !== undefined) out.result = capJsonValue(entry.result, this.maxFieldBytes).value;
    else delete out.result;
    if (entry.error) {
      const error: ApiError = { code: entry.error.code, message: capText(entry.error.message, MAX_ERROR_MESSAGE_BYTES).value };
      if (entry.error.details !== undefined) {
        const details = capJsonValue(entry.error.details, this.maxFieldBytes).value;
        error.details = typeof details === 'object' && details !== null ? (details as ApiError['details']) : { clipped: details };
      }
      out.error = error;
    }
    if (entry.steps) {
      // Most pipelines' steps are small: measured once together, within an entry's budget they
      // stay whole; past it each step keeps an eighth of the budget for arguments and value.
      const small = (JSON.stringify(entry.steps)?.length ?? 0) <= this.maxFieldBytes;
      out.steps = small ? entry.steps : entry.steps.map((step) => this.boundStep(step));
    }
    return out;
  }

  /** A pipeline's step keeps an eighth of an entry's budget for its arguments and for its value. */
  private boundStep(step: PipelineStepRecord): PipelineStepRecord {
    const budget = Math.max(256, Math.floor(this.maxFieldBytes / 8));
    const out: PipelineStepRecord = { ...step };
    if (step.args !== undefined) out.args = capJsonValue(step.args, budget).value;
    if (step.value !== undefined) out.value = capJsonValue(step.value, budget).value;
    if (step.error) out.error = { code: step.error.code, message: capText(step.error.message, MAX_ERROR_MESSAGE_BYTES).value };
    return out;
  }

  private async drain(toolID: string, q: Queue): Promise<void> {
    // Let appends made in the same tick join the first batch, and let the audit record queued
    // beside this entry (its writer also starts on a setImmediate) reach its fdatasync first: a
    // caller's answer waits for that sync, never for history.
    await new Promise((resolve) => setImmediate(resolve));
    while (q.lines.length) {
      const lines = q.lines.splice(0);
      const waiters = q.waiters.splice(0);
      try {
        await this.writeBatch(toolID, lines);
        for (const w of waiters) w.resolve();
      } catch (e) {
        for (const w of waiters) w.reject(e);
      }
    }
    q.draining = undefined;
    if (this.queues.get(toolID) === q) this.queues.delete(toolID);
    this.releaseSoon(toolID);
  }

  /** The tool's lock for the next batch: kept from the last one, or taken (waiting for it). */
  private async hold(toolID: string): Promise<Held> {
    let held = this.held.get(toolID);
    if (held && Date.now() - held.since >= HOLD_MS) {
      await this.letGo(toolID);
      await new Promise((r) => setTimeout(r, PAUSE_MS));
      held = undefined;
    }
    if (held) {
      clearTimeout(held.linger);
      held.linger = undefined;
      return held;
    }
    await this.releasing.get(toolID);
    const release = await acquireLock(this.lockOf(toolID));
    held = { release, since: Date.now() };
    this.held.set(toolID, held);
    return held;
  }

  private releaseSoon(toolID: string): void {
    const held = this.held.get(toolID);
    if (!held || held.linger) return;
    held.linger = setTimeout(() => void this.letGo(toolID), LINGER_MS);
    held.linger.unref();
  }

  /** Closes the kept file and lets go of the tool's lock, if held. Never rejects. */
  private async letGo(toolID: string): Promise<void> {
    const held = this.held.get(toolID);
    if (held) {
      this.held.delete(toolID);
      clearTimeout(held.linger);
      const done =
        held.file?.handle
          .close()
          .catch(() => undefined)
          .then(held.release) ?? held.release();
      this.releasing.set(toolID, done);
      void done.then(() => {
        if (this.releasing.get(toolID) === done) this.releasing.delete(toolID);
      });
    }
    await this.releasing.get(toolID);
  }

  private ensureDir(): Promise<void> {
    this.dirReady ??= fsp.mkdir(this.dir, { recursive: true }).then(
      () => undefined,
      (e: unknown) => {
        this.dirReady = undefined;
        throw e;
      },
    );
    return this.dirReady;
  }

  private async writeBatch(toolID: string, lines: string[]): Promise<void> {
    try {
      await this.writeBatchOnce(toolID, lines);
    } catch (e) {
      // Whatever went wrong, the next batch starts from what the disk holds.
      await this.letGo(toolID);
      // The folder was removed under us (a data-dir reset): make it again, once.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      this.dirReady = undefined;
      this.lineCounts.delete(toolID);
      this.sizes.delete(toolID);
      await this.writeBatchOnce(toolID, lines);
    }
  }

  private async writeBatchOnce(toolID: string, lines: string[]): Promise<void> {
    await this.ensureDir();
    const file = this.fileOf(toolID);
    const held = await this.hold(toolID);
    const text = Buffer.from(lines.join('\n') + '\n', 'utf8');
    let known = this.appendInPlace(toolID, held, file, text, lines.length);
    if (known === undefined) {
      const kept = await this.openKept(held, file);
      known = this.lineCounts.get(toolID);
      const size = (await kept.handle.stat()).size;
      let prefix = '';
      // A file still as this process left it ends with its newline; any other may end torn.
      if (size > 0 && size !== this.sizes.get(toolID)) {
        const last = Buffer.alloc(1);
        await kept.handle.read(last, 0, 1, size - 1);
        if (last[0] !== NEWLINE) prefix = '\n'; // end a torn line first
      }
      if (known === undefined) known = size === 0 ? 0 : await countLines(kept.handle, size);
      const whole = prefix ? Buffer.concat([Buffer.from(prefix), text]) : text;
      this.sizes.delete(toolID);
      for (let done = 0; done < whole.length;) done += (await kept.handle.write(whole, done, whole.length - done)).bytesWritten;
      this.sizes.set(toolID, size + whole.length);
      known += lines.length;
    }
    if (known > 2 * this.maxEntries) {
      // The rewrite replaces the file: the kept handle would lead to the old one.
      this.sizes.delete(toolID);
      await held.file?.handle.close().catch(() => undefined);
      held.file = undefined;
      known = await this.compact(file);
    }
    this.lineCounts.set(toolID, known);
  }

  /**
   * The usual batch, synchronous under the held lock: the kept file is still the one the name
   * leads to and has the size this process left it at. Answers the lines now in it, or undefined
   * when the slow path must run.
   */
  private appendInPlace(toolID: string, held: Held, file: string, text: Buffer, count: number): number | undefined {
    const kept = held.file;
    const size = this.sizes.get(toolID);
    const known = this.lineCounts.get(toolID);
    if (!kept || size === undefined || known === undefined) return undefined;
    const now = statSync(file, { throwIfNoEntry: false });
    if (!now || now.ino !== kept.ino || now.dev !== kept.dev || now.size !== size) return undefined;
    this.sizes.delete(toolID);
    for (let done = 0; done < text.length;) done += writeSync(kept.handle.fd, text, done, text.length - done);
    this.sizes.set(toolID, size + text.length);
    return known + count;
  }

  /** The tool's file, kept open (for appending and reading) while its lock is held; opened again when the name leads elsewhere. */
  private async openKept(held: Held, file: string): Promise<NonNullable<Held['file']>> {
    const kept = held.file;
    if (kept) {
      const now = await fsp.stat(file).catch(() => undefined);
      if (now && now.ino === kept.ino && now.dev === kept.dev) return kept;
      held.file = undefined;
      await kept.handle.close().catch(() => undefined);
    }
    const handle = await fsp.open(file, 'a+');
    const { ino, dev } = await handle.stat();
    held.file = { handle, ino, dev };
    return held.file;
  }

  /** Keeps the newest maxEntries readable entries; returns how many remain. */
  private async compact(file: string): Promise<number> {
    const text = await fsp.readFile(file, 'utf8');
    const keep: string[] = [];
    const lines = text.split('\n');
    for (let i = lines.length - 1; i >= 0 && keep.length < this.maxEntries; i--) {
      if (parseLine(lines[i]!)) keep.push(lines[i]!);
    }
    keep.reverse();
    await writeFileAtomic(file, keep.length ? keep.join('\n') + '\n' : '');
    return keep.length;
  }
}
