/**
 * Cron schedules in a time zone: checking a pattern and a zone, the fire times, and a readable
 * preview. Pure (croner and cronstrue are plain JavaScript; zones come from Intl), so the core
 * and the editor compute the same times.
 *
 * croner parses and matches the 5-field patterns. Turning a matching wall-clock time into an
 * instant is done here, because the DST rule of docs/contracts.md ("Schedules, pipelines, streaming") holds for every schedule: a wall time that
 * does not exist (spring forward) runs at the next valid minute, a wall time that occurs twice
 * (fall back) runs once, at its first occurrence. croner follows Vixie cron instead and applies
 * that rule only to fixed-time patterns (`30 2 * * *`), skipping gap times and running doubled
 * times twice for the others (`30 * * * *`). For fixed-time patterns the two agree (checked by
 * a property test against croner's own zone handling).
 */
import { Cron } from 'croner';
import cronstrue from 'cronstrue';
import { NUMERIC_DATE_TIME } from '../format.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const FIELDS = ['minute', 'hour', 'day of month', 'month', 'day of week'];

// ---- checks -------------------------------------------------------------------------------------

/** Collapses runs of whitespace, so `0  9 * * *` and `0 9 * * *` are one pattern. */
export function normalizeCron(cron: string): string {
  return cron.trim().split(/\s+/).join(' ');
}

const floatingCache = new Map<string, Cron>();

/**
 * The pattern matched against wall-clock times: croner in UTC, whose fields are read as the
 * wall clock of the schedule's zone. Throws croner's error for a bad pattern.
 */
function floatingCron(cron: string): Cron {
  let c = floatingCache.get(cron);
  if (!c) {
    c = new Cron(cron, { mode: '5-part', timezone: 'Etc/UTC', paused: true });
    if (floatingCache.size >= 500) floatingCache.delete(floatingCache.keys().next().value!);
    floatingCache.set(cron, c);
  }
  return c;
}

/** Why a cron pattern cannot be used (5 fields: minute hour day-of-month month day-of-week), or undefined. */
export function cronIssue(raw: string): string | undefined {
  const cron = normalizeCron(raw);
  if (!cron) return "is empty; write 5 fields (minute hour day-of-month month day-of-week), e.g. '0 9 * * 1-5' for 09:00 on weekdays";
  if (cron.startsWith('@')) return `nicknames such as ${cron.split(' ')[0]} are not supported; write the 5 fields, e.g. '0 0 * * *' for every day at midnight`;
  const parts = cron.split(' ');
  if (parts.length !== 5) {
    return `must have 5 fields (minute hour day-of-month month day-of-week), e.g. '0 9 * * 1-5'; it has ${parts.length}${
      parts.length === 6 ? ' (seconds are not supported)' : ''
    }`;
  }
  let c: Cron;
  try {
    c = floatingCron(cron);
  } catch (e) {
    return `is not a valid cron pattern: ${String((e as Error).message).replace(/^CronPattern:\s*/, '')} (fields: ${FIELDS.join(', ')})`;
  }
  if (!c.nextRun(new Date(Date.UTC(2000, 0, 1)))) return 'never matches a date (such as 31 February); check the day of month and the month';
  return undefined;
}

/** The machine's IANA time zone (what a schedule without `timezone` uses). */
export function machineTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * The zone as the person wrote it, once ICU knows it (`Asia/Kolkata` stays `Asia/Kolkata`, though
 * ICU calls it `Asia/Calcutta`), or undefined when it is not one. Only the letter case is fixed
 * (`europe/paris` → `Europe/Paris`), when ICU or its list of zones spells the same name; which of
 * two names of one zone ICU prefers differs between ICU versions and is never taken.
 */
export function canonicalTimeZone(zone: string): string | undefined {
  const z = zone.trim();
  // Intl also takes offsets such as +02:00 on newer engines; a schedule needs a zone with DST rules.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(z)) return undefined;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: z }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  const key = z.toLowerCase();
  if (resolved.toLowerCase() === key) return resolved;
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone').find((name) => name.toLowerCase() === key) : undefined;
  return listed ?? z;
}

/** Why a time zone cannot be used, or undefined. */
export function timeZoneIssue(zone: string): string | undefined {
  if (canonicalTimeZone(zone)) return undefined;
  return `'${zone.slice(0, 64)}' is not an IANA time zone; use a name such as Europe/Paris, America/New_York or UTC (leave it out for this machine's zone)`;
}

// ---- wall clock <-> instants ----------------------------------------------------------------------

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      ...NUMERIC_DATE_TIME,
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall-clock reading of an instant in a zone, as milliseconds of a UTC date with the same fields. */
export function wallClockOf(instant: number, zone: string): number {
  const fields: Record<string, number> = {};
  for (const p of formatterOf(zone).formatToParts(new Date(instant))) if (p.type !== 'literal') fields[p.type] = Number(p.value);
  const ms = ((instant % 1000) + 1000) % 1000;
  return Date.UTC(fields['year']!, fields['month']! - 1, fields['day']!, fields['hour']!, fields['minute']!, fields['second']!) + ms;
}

/**
 * The instant a wall-clock time stands for in a zone: its first occurrence when it occurs twice,
 * the end of the gap (the next valid minute) when it does not exist.
 */
export function instantOfWallClock(wall: number, zone: string): number {
  const before = wallClockOf(wall - DAY, zone) - (wall - DAY);
  const after = wallClockOf(wall + DAY, zone) - (wall + DAY);
  const candidates = [...new Set([before, after])].map((offset) => wall - offset).filter((i) => wallClockOf(i, zone) === wall);
  if (candidates.length) return Math.min(...candidates);
  // In a gap the clock jumps over `wall`: find the instant of the jump.
  let lo = wall - Math.max(before, after);
  let hi = wall - Math.min(before, after);
  // To the millisecond: the jump is the first instant past `wall`, a whole second in every zone's
  // rules. Stopping at a second's width and rounding up gave one second late whenever the jump was
  // not a midpoint of the search (00:01 on a night Santiago skips from 00:00 to 01:00).
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (wallClockOf(mid, zone) > wall) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The first fire strictly after `after` (ms), or null when the pattern never fires again. */
export function nextFireAfter(cron: string, zone: string, after: number): number | null {
  const pattern = floatingCron(normalizeCron(cron));
  let wall = wallClockOf(after, zone);
  // A few rounds at most: only wall times whose first occurrence already passed (the repeated
  // hour of a fall-back) are stepped over.
  for (let i = 0; i < 2000; i++) {
    const match = pattern.nextRun(new Date(wall));
    if (!match) return null;
    const instant = instantOfWallClock(match.getTime(), zone);
    if (instant > after) return instant;
    wall = match.getTime();
  }
  return null;
}

/** The next `count` fires after `after`. */
export function nextFires(cron: string, zone: string, after: number, count: number): number[] {
  const out: number[] = [];
  let t = after;
  while (out.length < count) {
    const next = nextFireAfter(cron, zone, t);
    if (next === null) break;
    out.push(next);
    t = next;
  }
  return out;
}

/** The latest fire in (from, to], or null: what a scheduler that missed that span runs once. */
export function latestFireBetween(cron: string, zone: string, from: number, to: number): number | null {
  if (to <= from) return null;
  // Look back a little first, then further: an every-minute pattern needs a few steps, not years of them.
  for (const span of [HOUR, DAY, 32 * DAY, 367 * DAY, Infinity]) {
    const start = Math.max(from, to - span);
    let latest: number | null = null;
    let t = start;
    for (let i = 0; i < 200_000; i++) {
      const next = nextFireAfter(cron, zone, t);
      if (next === null || next > to) break;
      latest = next;
      t = next;
    }
    if (latest !== null || start === from) return latest;
  }
  return null;
}

// ---- words --------------------------------------------------------------------------------------

/** The pattern in words ("At 09:00, Monday through Friday"), or the pattern itself when it cannot be read. */
export function describeCron(cron: string): string {
  try {
    return cronstrue.toString(normalizeCron(cron), { use24HourTimeFormat: true, verbose: false, throwExceptionOnParseError: true });
  } catch {
    return normalizeCron(cron);
  }
}

/** A fire time for people, in the schedule's zone: "Mon 1 Dec 09:00" (with the year when it is not this one). */
export function formatFireTime(instant: number, zone: string, now = Date.now()): string {
  const sameYear = new Date(wallClockOf(instant, zone)).getUTCFullYear() === new Date(wallClockOf(now, zone)).getUTCFullYear();
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('weekday')} ${get('day')} ${get('month')}${sameYear ? '' : ` ${get('year')}`} ${get('hour')}:${get('minute')}`;
}

/** "At 09:00, Monday through Friday (Europe/Paris), next: Mon 1 Dec 09:00" — or why the pattern cannot be used. */
export function schedulePreview(cron: string, zone: string, now = Date.now()): string {
  const issue = cronIssue(cron);
  if (issue) return `The pattern ${issue}`;
  const next = nextFireAfter(cron, zone, now);
  return `${describeCron(cron)} (${zone})${next === null ? '' : `, next: ${formatFireTime(next, zone, now)}`}`;
}

/** The time a UUIDv7 was made (its first 48 bits), or undefined for other UUIDs. */
export function uuidV7Time(id: string): number | undefined {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-7/i.test(id)) return undefined;
  return parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}
