/** Cancellation helpers: an aborted invocation ends with the signal's CoreError, or CANCELLED. */
import { CoreError, isCoreError } from '../../errors.js';

export function abortError(signal: AbortSignal): CoreError {
  return isCoreError(signal.reason) ? signal.reason : new CoreError('CANCELLED', 'The invocation was cancelled.');
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError(signal);
}

/** Stops waiting when the signal fires; the work itself goes on (a shared build stays useful). */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
