/** Schedules: list, switch, run now, latest output. */
import { Type } from '@sinclair/typebox';
import { Uuid } from '../schemas.js';
import type { InvokeResult, ScheduleOutput, ScheduleView } from '../types.js';
import { op, EnabledPatch, INVOKE_ERRORS } from './op.js';

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
} as const;
