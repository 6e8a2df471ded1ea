/**
 * What the user is doing right now (typing a search) comes before background refetches: the
 * live-update invalidator (events.ts) waits until input has been quiet this long.
 */
export const FOREGROUND_QUIET_MS = 400;

let lastInputAt = Number.NEGATIVE_INFINITY;

/** Called on each keystroke whose answer the page is about to fetch and paint. */
export function noteForegroundInput(): void {
  lastInputAt = Date.now();
}

/** Milliseconds until input has been quiet for FOREGROUND_QUIET_MS (0: quiet now). */
export function foregroundBusyFor(): number {
  return Math.max(0, lastInputAt + FOREGROUND_QUIET_MS - Date.now());
}
