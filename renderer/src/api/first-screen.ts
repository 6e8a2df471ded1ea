/**
 * The first screen's moment: until the tool list has painted its first rows, work it does not
 * show (the Trash count, schedules, approvals, the event stream's catch-up refetch) waits, so the
 * requests and renders the first paint needs have the host and the main thread to themselves.
 */
import { useSyncExternalStore } from 'react';

/** Marked by the tool list once its first rows are on screen (features/tools/list/ToolList.tsx). */
export const FIRST_PAINT_MARK = 'tw:toollist-painted';
/**
 * A list that never paints (an error, no tools, a host slow to answer) still lets the rest start;
 * so does any navigation (App.tsx) and a first screen that is not the tool list.
 */
export const FIRST_SCREEN_FALLBACK_MS = 5000;

export interface FirstScreenGate {
  readonly settled: boolean;
  settle(): void;
  /** Runs `run` once the first screen has painted (at once if it has); returns a cancel function. */
  whenSettled(run: () => void): () => void;
}

export function createFirstScreenGate(opts: { settled: boolean }): FirstScreenGate {
  let settled = opts.settled;
  const waiting = new Set<() => void>();
  return {
    get settled() {
      return settled;
    },
    settle() {
      if (settled) return;
      settled = true;
      for (const run of [...waiting]) run();
      waiting.clear();
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
 * The app's gate: settled by the tool list's paint mark (or at once when the app opens on
 * another screen), and after FIRST_SCREEN_FALLBACK_MS whatever happens.
 */
export function watchFirstScreen(opensOnToolList: boolean): FirstScreenGate {
  const gate = createFirstScreenGate({ settled: !opensOnToolList || typeof window === 'undefined' });
  if (gate.settled) return gate;
  const timer = setTimeout(() => gate.settle(), FIRST_SCREEN_FALLBACK_MS);
  const settle = () => {
    clearTimeout(timer);
    observer?.disconnect();
    gate.settle();
  };
  let observer: PerformanceObserver | undefined;
  if (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('mark')) {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName(FIRST_PAINT_MARK).length) settle();
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
