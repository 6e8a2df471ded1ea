/**
 * Cross-process locks (proper-lockfile: mkdir-based, works on every OS and on network file
 * systems, refreshes its mtime while held, and takes over a lock whose holder died once it is
 * older than `stale`). Its stale takeover has a known race (proper-lockfile issue #121) that can
 * let two holders in, so callers never rely on the lock alone for a uniqueness rule: the final
 * publish step refuses to overwrite (see publishExclusive).
 */
import lockfile from 'proper-lockfile';
import { CoreError } from '../errors.js';

export const LOCK_STALE_MS = 10_000;

export interface LockOptions {
  stale?: number;
  /** How long to keep trying before answering BUSY. */
  waitMs?: number;
  /** Called each time the lock is found held, before waiting to try again (to tell its holder someone waits). */
  onBusy?: () => void;
}

export async function withLock<T>(lockPath: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const release = await acquireLock(lockPath, opts);
  try {
    return await fn();
  } finally {
    await release();
  }
}

/**
 * Takes the lock and answers its release (which never rejects), for a holder that keeps it
 * across several steps; held longer than `stale`, it is refreshed in the background.
 */
export async function acquireLock(lockPath: string, opts: LockOptions = {}): Promise<() => Promise<void>> {
  const stale = opts.stale ?? LOCK_STALE_MS;
  const deadline = Date.now() + (opts.waitMs ?? 30_000);
  let delay = 2;
  for (;;) {
    try {
      const release = await lockfile.lock(lockPath, {
        stale,
        update: Math.max(1000, Math.floor(stale / 2)),
        realpath: false,
        lockfilePath: lockPath,
        retries: 0,
        // A compromised lock (its mtime could not be refreshed) must not crash the process;
        // correctness never depends on the lock alone.
        onCompromised: () => undefined,
      });
      return () => release().catch(() => undefined);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ELOCKED') throw e;
      opts.onBusy?.();
      if (Date.now() > deadline) {
        throw new CoreError('BUSY', 'another process holds the lock on this data for too long; try again in a moment', { lockPath });
      }
      await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
      delay = Math.min(delay * 2, 50);
    }
  }
}
