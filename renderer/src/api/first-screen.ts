/**
 * The first screen's moment: until the tool list has painted its first rows, work it does not
 * show (the Trash count, schedules, approvals, the event stream's catch-up refetch, the sidebar's
 * other bundles, the list's next page) waits, so the requests and renders the first paint needs
 * have the host and the main thread to themselves. It also waits for the page to be quiet after
 * the paint: someone who starts typing at once meets their results, not that deferred work.
 */
import { useSyncExternalStore } from 'react';
import { foregroundBusyFor } from './foreground.js';
import { whenIdle } from './idle.js';

/** Marked by the tool list once its first rows are on screen (features/tools/list/ToolList.tsx). */
export const FIRST_PAINT_MARK = 'tw:toollist-painted';
/** Marked when the deferred work starts (the UI benches read it beside the keys they time). */
export const SETTLED_MARK = 'tw:first-screen-settled';
/**
 * A list that never paints (an error, no tools, a host slow to answer) still lets the rest start;
 * so does any navigation (App.tsx) and a first screen that is not the tool list.
 */
export const FIRST_SCREEN_FALLBACK_MS = 5000;
/**
 * After the paint, the deferred work waits this long and for typing to pause (foreground.ts): the
 * first keys typed at a fresh window used to be the slowest of all (p95 158–164 ms against a p50
 * of 41, docs/speed.md), each colliding with the catch-up refetch, the next page's 740 KB and the
 * sidebar's other rows.
 */
export const AFTER_PAINT_QUIET_MS = 500;
/**
 * Deferred work starts after this however long the typing goes on. It was 5 s: the UI bench's
 * seven queries typed at a fresh window take 4–6 s without a pause of 400 ms, and at 5 s the
 * deferred start (long frames of 200 ms at load 6) fell on its last keys, the slowest of the run.
 */
export const AFTER_PAINT_MAX_HOLD_MS = 20_000;

/** Runs `run` once `AFTER_PAINT_QUIET_MS` have passed and input has paused, in an idle moment (at most `AFTER_PAINT_MAX_HOLD_MS`). */
export function afterPaintWhenQuiet(run: () => void, busyFor: () => number = foregroundBusyFor): void {
  const paintedAt = Date.now();
  const check = () => {
    const since = Date.now() - paintedAt;
    const wait = Math.max(AFTER_PAINT_QUIET_MS - since, busyFor());
    if (wait > 0 && since < AFTER_PAINT_MAX_HOLD_MS) {
      setTimeout(check, Math.min(wait, AFTER_PAINT_MAX_HOLD_MS - since));
      return;
    }
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 200 });
    else run();
  };
  check();
}

export interface FirstScreenGate {
  readonly settled: boolean;
  settle(): void;
  /**
   * Runs `run` once the first screen has painted (at once if it has; once it settles, the waiting
   * ones run one per idle moment, in the order they came); returns a cancel function.
   */
  whenSettled(run: () => void): () => void;
}

/**
 * What the gate waits for between two of its waiting callbacks once settled: an idle moment with
 * no key typed in the last FOREGROUND_QUIET_MS. All at once, they were one task and one commit of
 * 50 ms of script at load 6 (the sidebar, three queries, the list's overscan and next page, the
 * live dot, the stream's catch-up), and a key typed as the typing resumed waited for all of it.
 */
const nextDeferredStep = (run: () => void): void => void whenIdle(run, 200, foregroundBusyFor);

export function createFirstScreenGate(opts: { settled: boolean; step?: (run: () => void) => void }): FirstScreenGate {
  let settled = opts.settled;
  const step = opts.step ?? nextDeferredStep;
  const waiting = new Set<() => void>();
  return {
    get settled() {
      return settled;
    },
    settle() {
      if (settled) return;
      settled = true;
      // The first at once, each of the others in a step of its own (a cancelled one is skipped).
      const next = () => {
        const run = waiting.values().next().value;
        if (!run) return;
        waiting.delete(run);
        run();
        if (waiting.size) step(next);
      };
      next();
    },
    whenSettled(run) {
      if (settled) {
        run();
        return () => {};
      }
      waiting.add(run);
      return () => void waiting.delete(run);
    },
  };
}

/**
 * The app's gate: settled once the page is quiet after the tool list's paint mark (or at once
 * when the app opens on another screen), and after FIRST_SCREEN_FALLBACK_MS whatever happens.
 */
export function watchFirstScreen(opensOnToolList: boolean): FirstScreenGate {
  const gate = createFirstScreenGate({ settled: !opensOnToolList || typeof window === 'undefined' });
  if (gate.settled) return gate;
  const timer = setTimeout(() => settle(), FIRST_SCREEN_FALLBACK_MS);
  const settle = () => {
    clearTimeout(timer);
    observer?.disconnect();
    if (!gate.settled) performance.mark(SETTLED_MARK);
    gate.settle();
  };
  let observer: PerformanceObserver | undefined;
  if (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('mark')) {
    observer = new PerformanceObserver((list) => {
      if (!list.getEntriesByName(FIRST_PAINT_MARK).length) return;
      clearTimeout(timer);
      observer?.disconnect();
      afterPaintWhenQuiet(settle);
    });
    observer.observe({ type: 'mark' });
  }
  return gate;
}

let appGate: FirstScreenGate = createFirstScreenGate({ settled: true });

/** Called once at start-up (main.tsx), before the first queries. */
export function startFirstScreenGate(opensOnToolList: boolean): FirstScreenGate {
  appGate = watchFirstScreen(opensOnToolList);
  return appGate;
}

export function firstScreenGate(): FirstScreenGate {
  return appGate;
}

/** Whether the first screen has painted; re-renders the caller when it does. */
export function useFirstScreenSettled(): boolean {
  return useSyncExternalStore(
    (onChange) => appGate.whenSettled(onChange),
    () => appGate.settled,
    () => true,
  );
}
