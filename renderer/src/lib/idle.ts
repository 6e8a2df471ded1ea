/**
 * Runs `run` in the browser's next idle moment (at the latest after `timeoutMs`), or in a task of
 * its own where there is no requestIdleCallback (jsdom, old WebKit). Returns what cancels it.
 */
export function whenIdle(run: () => void, timeoutMs: number): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const timer = setTimeout(run, 0);
    return () => clearTimeout(timer);
  }
  const id = requestIdleCallback(run, { timeout: timeoutMs });
  return () => cancelIdleCallback(id);
}
