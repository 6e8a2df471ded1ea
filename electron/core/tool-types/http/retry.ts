/**
 * Retry policy: network errors, 429 and 5xx (unless listed in successCodes) are retried up
 * to maxRetries times (maxRetries 5 → at most 6 requests). The wait before retry n (0-based)
 * is Retry-After when the answer carried one (seconds or an HTTP date, capped), otherwise
 * "full jitter" exponential backoff: random(0, min(maxDelay, base · 2^n)). A wait that would
 * run past the call's deadline ends the call with the last error instead.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { HTTP_DEFAULTS } from '../../../../shared/tool-types/http.js';

export interface RetryOptions {
  /** First backoff ceiling; default 200 ms. */
  baseDelayMs?: number;
  /** Backoff ceiling; default 5 s. */
  maxDelayMs?: number;
  /** Longest Retry-After honoured; default 30 s. */
  retryAfterCapMs?: number;
}

export const DEFAULT_MAX_RETRIES = HTTP_DEFAULTS.maxRetries;

export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/** Parses Retry-After (delta-seconds or HTTP-date) into milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

export function backoffDelay(retryIndex: number, options: RetryOptions, random: () => number): number {
  const base = options.baseDelayMs ?? 200;
  const cap = options.maxDelayMs ?? 5000;
  const ceiling = Math.min(cap, base * 2 ** retryIndex);
  return Math.floor(random() * ceiling);
}

export function retryDelay(retryIndex: number, retryAfterHeader: string | undefined, options: RetryOptions, random: () => number, now = Date.now()): number {
  const retryAfter = parseRetryAfter(retryAfterHeader, now);
  if (retryAfter !== undefined) return Math.min(retryAfter, options.retryAfterCapMs ?? 30_000);
  return backoffDelay(retryIndex, options, random);
}

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const realSleep: Sleep = async (ms, signal) => {
  if (ms <= 0) {
    signal.throwIfAborted();
    return;
  }
  await delay(ms, undefined, { signal });
};
