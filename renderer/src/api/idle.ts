/**
 * Runs `run` in the browser's next idle moment (at the latest after `timeoutMs`), or in a task of
 * its own where there is no requestIdleCallback (jsdom, old WebKit). Returns what cancels it.
 *
 * With `busyFor` (milliseconds until the user's input has been quiet long enough: foreground.ts),
 * an idle moment that comes while keys are still being typed does not count: `run` waits for the
 * typing to pause, then for the next idle moment. An idle callback's timeout fires whatever the
 * page is doing, and a key typed just before it met the background work (docs/speed.md).
 */
export function whenIdle(run: () => void, timeoutMs: number, busyFor?: () => number): () => void {
  let cancel: () => void = () => {};
  const attempt = () => {
    const wait = busyFor?.() ?? 0;
    if (wait > 0) {
      const timer = setTimeout(schedule, wait);
      cancel = () => clearTimeout(timer);
    } else run();
  };
  const schedule = () => {
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(attempt, 0);
      cancel = () => clearTimeout(timer);
      return;
    }
    const id = requestIdleCallback(attempt, { timeout: timeoutMs });
    cancel = () => cancelIdleCallback(id);
  };
  schedule();
  return () => cancel();
}
