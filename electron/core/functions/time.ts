/**
 * core.now and core.convertTime on the runtime's own IANA database (Intl), so no zone data
 * ships with the app and it stays as current as Node/Electron.
 *
 * A wall-clock time without an offset is placed in its zone the way Temporal's
 * "compatible" disambiguation does: in a DST gap it moves forward by the gap, in a fold it
 * takes the earlier instant; both cases are reported in `note`.
 */
import { CoreError } from '../errors.js';
import { defineFunction } from './types.js';
import { keyValueTable } from './html.js';
import { NUMERIC_DATE_TIME } from '../../../shared/format.js';

const formatters = new Map<string, Intl.DateTimeFormat>();
const fullFormatters = new Map<string, Intl.DateTimeFormat>();

function badZone(name: string, field: string): CoreError {
  const needle = name.trim().toLowerCase().replace(/\s+/g, '_');
  const suggestions = Intl.supportedValuesOf('timeZone')
    .filter((z) => z.toLowerCase().endsWith('/' + needle) || z.toLowerCase().includes(needle))
    .slice(0, 5);
  const hint = suggestions.length ? ` Did you mean ${suggestions.map((s) => `'${s}'`).join(', ')}?` : '';
  return new CoreError('INVALID_ARGS', `unknown time zone '${name}': use an IANA name such as 'Europe/Berlin', 'America/New_York' or 'UTC'.${hint}`, {
    issues: [{ field, message: `unknown time zone '${name}'` }],
  });
}

/** The canonical spelling of an IANA zone (input is case-insensitive), or INVALID_ARGS. */
export function resolveZone(name: string, field = 'args.timeZone'): string {
  const cached = formatters.get(name);
  if (cached) return cached.resolvedOptions().timeZone;
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      ...NUMERIC_DATE_TIME,
      weekday: 'long',
      era: 'short',
    });
  } catch {
    throw badZone(name, field);
  }
  // Intl also takes offsets like "+05:30" on newer runtimes; keep to IANA names for predictable output.
  if (/^[+-]/.test(name)) throw badZone(name, field);
  const zone = fmt.resolvedOptions().timeZone;
  if (formatters.size > 2000) formatters.clear(); // names come from callers (any letter case): keep the cache bounded
  formatters.set(name, fmt);
  formatters.set(zone, fmt);
  return zone;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

function wallClockOf(epochMs: number, zone: string): WallClock & { weekday: string } {
  resolveZone(zone);
  const parts = formatters.get(zone)!.formatToParts(new Date(epochMs));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const bc = get('era') === 'BC';
  const year = Number(get('year'));
  return {
    year: bc ? 1 - year : year,
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    second: Number(get('second')),
    millisecond: ((epochMs % 1000) + 1000) % 1000,
    weekday: get('weekday'),
  };
}

/** Milliseconds of a wall clock read as if it were UTC (years below 100 included). */
function wallAsUtc(w: WallClock): number {
  const d = new Date(Date.UTC(2000, w.month - 1, w.day, w.hour, w.minute, w.second, w.millisecond));
  d.setUTCFullYear(w.year);
  return d.getTime();
}

/** Offset of the zone from UTC at an instant, in milliseconds (east positive). */
export function offsetMsAt(epochMs: number, zone: string): number {
  return wallAsUtc(wallClockOf(epochMs, zone)) - epochMs;
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

function formatOffset(offsetMs: number): string {
  const totalSeconds = Math.round(offsetMs / 1000);
  const sign = totalSeconds < 0 ? '-' : '+';
  const abs = Math.abs(totalSeconds);
  const seconds = abs % 60;
  return `${sign}${pad(Math.floor(abs / 3600))}:${pad(Math.floor(abs / 60) % 60)}${seconds ? `:${pad(seconds)}` : ''}`;
}

function formatYear(y: number): string {
  return y >= 0 && y <= 9999 ? pad(y, 4) : (y < 0 ? '-' : '+') + pad(y, 6);
}

export interface ZonedTime {
  timeZone: string;
  iso: string;
  local: string;
  offset: string;
  isoWithOffset: string;
  epochMs: number;
  weekday: string;
  formatted: string;
}

export function describeInstant(epochMs: number, zoneName: string): ZonedTime {
  const zone = resolveZone(zoneName);
  const w = wallClockOf(epochMs, zone);
  const offset = formatOffset(wallAsUtc(w) - epochMs);
  const local = `${formatYear(w.year)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}.${pad(w.millisecond, 3)}`;
  let full = fullFormatters.get(zone);
  if (!full) {
    full = new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'full', timeStyle: 'long' });
    fullFormatters.set(zone, full);
  }
  return {
    timeZone: zone,
    iso: new Date(epochMs).toISOString(),
    local,
    offset,
    isoWithOffset: local + offset,
    epochMs,
    weekday: w.weekday,
    formatted: full.format(new Date(epochMs)),
  };
}

const TIME_PATTERN =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:[.,]([0-9]{1,9}))?)?)?\s*(Z|z|[+-][0-9]{2}(?::?[0-9]{2})?)?$/;

function badTime(input: string, why: string): CoreError {
  return new CoreError('INVALID_ARGS', `time '${input}' ${why}`, { issues: [{ field: 'args.time', message: why }] });
}

export interface ParsedTime {
  epochMs: number;
  /** Set when the wall-clock time was skipped (DST gap) or occurs twice (fold). */
  note?: string;
}

/** ISO 8601 date or date-time; without an offset the wall clock is read in `zone`. */
export function parseTime(input: string, zone: string | undefined): ParsedTime {
  const m = TIME_PATTERN.exec(input.trim());
  if (!m) {
    throw badTime(
      input,
      'is not an ISO 8601 date-time: write e.g. 2026-03-29T14:30:00Z, 2026-03-29T14:30:00+02:00, or 2026-03-29 14:30 with from set to its zone',
    );
  }
  const w: WallClock = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
    millisecond: Number((m[7] ?? '0').padEnd(3, '0').slice(0, 3)),
  };
  const daysInMonth = new Date(Date.UTC(2000, w.month, 0)).getUTCDate() - (w.month === 2 && !isLeap(w.year) ? 1 : 0);
  if (w.year < 1) throw badTime(input, 'has year 0000; years run from 0001');
  if (w.month < 1 || w.month > 12) throw badTime(input, `has month ${pad(w.month)}; months run from 01 to 12`);
  if (w.day < 1 || w.day > daysInMonth) throw badTime(input, `has day ${pad(w.day)}; that month has ${daysInMonth} days`);
  if (w.hour > 23 || w.minute > 59 || w.second > 59) throw badTime(input, 'has an hour, minute or second out of range (00:00:00 to 23:59:59)');

  const offsetText = m[8];
  if (offsetText) {
    if (/^z$/i.test(offsetText)) return { epochMs: wallAsUtc(w) };
    const sign = offsetText.startsWith('-') ? -1 : 1;
    const digits = offsetText.slice(1).replace(':', '');
    const hours = Number(digits.slice(0, 2));
    const minutes = Number(digits.slice(2) || '0');
    if (hours > 23 || minutes > 59) throw badTime(input, `has an offset out of range (${offsetText})`);
    return { epochMs: wallAsUtc(w) - sign * (hours * 3_600_000 + minutes * 60_000) };
  }
  if (!zone) {
    throw badTime(input, "has no UTC offset: add Z or +hh:mm, or set 'from' to the IANA zone the wall-clock time is in");
  }
  return placeWallClock(w, resolveZone(zone));
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function placeWallClock(w: WallClock, zone: string): ParsedTime {
  const asUtc = wallAsUtc(w);
  const day = 86_400_000;
  const offsets = [...new Set([offsetMsAt(asUtc - day, zone), offsetMsAt(asUtc + day, zone)])];
  const matches = offsets.map((o) => asUtc - o).filter((t) => offsetMsAt(t, zone) === asUtc - t);
  const unique = [...new Set(matches)].sort((a, b) => a - b);
  if (unique.length === 1) return { epochMs: unique[0]! };
  if (unique.length > 1) {
    return { epochMs: unique[0]!, note: `the wall-clock time occurs twice in ${zone} (clocks go back); the earlier one was used` };
  }
  // In a gap: shift forward by the gap, i.e. read the wall clock with the offset before the change.
  const before = offsets[0]!;
  return { epochMs: asUtc - before, note: `the wall-clock time does not exist in ${zone} (clocks go forward); it was moved forward by the gap` };
}

function zonedTimeSchema(description: string): Record<string, unknown> {
  return {
    type: 'object',
    description,
    properties: {
      timeZone: { type: 'string', description: 'Canonical IANA zone name.' },
      iso: { type: 'string', format: 'date-time', description: 'The instant in UTC, ISO 8601 with Z.' },
      local: { type: 'string', description: 'Wall-clock date and time in the zone, without offset.' },
      offset: { type: 'string', description: 'Offset from UTC in the zone at that instant, e.g. +02:00.' },
      isoWithOffset: { type: 'string', description: 'local followed by offset: ISO 8601 with the zone offset.' },
      epochMs: { type: 'integer', description: 'Milliseconds since 1970-01-01T00:00:00Z.' },
      weekday: { type: 'string', description: 'Day of the week in the zone, in English.' },
      formatted: { type: 'string', description: 'Human-readable date and time (English).' },
    },
    required: ['timeZone', 'iso', 'local', 'offset', 'isoWithOffset', 'epochMs', 'weekday', 'formatted'],
    additionalProperties: false,
  };
}

const ZONE_DESCRIPTION = "IANA time-zone name, case-insensitive, e.g. 'Europe/Berlin', 'Asia/Tokyo', 'UTC'.";

function zonedRows(z: ZonedTime): [string, string][] {
  return [
    ['Zone', z.timeZone],
    ['Local', z.formatted],
    ['ISO', z.isoWithOffset],
    ['UTC', z.iso],
  ];
}

export const nowFunction = defineFunction<{ timeZone?: string }, ZonedTime>({
  name: 'core.now',
  description: 'The current date and time in an IANA time zone (default UTC), with its UTC offset.',
  argSchema: {
    type: 'object',
    properties: { timeZone: { type: 'string', minLength: 1, maxLength: 64, default: 'UTC', description: ZONE_DESCRIPTION } },
    additionalProperties: false,
  },
  outputSchema: zonedTimeSchema('The current time in the requested zone.'),
  safety: 'readOnly',
  run({ timeZone = 'UTC' }) {
    const value = describeInstant(Date.now(), timeZone);
    return { value, card: { title: `Time in ${value.timeZone}`, html: keyValueTable(zonedRows(value)), text: value.formatted } };
  },
});

interface ConvertArgs {
  time?: string;
  from?: string;
  to: string;
}

export const convertTimeFunction = defineFunction<ConvertArgs, { input: string; from: ZonedTime; to: ZonedTime; note?: string }>({
  name: 'core.convertTime',
  description: 'Convert a date-time between IANA time zones. The time may carry an offset (Z, +02:00) or be a wall-clock time in the zone named by from.',
  argSchema: {
    type: 'object',
    properties: {
      time: {
        type: 'string',
        minLength: 1,
        maxLength: 64,
        description: "ISO 8601 date or date-time, e.g. '2026-03-29T14:30:00Z' or '2026-03-29 14:30' (then from is needed). Default: now.",
      },
      from: {
        type: 'string',
        minLength: 1,
        maxLength: 64,
        description: `Zone of the given time when it has no offset; also how the source is shown. ${ZONE_DESCRIPTION}`,
      },
      to: { type: 'string', minLength: 1, maxLength: 64, description: `Target zone. ${ZONE_DESCRIPTION}` },
    },
    required: ['to'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      input: { type: 'string', description: 'The time as given (or the current UTC time when none was).' },
      from: zonedTimeSchema('The instant shown in the source zone (UTC when from is not set).'),
      to: zonedTimeSchema('The same instant in the target zone.'),
      note: { type: 'string', description: 'Present when the wall-clock time was skipped or repeated by a DST change.' },
    },
    required: ['input', 'from', 'to'],
    additionalProperties: false,
  },
  safety: 'readOnly',
  run({ time, from, to }) {
    const fromZone = from === undefined ? 'UTC' : resolveZone(from, 'args.from');
    const toZone = resolveZone(to, 'args.to');
    const parsed = time === undefined ? { epochMs: Date.now() } : parseTime(time, from === undefined ? undefined : fromZone);
    const value: { input: string; from: ZonedTime; to: ZonedTime; note?: string } = {
      input: time ?? new Date(parsed.epochMs).toISOString(),
      from: describeInstant(parsed.epochMs, fromZone),
      to: describeInstant(parsed.epochMs, toZone),
    };
    if (parsed.note) value.note = parsed.note;
    const html = keyValueTable([
      ['From', `${value.from.isoWithOffset} (${value.from.timeZone})`],
      ['To', `${value.to.isoWithOffset} (${value.to.timeZone})`],
      ['To, in words', value.to.formatted],
      ...(value.note ? ([['Note', value.note]] as [string, string][]) : []),
    ]);
    return { value, card: { title: `${value.from.timeZone} → ${value.to.timeZone}`, html, text: `${value.to.isoWithOffset} ${value.to.timeZone}` } };
  },
});
