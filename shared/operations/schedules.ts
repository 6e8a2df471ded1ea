/**
 * Schedules: list, switch, run now, latest output; and managing them as a principal does
 * (create, search, edit, delete, runs, a run's output), what the built-in schedule tools of agents
 * call. Those six answer for the caller's principal alone: another's schedule is answered as one
 * that does not exist (docs/contracts.md, "Schedules an agent manages").
 */
import { Type } from '@sinclair/typebox';
import { Uuid } from '../schemas.js';
import { Nullable } from '../schema-primitives.js';
import type { InvokeResult, ScheduleOutput, ScheduleView } from '../types.js';
import { MAX_INTERVAL_SECONDS, MAX_SCHEDULE_NAME } from '../schedules/schema.js';
import {
  MAX_OFFSET,
  RUN_OUTPUT_MAX_CHARS,
  RUN_OUTPUT_MIN_CHARS,
  SCHEDULE_RUNS_MAX_LIMIT,
  SCHEDULE_SEARCH_MAX_LIMIT,
  type ManagedSchedule,
  type ScheduleRunOutputChunk,
  type ScheduleRunsPage,
  type ScheduleSearchPage,
} from '../schedules/manage.js';
import { op, EnabledPatch, INVOKE_ERRORS } from './op.js';

/** The tool a schedule runs: its toolID, `<bundleSlug>/<toolSlug>[@version]`, or a slug (or agent name) that is unique. */
const ToolRefText = Type.String({ minLength: 1, maxLength: 300 });
const Args = Type.Object({}, { additionalProperties: true });
const Offset = Type.Integer({ minimum: 0, maximum: MAX_OFFSET });
const SAVE_ERRORS = ['INVALID_INPUT', 'NOT_FOUND', 'MODIFIED_ELSEWHERE', 'BUNDLE_DISABLED', 'BUNDLE_DELETED', 'BUILTIN_READONLY', 'FORBIDDEN'] as const;

/** The fields an edit may change, each optional: a cadence given replaces the one stored. */
const SchedulePatch = Type.Object(
  {
    name: Type.Optional(Nullable(Type.String({ maxLength: MAX_SCHEDULE_NAME }))),
    cron: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    at: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    everySeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INTERVAL_SECONDS })),
    timezone: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
    args: Type.Optional(Args),
    isEnabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const schedulesOperations = {
  'schedules.list': op<{ items: ScheduleView[] }>()({
    summary: "Every tool's schedules with their next run and last run (of one tool with toolID)",
    input: Type.Object({ toolID: Type.Optional(Uuid) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT'],
  }),
  'schedules.patch': op<ScheduleView>()({
    summary: 'Switch a schedule on or off (an edit of its tool.json, with the save rules)',
    input: Type.Object({ scheduleID: Uuid, patch: EnabledPatch }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'MODIFIED_ELSEWHERE', 'BUNDLE_DISABLED', 'BUNDLE_DELETED', 'BUILTIN_READONLY'],
  }),
  'schedules.run': op<InvokeResult>()({
    summary: "Run a schedule now, with its arguments, through every gate; recorded as the schedule's run",
    input: Type.Object({ scheduleID: Uuid, confirm: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    errors: INVOKE_ERRORS,
  }),
  'schedules.latest': op<ScheduleOutput>()({
    summary: 'The latest output of a schedule (404 until it has run)',
    input: Type.Object({ scheduleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'schedules.create': op<ManagedSchedule>()({
    summary: "Create a schedule of a tool (one cadence: cron, a one-off time in RFC 3339, or an interval), owned by the caller's principal",
    input: Type.Object(
      {
        tool: ToolRefText,
        name: Type.Optional(Type.String({ maxLength: MAX_SCHEDULE_NAME })),
        cron: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        at: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        everySeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INTERVAL_SECONDS })),
        timezone: Type.Optional(Type.String({ maxLength: 64 })),
        args: Type.Optional(Args),
        isEnabled: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    errors: [...SAVE_ERRORS],
  }),
  'schedules.search': op<ScheduleSearchPage>()({
    summary: "The caller's schedules, filtered (text, tool, state, cadence kind) and paged (limit ≤ 50, offset; remaining says what follows)",
    input: Type.Object(
      {
        text: Type.Optional(Type.String({ maxLength: 200 })),
        tool: Type.Optional(ToolRefText),
        state: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('paused')])),
        cadence: Type.Optional(Type.Union([Type.Literal('cron'), Type.Literal('once'), Type.Literal('interval')])),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SCHEDULE_SEARCH_MAX_LIMIT })),
        offset: Type.Optional(Offset),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'schedules.edit': op<ManagedSchedule>()({
    summary: "Change part of one of the caller's schedules (pause or resume, cadence, arguments, name), with the save rules of its creation",
    input: Type.Object({ scheduleID: Uuid, patch: SchedulePatch }, { additionalProperties: false }),
    errors: [...SAVE_ERRORS],
  }),
  'schedules.delete': op<{ deleted: true; scheduleID: string }>()({
    summary: "Delete one of the caller's schedules (an edit of its tool.json; its kept runs go with it)",
    input: Type.Object({ scheduleID: Uuid }, { additionalProperties: false }),
    errors: [...SAVE_ERRORS],
  }),
  'schedules.runs': op<ScheduleRunsPage>()({
    summary: "The kept runs of one of the caller's schedules, newest first, paged (limit ≤ 50, offset, remaining)",
    input: Type.Object(
      { scheduleID: Uuid, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SCHEDULE_RUNS_MAX_LIMIT })), offset: Type.Optional(Offset) },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'schedules.runOutput': op<ScheduleRunOutputChunk>()({
    summary: "A chunk of a kept run's output (offset, maxChars 200–8,000, default 4,000), with what remains",
    input: Type.Object(
      {
        scheduleID: Uuid,
        invocationID: Uuid,
        offset: Type.Optional(Offset),
        maxChars: Type.Optional(Type.Integer({ minimum: RUN_OUTPUT_MIN_CHARS, maximum: RUN_OUTPUT_MAX_CHARS })),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
} as const;
