/**
 * Waiting with a way out: what the engine, the container runner and the OAuth token cache do
 * when a caller gives up before the work ends.
 */
import { cancelledError, isCoreError, type CoreError } from '../errors.js';

/** The error an aborted signal ends a run with: its own reason when that is a CoreError (TIMEOUT, …), else CANCELLED. */
export function abortError(signal: AbortSignal): CoreError {
  return isCoreError(signal.reason) ? signal.reason : cancelledError();
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError(signal);
}

/**
 * Settles with the work, or rejects as soon as the signal aborts (with abortError). The work
 * itself goes on: a runner that ignores its signal cannot hold up Stop, and a shared build or
 * token request stays useful to others waiting for it.
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal, reason: (signal: AbortSignal) => unknown = abortError): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(reason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason(signal));
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

/** A timer that never keeps the process alive. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
