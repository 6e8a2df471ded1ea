/** Small display helpers. */
import type { Safety } from '../../../shared/schemas.js';
import { NUMERIC_DATE_TIME, plural as sharedPlural } from '../../../shared/format.js';

/**
 * Each formatter is built on its first use, not when the entry chunk is evaluated: a tab's first
 * Intl object loads ICU's locale data (40–220 ms on this machine at load 6–7, measured in a blank
 * page), and the first screen may need none of them (a tool never called shows "never").
 * public/first-requests.js builds one while the entry chunk downloads, so the data is in by then.
 */
function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const rtf = once(() => new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }));
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

export function relativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  const diff = (t - now) / 1000;
  for (const [unit, secs] of UNITS) {
    if (Math.abs(diff) >= secs || unit === 'second') {
      if (unit === 'second' && Math.abs(diff) < 10) return 'just now';
      return rtf().format(Math.round(diff / secs), unit);
    }
  }
  return iso;
}

// Date#toLocaleString builds a formatter per call (as Number#toLocaleString does, see formatCount):
// one, with its defaults (date and time, to the second), for every row's "last called" title.
const dateTimeFormat = once(() => new Intl.DateTimeFormat(undefined, NUMERIC_DATE_TIME));

export function absoluteTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTimeFormat().format(d);
}

export function duration(ms: number): string {
  if (ms < 1) return '<1 ms';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export const SAFETY_LABEL: Record<Safety, string> = {
  readOnly: 'read-only',
  sideEffecting: 'side effects',
  privileged: 'privileged',
};

export const SAFETY_TONE: Record<Safety, 'ok' | 'warn' | 'danger'> = {
  readOnly: 'ok',
  sideEffecting: 'warn',
  privileged: 'danger',
};

// One formatter for every count: Number#toLocaleString builds a new one per call, which cost
// more than half a second of a 10,000-tool first render on a loaded machine (the sidebar and the
// visible rows format hundreds of counts on each render).
const numberFormat = once(() => new Intl.NumberFormat());

/** "12,345" in the reader's locale. */
export function formatCount(n: number): string {
  return numberFormat().format(n);
}

/** "12,345 tools": shared/format.ts's plural, its count in the reader's locale. */
export function plural(n: number, one: string, many?: string): string {
  return sharedPlural(n, one, many, formatCount);
}
