/**
 * A Chalie manifest's `trigger` as a Toolwright schedule, switched off (an imported tool runs on
 * its own only once someone here switched it on). Read forms:
 *   "0 8 * * *"                                            a cron pattern
 *   "*\/30"                                                 Chalie's interval form: every 30 minutes
 *   {type: "cron"|"schedule"|"scheduled", schedule|cron|expression|value: "0 8 * * *",
 *    timezone|tz|timeZone?, args|params|parameters?}      a cron pattern with its zone and arguments
 *   {type: "interval", minutes|hours|seconds|every: N}     every N minutes (N divides 60) or hours (N divides 24)
 *   {type: "on_demand", …}                                 nothing to schedule: the tool runs when called
 * Anything else is reported and left out. Arguments the trigger does not give are filled with
 * the argSchema's defaults; what is still missing is checked when the schedule is switched on.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Schedule } from '../../../../shared/schedules/schema.js';
import { canonicalTimeZone, cronIssue, describeCron, normalizeCron } from '../../../../shared/schedules/cron.js';
import { clip } from './common.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const first = (o: Json, ...keys: string[]): unknown => keys.map((k) => o[k]).find((v) => v !== undefined);

/** The trigger fields a schedule takes; anything else (Chalie's prompt, …) is kept in extensions. */
export const TRIGGER_KEYS = [
  'type',
  'schedule',
  'cron',
  'expression',
  'pattern',
  'value',
  'timezone',
  'tz',
  'timeZone',
  'time_zone',
  'args',
  'params',
  'parameters',
  'arguments',
  'minutes',
  'hours',
  'seconds',
  'every',
  'interval',
] as const;

/** Chalie reads a schedule's leading "*\/N" as every N minutes, whatever follows it. */
const MINUTE_INTERVAL = /^\*\/(\d{1,5})$/;

const ON_DEMAND = new Set(['on_demand', 'on-demand', 'ondemand', 'manual', 'none', 'call']);

function intervalCron(o: Json): string | undefined {
  const every = first(o, 'every', 'interval');
  const minutes = typeof o['minutes'] === 'number' ? o['minutes'] : typeof o['seconds'] === 'number' ? o['seconds'] / 60 : undefined;
  const hours = typeof o['hours'] === 'number' ? o['hours'] : undefined;
  const m = minutes ?? (typeof every === 'number' ? every / 60 : undefined);
  if (hours !== undefined) {
    if (hours === 24) return '0 0 * * *';
    if (Number.isInteger(hours) && hours > 0 && 24 % hours === 0) return `0 */${hours} * * *`;
    return undefined;
  }
  if (m === undefined) return undefined;
  if (m === 60) return '0 * * * *';
  if (Number.isInteger(m) && m > 0 && 60 % m === 0) return m === 1 ? '* * * * *' : `*/${m} * * * *`;
  if (Number.isInteger(m) && m > 0 && m % 60 === 0) return intervalCron({ hours: m / 60 });
  return undefined;
}

function defaultsOf(argSchema: unknown): Json {
  const props = obj(obj(argSchema)?.['properties']) ?? {};
  const out: Json = {};
  for (const [name, p] of Object.entries(props)) {
    const d = obj(p)?.['default'];
    if (d !== undefined) out[name] = d;
  }
  return out;
}

/** The schedule a trigger becomes (switched off), or none, with a note for the import report. */
export function scheduleFromTrigger(trigger: unknown, argSchema: unknown): { schedule?: Schedule; note: string } {
  const shown = clip(JSON.stringify(trigger), 120);
  const o = obj(trigger);
  const type = typeof o?.['type'] === 'string' ? o['type'].toLowerCase() : undefined;
  let cron: string | undefined;
  if (typeof trigger === 'string') cron = trigger;
  else if (o) {
    const pattern = first(o, 'schedule', 'cron', 'expression', 'pattern', 'value');
    if (typeof pattern === 'string') cron = pattern;
    else if (type === 'interval' || obj(pattern) || first(o, 'minutes', 'hours', 'seconds', 'every') !== undefined) cron = intervalCron(obj(pattern) ?? o);
  }
  const everyMinutes = cron === undefined ? undefined : MINUTE_INTERVAL.exec(cron.trim());
  if (everyMinutes) {
    const every = intervalCron({ minutes: Number(everyMinutes[1]) });
    if (!every)
      return {
        note: `its trigger ${shown} (every ${everyMinutes[1]} minutes) was not turned into a schedule: a cron pattern can only repeat every N minutes when N divides 60, or whole hours that divide 24`,
      };
    cron = every;
  }
  if (cron === undefined) {
    if (type && ON_DEMAND.has(type)) return { note: `its trigger ${shown} runs it when called, so it needs no schedule` };
    return { note: `its trigger ${shown} was not turned into a schedule: only cron patterns and whole-minute or whole-hour intervals are understood` };
  }
  cron = normalizeCron(cron);
  const bad = cronIssue(cron);
  if (bad) return { note: `its trigger ${shown} was not turned into a schedule: the pattern ${bad}` };
  const zoneText = o ? first(o, 'timezone', 'tz', 'timeZone', 'time_zone') : undefined;
  const timezone = typeof zoneText === 'string' ? canonicalTimeZone(zoneText) : undefined;
  const given = o ? obj(first(o, 'args', 'params', 'parameters', 'arguments')) : undefined;
  const schedule: Schedule = {
    scheduleID: uuidv7(),
    cron,
    ...(timezone ? { timezone } : {}),
    args: { ...defaultsOf(argSchema), ...given },
    isEnabled: false,
  };
  const zoneNote = typeof zoneText === 'string' && !timezone ? ` (its time zone '${clip(zoneText, 40)}' is not an IANA zone: this machine's is used)` : '';
  return {
    schedule,
    note: `its trigger became a schedule, switched off: ${describeCron(cron)} (${cron})${zoneNote}; check its arguments and switch it on in the tool's editor or on the Schedules screen`,
  };
}
