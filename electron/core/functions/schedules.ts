/**
 * The schedule tools agents call (seed 001's schedule_create / search / edit / delete / runs /
 * run_output), built-in functions of the `schedules` bundle. Each is a thin door onto one operation
 * of the contract (shared/operations/schedules.ts), run through the dispatcher for the caller the
 * call came from, so the operation's checks, its principal's view (an agent sees the schedules it
 * created; the data folder's owner, all) and its audit record hold as they do over REST.
 *
 * They act for the principal that calls them, so they refuse to run as a schedule's or a
 * pipeline's step: either would act as the folder's owner for whoever set it up.
 */
import type { Caller } from '../../../shared/caller.js';
import type { ErrorDetails } from '../../../shared/errors.js';
import {
  MAX_OFFSET,
  RUN_OUTPUT_DEFAULT_CHARS,
  RUN_OUTPUT_MAX_CHARS,
  RUN_OUTPUT_MIN_CHARS,
  SCHEDULE_RUNS_DEFAULT_LIMIT,
  SCHEDULE_RUNS_MAX_LIMIT,
  SCHEDULE_SEARCH_DEFAULT_LIMIT,
  SCHEDULE_SEARCH_MAX_LIMIT,
  type ManagedSchedule,
  type ScheduleRunOutputChunk,
  type ScheduleRunsPage,
  type ScheduleSearchPage,
} from '../../../shared/schedules/manage.js';
import { MAX_INTERVAL_SECONDS, MAX_SCHEDULE_NAME } from '../../../shared/schedules/schema.js';
import { CoreError } from '../errors.js';
import type { ScheduleOpName } from './services.js';
import { defineFunction, type FunctionContext, type FunctionResult } from './types.js';

const UUID = { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' };
const SCHEDULE_ID = { ...UUID, description: 'The schedule, as schedule_search or schedule_create gave it.' };
const TOOL_REF = {
  type: 'string',
  minLength: 1,
  maxLength: 300,
  description: "The tool to run: its name as you call it, '<bundle>/<tool>@<version>', or its toolID.",
};
const CADENCE = {
  cron: { type: 'string', minLength: 1, maxLength: 200, description: "A 5-field cron pattern, e.g. '0 9 * * 1-5' (09:00 on weekdays)." },
  at: {
    type: 'string',
    minLength: 1,
    maxLength: 64,
    description: "Once, at this time: RFC 3339 with its offset, in the future, e.g. '2026-07-01T09:00:00+02:00'.",
  },
  everySeconds: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_INTERVAL_SECONDS,
    description: 'Every this many seconds (at least the configured minimum, 60 by default).',
  },
  timezone: { type: 'string', maxLength: 64, description: "The IANA zone of a cron pattern, e.g. 'Europe/Lisbon' (the machine's when left out)." },
};
const ARGS = { type: 'object', additionalProperties: true, description: 'The arguments the tool runs with, as its input schema asks.' };
const PAGE = (max: number, dflt: number) => ({
  limit: { type: 'integer', minimum: 1, maximum: max, default: dflt, description: `How many to return (1–${max}, default ${dflt}).` },
  offset: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0, description: 'How many to skip (0 for the first page).' },
});
const SCHEDULE_OUT = {
  type: 'object',
  properties: {
    scheduleID: { type: 'string', description: 'The schedule.' },
    tool: { type: 'string', description: 'The tool it runs, <bundle>/<tool>@<version>.' },
    state: { type: 'string', enum: ['active', 'paused'], description: 'Whether it fires.' },
    cadenceText: { type: 'string', description: 'When it fires, in words.' },
    nextRunAt: { type: ['string', 'null'], description: 'When it fires next (null while paused or done).' },
  },
  required: ['scheduleID', 'tool', 'state'],
};
const PAGE_OUT = {
  total: { type: 'integer', description: 'Matches in all.' },
  remaining: { type: 'integer', description: 'Matches after this page (0 on the last).' },
  offset: { type: 'integer', description: 'Where this page starts.' },
  limit: { type: 'integer', description: 'The page size used.' },
};
/** A page's card: how many of how many, and how many more. */
const pageCard = (title: string, page: { items: unknown[]; total: number; remaining: number }) => ({
  title,
  text: `${page.items.length} of ${page.total}${page.remaining ? `, ${page.remaining} more` : ''}`,
});

/** Runs one operation for the call's caller; its refusal becomes the tool's error, with its code and fields. */
async function operate<T>(ctx: FunctionContext, name: ScheduleOpName, input: Record<string, unknown>): Promise<T> {
  const caller: Caller | undefined = ctx.caller;
  if (caller && (caller.transport === 'schedule' || caller.transport === 'pipeline')) {
    throw new CoreError(
      'FORBIDDEN',
      `the schedule tools act for the principal that calls them, so they do not run as a ${caller.transport === 'schedule' ? "schedule's run" : "pipeline's step"}; call them directly`,
    );
  }
  const run = ctx.services?.operations();
  if (!run) throw new CoreError('TOOL_UNAVAILABLE', 'the schedule tools need the operations of a running Toolwright core');
  const env = await run(name, input, caller ?? { transport: 'app', name: 'app' });
  if (!env.ok) throw new CoreError(env.error.code, env.error.message, env.error.details as ErrorDetails | undefined);
  return env.data as T;
}

const drop = <T extends Record<string, unknown>>(o: T): Record<string, unknown> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

function scheduleCard(s: ManagedSchedule, verb: string): FunctionResult<ManagedSchedule> {
  const next = s.nextRunAt ? `; next ${s.nextRunAt}` : '';
  return { value: s, card: { title: `${verb}: ${s.name ?? s.tool}`, text: `${s.tool}, ${s.cadenceText}, ${s.state}${next}` } };
}

export const scheduleCreateFunction = defineFunction<Record<string, unknown>, ManagedSchedule>({
  name: 'core.scheduleCreate',
  description:
    'Create a schedule that runs a tool on a cadence: a cron pattern, once at a time (RFC 3339), or every N seconds. Privileged: a person approves it. The schedule is yours: schedule_search, schedule_edit and schedule_delete reach it.',
  safety: 'privileged',
  argSchema: {
    type: 'object',
    properties: {
      tool: TOOL_REF,
      name: { type: 'string', maxLength: MAX_SCHEDULE_NAME, description: 'What the schedule is for, in a few words.' },
      ...CADENCE,
      args: ARGS,
      isEnabled: { type: 'boolean', default: true, description: 'false to create it paused.' },
    },
    required: ['tool'],
    additionalProperties: false,
  },
  outputSchema: SCHEDULE_OUT,
  run: async (args, ctx) => scheduleCard(await operate<ManagedSchedule>(ctx, 'schedules.create', args), 'Scheduled'),
});

export const scheduleSearchFunction = defineFunction<Record<string, unknown>, ScheduleSearchPage>({
  name: 'core.scheduleSearch',
  description:
    'List your schedules, newest first, filtered by text (name, tool, cadence), tool, state (active or paused) and cadence kind (cron, once, interval), a page at a time; remaining says how many follow.',
  safety: 'readOnly',
  argSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', maxLength: 200, description: 'Words in the name, the tool or the cadence.' },
      tool: { ...TOOL_REF, description: "Only schedules of this tool (its name, '<bundle>/<tool>@<version>' or toolID)." },
      state: { type: 'string', enum: ['active', 'paused'], description: 'Only active or only paused schedules.' },
      cadence: { type: 'string', enum: ['cron', 'once', 'interval'], description: 'Only this kind of cadence.' },
      ...PAGE(SCHEDULE_SEARCH_MAX_LIMIT, SCHEDULE_SEARCH_DEFAULT_LIMIT),
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: { items: { type: 'array', description: 'The schedules of this page.', items: { type: 'object' } }, ...PAGE_OUT },
    required: ['items', 'total', 'remaining'],
  },
  run: async (args, ctx) => {
    const page = await operate<ScheduleSearchPage>(ctx, 'schedules.search', args);
    return { value: page, card: pageCard('Schedules', page) };
  },
});

export const scheduleEditFunction = defineFunction<Record<string, unknown>, ManagedSchedule>({
  name: 'core.scheduleEdit',
  description:
    'Change one of your schedules in part: pause or resume it (state), its cadence, its arguments or its name; what you leave out stays. Checked as at creation.',
  safety: 'sideEffecting',
  argSchema: {
    type: 'object',
    properties: {
      scheduleID: SCHEDULE_ID,
      state: { type: 'string', enum: ['active', 'paused'], description: 'paused stops it firing; active resumes it.' },
      name: { type: ['string', 'null'], maxLength: MAX_SCHEDULE_NAME, description: 'A new name (null removes it).' },
      ...CADENCE,
      args: { ...ARGS, description: 'New arguments (they replace the old ones whole).' },
    },
    required: ['scheduleID'],
    additionalProperties: false,
  },
  outputSchema: SCHEDULE_OUT,
  run: async (args, ctx) => {
    const { scheduleID, state, ...rest } = args as { scheduleID: string; state?: 'active' | 'paused' } & Record<string, unknown>;
    const patch = drop({ ...rest, ...(state ? { isEnabled: state === 'active' } : {}) });
    if (Object.keys(patch).length === 0) {
      throw new CoreError('INVALID_ARGS', 'nothing to change: give state, a cadence (cron, at or everySeconds), timezone, args or name', {
        issues: [{ field: 'args', message: 'names nothing to change' }],
      });
    }
    return scheduleCard(await operate<ManagedSchedule>(ctx, 'schedules.edit', { scheduleID, patch }), 'Changed');
  },
});

export const scheduleDeleteFunction = defineFunction<{ scheduleID: string }, { deleted: true; scheduleID: string }>({
  name: 'core.scheduleDelete',
  description: 'Delete one of your schedules for good, with the runs kept of it.',
  safety: 'sideEffecting',
  argSchema: { type: 'object', properties: { scheduleID: SCHEDULE_ID }, required: ['scheduleID'], additionalProperties: false },
  outputSchema: {
    type: 'object',
    properties: { deleted: { type: 'boolean', description: 'true.' }, scheduleID: { type: 'string', description: 'The schedule deleted.' } },
    required: ['deleted', 'scheduleID'],
  },
  run: async (args, ctx) => {
    const value = await operate<{ deleted: true; scheduleID: string }>(ctx, 'schedules.delete', { scheduleID: args.scheduleID });
    return { value, card: { title: 'Schedule deleted', text: value.scheduleID } };
  },
});

export const scheduleRunsFunction = defineFunction<Record<string, unknown>, ScheduleRunsPage>({
  name: 'core.scheduleRuns',
  description:
    'The runs kept of one of your schedules, newest first: when, how it went, how long, and how many characters of output each kept (read it with schedule_run_output).',
  safety: 'readOnly',
  argSchema: {
    type: 'object',
    properties: { scheduleID: SCHEDULE_ID, ...PAGE(SCHEDULE_RUNS_MAX_LIMIT, SCHEDULE_RUNS_DEFAULT_LIMIT) },
    required: ['scheduleID'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      scheduleID: { type: 'string', description: 'The schedule.' },
      items: { type: 'array', description: 'Its runs, newest first.', items: { type: 'object' } },
      ...PAGE_OUT,
    },
    required: ['items', 'total', 'remaining'],
  },
  run: async (args, ctx) => {
    const page = await operate<ScheduleRunsPage>(ctx, 'schedules.runs', args);
    return { value: page, card: pageCard('Runs', page) };
  },
});

export const scheduleRunOutputFunction = defineFunction<Record<string, unknown>, ScheduleRunOutputChunk>({
  name: 'core.scheduleRunOutput',
  description: `Read the output of one run of your schedule, a chunk at a time: from offset, at most maxChars characters (${RUN_OUTPUT_MIN_CHARS}–${RUN_OUTPUT_MAX_CHARS}, default ${RUN_OUTPUT_DEFAULT_CHARS}); nextOffset and remaining say what is left.`,
  safety: 'readOnly',
  argSchema: {
    type: 'object',
    properties: {
      scheduleID: SCHEDULE_ID,
      invocationID: { ...UUID, description: 'The run, as schedule_runs lists it.' },
      offset: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_OFFSET,
        default: 0,
        description: 'The first character to read (0, or the nextOffset of the previous chunk).',
      },
      maxChars: {
        type: 'integer',
        minimum: RUN_OUTPUT_MIN_CHARS,
        maximum: RUN_OUTPUT_MAX_CHARS,
        default: RUN_OUTPUT_DEFAULT_CHARS,
        description: `At most this many characters (${RUN_OUTPUT_MIN_CHARS}–${RUN_OUTPUT_MAX_CHARS}).`,
      },
    },
    required: ['scheduleID', 'invocationID'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The characters of this chunk.' },
      offset: { type: 'integer', description: 'Where this chunk starts.' },
      nextOffset: { type: ['integer', 'null'], description: 'Where the next chunk starts (null at the end).' },
      remaining: { type: 'integer', description: 'Characters after this chunk.' },
      totalChars: { type: 'integer', description: 'Characters kept of the output.' },
    },
    required: ['text', 'offset', 'nextOffset', 'remaining', 'totalChars'],
  },
  run: async (args, ctx) => {
    const chunk = await operate<ScheduleRunOutputChunk>(ctx, 'schedules.runOutput', args);
    return { value: chunk, card: { title: 'Run output', text: chunk.text } };
  },
});

export const SCHEDULE_FUNCTIONS = [
  scheduleCreateFunction,
  scheduleSearchFunction,
  scheduleEditFunction,
  scheduleDeleteFunction,
  scheduleRunsFunction,
  scheduleRunOutputFunction,
] as const;
