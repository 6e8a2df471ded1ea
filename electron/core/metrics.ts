/**
 * Usage counters per tool (callCount, errorCount, lastCalledAt), kept in <data>/metrics/ apart
 * from tool.json, so recording a call never touches tool.json or its modifiedAt. Calls are
 * counted in memory and flushed in batches; each flush adds its deltas to the file under a
 * cross-process lock, so no increment is lost when several processes record at once.
 */
import { EventEmitter } from 'node:events';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import type { ToolMetrics } from '../../shared/types.js';
import { isUuid } from '../../shared/ids.js';
import { writeFileAtomic } from './fs/atomic.js';
import { withLock } from './fs/lock.js';

interface Pending {
  calls: number;
  errors: number;
  lastCalledAt: string;
}

const EMPTY: ToolMetrics = { callCount: 0, errorCount: 0, lastCalledAt: null };

function parse(text: string): ToolMetrics | undefined {
  try {
    const v = JSON.parse(text) as Partial<ToolMetrics>;
    if (typeof v.callCount !== 'number' || typeof v.errorCount !== 'number') return undefined;
    return { callCount: v.callCount, errorCount: v.errorCount, lastCalledAt: typeof v.lastCalledAt === 'string' ? v.lastCalledAt : null };
  } catch {
    return undefined;
  }
}

export class MetricsStore extends EventEmitter<{ changed: [string] }> {
  private readonly cache = new Map<string, ToolMetrics>();
  private readonly pending = new Map<string, Pending>();
  /** Counts taken off `pending` by a flush that has not reached the cache yet: still counted by get(). */
  private readonly inflight = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** The folder was made by this process; a failed flush makes it again (it may have been removed). */
  private dirMade = false;

  /**
   * `flushDelayMs`: how long counts wait in memory. A flush is a lock and an fsynced rename per
   * tool, and its sync lengthens the audit's `fdatasync` on the same disk (issue 32, point 5):
   * once a second, not per call; close() writes what is pending, so a clean stop loses nothing.
   */
  constructor(
    private readonly dir: string,
    private readonly flushDelayMs = 1000,
  ) {
    super();
  }

  private file(toolID: string): string {
    return join(this.dir, `${toolID}.json`);
  }

  /** Loads every counter file; runs in the background after the store opened. */
  async loadAll(): Promise<void> {
    const names = await fsp.readdir(this.dir).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((n) => n.endsWith('.json') && isUuid(n.slice(0, -5)))
        .map(async (n) => {
          const m = parse(await fsp.readFile(join(this.dir, n), 'utf8').catch(() => ''));
          if (m) this.cache.set(n.slice(0, -5), m);
        }),
    );
  }

  /** Re-reads one tool's counters (after the watcher saw the file change). */
  async reload(toolID: string): Promise<void> {
    const m = parse(await fsp.readFile(this.file(toolID), 'utf8').catch(() => ''));
    const cached = this.cache.get(toolID);
    // Counters only grow (a tool's removal drops them apart): a read that started before this
    // process's own flush and finished after it holds the older file, and must not win.
    if (!m || (cached && m.callCount < cached.callCount)) return;
    const before = JSON.stringify(cached);
    this.cache.set(toolID, m);
    if (before !== JSON.stringify(m)) this.emit('changed', toolID);
  }

  get(toolID: string): ToolMetrics {
    let m = this.cache.get(toolID) ?? EMPTY;
    for (const p of [this.inflight.get(toolID), this.pending.get(toolID)]) {
      if (!p) continue;
      const lastCalledAt = !m.lastCalledAt || p.lastCalledAt > m.lastCalledAt ? p.lastCalledAt : m.lastCalledAt;
      m = { callCount: m.callCount + p.calls, errorCount: m.errorCount + p.errors, lastCalledAt };
    }
    return m;
  }

  /** Counts one call; returns at once, the write happens later. */
  record(toolID: string, ok: boolean, at: Date = new Date()): void {
    const p = this.pending.get(toolID) ?? { calls: 0, errors: 0, lastCalledAt: at.toISOString() };
    p.calls += 1;
    if (!ok) p.errors += 1;
    if (at.toISOString() > p.lastCalledAt) p.lastCalledAt = at.toISOString();
    this.pending.set(toolID, p);
    this.emit('changed', toolID);
    this.timer ??= setTimeout(() => void this.flush(), this.flushDelayMs);
  }

  /** Adds (+1) or takes back (-1) a batch's counts from what is on its way to the file. */
  private adjustInflight(toolID: string, p: Pending, sign: 1 | -1): void {
    const now = this.inflight.get(toolID) ?? { calls: 0, errors: 0, lastCalledAt: p.lastCalledAt };
    const next = {
      calls: now.calls + sign * p.calls,
      errors: now.errors + sign * p.errors,
      lastCalledAt: now.lastCalledAt > p.lastCalledAt ? now.lastCalledAt : p.lastCalledAt,
    };
    if (next.calls <= 0 && next.errors <= 0) this.inflight.delete(toolID);
    else this.inflight.set(toolID, next);
  }

  /** Writes pending counts now; resolves when they are on disk. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = [...this.pending.entries()];
    this.pending.clear();
    for (const [toolID, p] of batch) this.adjustInflight(toolID, p, 1);
    const run = this.flushing.then(async () => {
      if (!batch.length) return;
      for (const [toolID, p] of batch) {
        try {
          // Inside the try: a failure here must keep the counts, and a flush run by the timer
          // must never reject (an unhandled rejection ends the process).
          if (!this.dirMade) await fsp.mkdir(this.dir, { recursive: true });
          this.dirMade = true;
          await withLock(join(this.dir, `${toolID}.lock`), async () => {
            const disk = parse(await fsp.readFile(this.file(toolID), 'utf8').catch(() => '')) ?? EMPTY;
            const next: ToolMetrics = {
              callCount: disk.callCount + p.calls,
              errorCount: disk.errorCount + p.errors,
              lastCalledAt: !disk.lastCalledAt || p.lastCalledAt > disk.lastCalledAt ? p.lastCalledAt : disk.lastCalledAt,
            };
            await writeFileAtomic(this.file(toolID), JSON.stringify(next, null, 2) + '\n');
            this.cache.set(toolID, next);
            this.adjustInflight(toolID, p, -1);
          });
        } catch {
          this.dirMade = false;
          this.adjustInflight(toolID, p, -1);
          // Keep the counts for the next flush rather than losing them.
          const again = this.pending.get(toolID) ?? { calls: 0, errors: 0, lastCalledAt: p.lastCalledAt };
          again.calls += p.calls;
          again.errors += p.errors;
          this.pending.set(toolID, again);
          this.timer ??= setTimeout(() => void this.flush(), this.flushDelayMs * 4);
        }
      }
    });
    this.flushing = run.catch(() => undefined);
    return run;
  }

  async remove(toolID: string): Promise<void> {
    this.pending.delete(toolID);
    this.inflight.delete(toolID);
    this.cache.delete(toolID);
    await fsp.rm(this.file(toolID), { force: true });
  }

  async close(): Promise<void> {
    await this.flush();
  }
}
