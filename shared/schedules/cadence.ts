/**
 * A schedule's cadence: a cron pattern in a zone (./cron.ts), one time (`at`, RFC 3339), or an
 * interval (`everySeconds`). One place answers "when next" and "the latest between" for all three,
 * so the scheduler, the list, the MCP resources and the editor agree. An interval is anchored at
 * the schedule's creation (the time inside its UUIDv7 scheduleID): every process computes the same
 * fire times, which is what makes a fire's claim (and so exactly-once) work across processes.
 */
import { describeCron, latestFireBetween, nextFireAfter, uuidV7Time } from './cron.js';

/** The shortest interval when config.scheduleMinIntervalSeconds says nothing. */
export const DEFAULT_MIN_INTERVAL_SECONDS = 60;

export interface CadenceFields {
  scheduleID: string;
  cron?: string;
  at?: string;
  everySeconds?: number;
}

export type CadenceKind = 'cron' | 'once' | 'interval';

export function cadenceKind(s: CadenceFields): CadenceKind {
  return s.at !== undefined ? 'once' : s.everySeconds !== undefined ? 'interval' : 'cron';
}

/** RFC 3339 with a zone offset or Z (seconds and fractions optional), e.g. 2026-07-01T09:00:00+02:00. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Why a one-off time cannot be used, or undefined. */
export function atIssue(at: string): string | undefined {
  if (!RFC3339.test(at) || Number.isNaN(Date.parse(at))) {
    return "must be a time in RFC 3339 with its offset, e.g. '2026-07-01T09:00:00+02:00' or '2026-07-01T07:00:00Z'";
  }
  return undefined;
}

/** The interval's anchor: its creation time (UUIDv7), else the epoch. */
function anchorOf(s: CadenceFields): number {
  return uuidV7Time(s.scheduleID) ?? 0;
}

/** The first fire strictly after `after`, or null (a one-off already past, a cron that never matches). */
export function nextRun(s: CadenceFields, zone: string, after: number): number | null {
  if (s.at !== undefined) {
    const at = Date.parse(s.at);
    return Number.isNaN(at) || at <= after ? null : at;
  }
  if (s.everySeconds !== undefined) {
    const every = s.everySeconds * 1000;
    if (!(every > 0)) return null;
    const anchor = anchorOf(s);
    const k = Math.max(1, Math.floor((after - anchor) / every) + 1);
    return anchor + k * every;
  }
  return nextFireAfter(s.cron ?? '', zone, after);
}

/** The latest fire in (from, to], or null. */
export function latestRunBetween(s: CadenceFields, zone: string, from: number, to: number): number | null {
  if (s.at !== undefined) {
    const at = Date.parse(s.at);
    return at > from && at <= to ? at : null;
  }
  if (s.everySeconds !== undefined) {
    const every = s.everySeconds * 1000;
    if (!(every > 0)) return null;
    const anchor = anchorOf(s);
    const k = Math.floor((to - anchor) / every);
    const fire = anchor + k * every;
    return k >= 1 && fire > from ? fire : null;
  }
  return latestFireBetween(s.cron ?? '', zone, from, to);
}

/** "every 5 minutes" in words. */
export function describeInterval(seconds: number): string {
  const units: [number, string][] = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  for (const [size, name] of units) {
    if (seconds % size === 0) {
      const n = seconds / size;
      return n === 1 ? `every ${name}` : `every ${n} ${name}s`;
    }
  }
  return `every ${seconds} seconds`;
}

/** The cadence in words: the cron's meaning, "once at …", or "every …". */
export function describeCadence(s: CadenceFields): string {
  if (s.at !== undefined) return `once at ${s.at}`;
  if (s.everySeconds !== undefined) return describeInterval(s.everySeconds);
  return describeCron(s.cron ?? '');
}

/** What identifies the cadence (a change of it re-plans the schedule). */
export function cadenceKey(s: CadenceFields): string {
  return s.at !== undefined ? `at:${s.at}` : s.everySeconds !== undefined ? `every:${s.everySeconds}` : `cron:${s.cron ?? ''}`;
}
