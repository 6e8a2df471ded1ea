/**
 * A tool's own maxCallsPerMinute, across every process on one data folder (the app, the host,
 * each MCP server and CLI run): the calls of the last minute are one small file per tool,
 * `rate-limits/<toolID>.json` (their start times), read and rewritten under a lock on that tool
 * only. The same sliding-window rule as rate-limit.ts. The file describes the last minute and
 * nothing else, so it is written without fsync; a process killed mid-write leaves the old window
 * or the new one (temp file, then rename), and a torn or missing file counts as no calls.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { writeFileWhole } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';

/** A holder of a tool's window lock works for a few milliseconds: one dead that long is gone. */
const LOCK_STALE_MS = 5_000;

export class SharedRateLimiter {
  private ready: Promise<unknown> | undefined;

  constructor(
    private readonly dir: string,
    private readonly windowMs = 60_000,
  ) {}

  /**
   * Counts one call against the tool's limit when the window has room and answers 0; otherwise
   * counts nothing and answers the milliseconds until a call is allowed.
   */
  async take(toolID: string, limit: number, nowMs: number): Promise<number> {
    this.ready ??= fsp.mkdir(this.dir, { recursive: true });
    await this.ready;
    const path = join(this.dir, `${toolID}.json`);
    return withLock(
      join(this.dir, `${toolID}.lock`),
      async () => {
        const cutoff = nowMs - this.windowMs;
        const times = (await readTimes(path)).filter((t) => t > cutoff).sort((a, b) => a - b);
        if (times.length >= limit) return Math.max(1, Math.ceil(times[times.length - limit]! + this.windowMs - nowMs));
        times.push(nowMs);
        await writeFileWhole(path, JSON.stringify(times));
        return 0;
      },
      { stale: LOCK_STALE_MS },
    );
  }
}

async function readTimes(path: string): Promise<number[]> {
  try {
    const value: unknown = JSON.parse(await fsp.readFile(path, 'utf8'));
    return Array.isArray(value) ? value.filter((t): t is number => typeof t === 'number' && Number.isFinite(t)) : [];
  } catch {
    return [];
  }
}
