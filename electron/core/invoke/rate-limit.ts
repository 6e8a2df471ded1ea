/**
 * Calls per minute per tool, within this process. A sliding-window log rather than a token
 * bucket: "at most N calls in any 60 seconds" is exactly what maxCallsPerMinute promises, where
 * a bucket of N refilling over a minute lets up to 2N through in the first minute. Memory is
 * bounded by the limit (only accepted calls are logged, and only for the last window).
 */

interface Window {
  times: number[];
  /** Index of the oldest entry still inside the window; entries before it are expired. */
  head: number;
}

export class SlidingWindowLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly windowMs = 60_000) {}

  /** Milliseconds until one more call is allowed; 0 when it is allowed now. */
  retryAfterMs(key: string, limit: number, nowMs: number): number {
    const w = this.prune(key, nowMs);
    if (!w) return 0;
    const inWindow = w.times.length - w.head;
    if (inWindow < limit) return 0;
    // Enough calls must leave the window that fewer than `limit` remain.
    const mustExpire = w.times[w.times.length - limit]!;
    return Math.max(1, Math.ceil(mustExpire + this.windowMs - nowMs));
  }

  record(key: string, nowMs: number): void {
    let w = this.windows.get(key);
    if (!w) {
      w = { times: [], head: 0 };
      this.windows.set(key, w);
    }
    w.times.push(nowMs);
  }

  /** Calls counted in the current window (for tests and diagnostics). */
  count(key: string, nowMs: number): number {
    const w = this.prune(key, nowMs);
    return w ? w.times.length - w.head : 0;
  }

  private prune(key: string, nowMs: number): Window | undefined {
    const w = this.windows.get(key);
    if (!w) return undefined;
    const cutoff = nowMs - this.windowMs;
    while (w.head < w.times.length && w.times[w.head]! <= cutoff) w.head++;
    if (w.head === w.times.length) {
      this.windows.delete(key);
      return undefined;
    }
    if (w.head > 1024 && w.head * 2 > w.times.length) {
      w.times = w.times.slice(w.head);
      w.head = 0;
    }
    return w;
  }
}
