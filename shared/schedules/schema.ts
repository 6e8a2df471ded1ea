/**
 * The `schedules` of tool.json (docs/contracts.md, "Schedules, pipelines, streaming"): as stored, and
 * as a client may send them. Kept apart from the cron helpers (./cron.ts) so the schemas
 * that every screen imports do not pull a cron library along.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp, Uuid } from '../schema-primitives.js';

// In their own module so the renderer can read them without pulling TypeBox in.
import { MAX_INTERVAL_SECONDS, MAX_SCHEDULE_NAME, MAX_SCHEDULES } from './limits.js';
export { MAX_INTERVAL_SECONDS, MAX_SCHEDULE_NAME, MAX_SCHEDULES };

/** A person's explicit yes to run a privileged tool on a schedule, with nobody watching each run. */
export const ScheduleApproval = Type.Object(
  {
    approvedAt: Timestamp,
    approvedBy: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type ScheduleApproval = Static<typeof ScheduleApproval>;

/**
 * One schedule as tool.json stores it, with one cadence: `cron` (5 fields, in `timezone`, absent:
 * the machine's zone), `at` (one time, RFC 3339) or `everySeconds` (an interval from the schedule's
 * creation). ./cadence.ts answers when each fires.
 */
export const Schedule = Type.Object(
  {
    scheduleID: Uuid,
    /** What it is for, in a person's or an agent's words ("morning weather for Lisbon"). */
    name: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_SCHEDULE_NAME })),
    cron: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    at: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    everySeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INTERVAL_SECONDS })),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    args: Type.Object({}, { additionalProperties: true }),
    isEnabled: Type.Boolean(),
    approval: Type.Optional(ScheduleApproval),
  },
  { additionalProperties: false },
);
export type Schedule = Static<typeof Schedule>;

/** The order a schedule's keys are written in. */
export const SCHEDULE_KEY_ORDER = ['scheduleID', 'name', 'cron', 'at', 'everySeconds', 'timezone', 'args', 'isEnabled', 'approval'] as const;

/**
 * A schedule as a client sends it: a missing scheduleID is generated (UUIDv7), args default to
 * {}, isEnabled to true, an empty or null timezone means the machine's. Exactly one of `cron`,
 * `at` and `everySeconds`. `approval: {}` records a yes given now; `approval: null` withdraws it.
 * A `name` left out keeps the one stored (a form that does not show it loses nothing); `null` or
 * '' removes it.
 */
export const ScheduleInput = Type.Object(
  {
    scheduleID: Type.Optional(Uuid),
    name: Type.Optional(Nullable(Type.String({ maxLength: MAX_SCHEDULE_NAME }))),
    cron: Type.Optional(Type.String({ maxLength: 200 })),
    at: Type.Optional(Type.String({ maxLength: 64 })),
    everySeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INTERVAL_SECONDS })),
    timezone: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
    args: Type.Optional(Type.Object({}, { additionalProperties: true })),
    isEnabled: Type.Optional(Type.Boolean()),
    approval: Type.Optional(
      Nullable(
        Type.Object(
          {
            approvedAt: Type.Optional(Type.String({ maxLength: 64 })),
            approvedBy: Type.Optional(Type.String({ maxLength: 200 })),
          },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);
export type ScheduleInput = Static<typeof ScheduleInput>;
