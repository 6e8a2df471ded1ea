/**
 * The save rules of a tool's schedules (docs/contracts.md, "Schedules, pipelines, streaming"): one
 * cadence (a 5-field cron in an IANA zone, a one-off time in the future, or an interval no shorter
 * than config's minimum), unique scheduleIDs (generated as UUIDv7 when missing, and new ones for a
 * schedule copied from another tool), arguments that match the argSchema once the schedule is
 * on, and an explicit approval before a privileged tool may run on a schedule. Every issue names
 * its field and says how to fix it.
 */
import type { ValidateFunction } from 'ajv';
import { LRUCache } from 'lru-cache';
import { v7 as uuidv7 } from 'uuid';
import type { FieldIssue } from '../../../shared/errors.js';
import type { Safety, ToolFile } from '../../../shared/schemas.js';
import type { Schedule, ScheduleApproval, ScheduleInput } from '../../../shared/schedules/schema.js';
import { canonicalTimeZone, cronIssue, normalizeCron, timeZoneIssue } from '../../../shared/schedules/cron.js';
import { atIssue, DEFAULT_MIN_INTERVAL_SECONDS } from '../../../shared/schedules/cadence.js';
import { modelIssues } from '../../../shared/json-schema/issues.js';
import { makeUserAjv } from '../validation.js';

const ajv = makeUserAjv();
const argValidators = new LRUCache<string, ValidateFunction | false>({ max: 500 });

function argValidator(argSchema: unknown): ValidateFunction | undefined {
  const key = JSON.stringify(argSchema);
  let v = argValidators.get(key);
  if (v === undefined) {
    try {
      const copy = JSON.parse(key) as Record<string, unknown> | boolean;
      if (typeof copy === 'object') delete copy['$id'];
      v = ajv.compile(copy);
    } catch {
      v = false; // the argSchema's own issue is reported by the tool's rules
    }
    argValidators.set(key, v);
  }
  return v || undefined;
}

export const PRIVILEGED_APPROVAL_HINT =
  'this tool is privileged, and a schedule runs it with nobody there to confirm each run: approve it explicitly by sending "approval": {} with the schedule (in the app: tick "I approve running this privileged tool on this schedule"), or save the schedule switched off';

export interface ScheduleRuleContext {
  /** The tool's final safety. */
  safety: Safety;
  argSchema: unknown;
  now: string;
  /** The tool being saved (its own schedules keep their IDs and approvals). */
  toolID: string;
  existing?: ToolFile;
  /** The tool that holds a scheduleID now, if any: a schedule copied from another tool gets a new ID. */
  scheduleOwner?: (scheduleID: string) => string | undefined;
  /** The shortest interval a new or changed schedule may have (config.scheduleMinIntervalSeconds). */
  minIntervalSeconds?: number;
}

type Cadence = Pick<Schedule, 'cron' | 'at' | 'everySeconds'>;

/** The cadence to store, checked: exactly one of cron, at, everySeconds. A past `at` or a short interval is refused only when new or changed, so an old one-off never blocks an edit. */
function cadenceOf(input: ScheduleInput, previous: Schedule | undefined, ctx: ScheduleRuleContext, field: string, issues: FieldIssue[]): Cadence {
  const given = [input.cron !== undefined && input.cron !== null, input.at !== undefined, input.everySeconds !== undefined].filter(Boolean).length;
  if (given !== 1) {
    issues.push({
      field,
      message:
        given === 0
          ? "needs a cadence: 'cron' (e.g. '0 9 * * 1-5'), 'at' (one time, e.g. '2026-07-01T09:00:00Z') or 'everySeconds' (e.g. 3600)"
          : "has more than one cadence; give exactly one of 'cron', 'at' and 'everySeconds'",
    });
    return input.cron !== undefined ? { cron: normalizeCron(input.cron) } : {};
  }
  const isEnabled = input.isEnabled ?? true;
  if (input.at !== undefined) {
    const bad = atIssue(input.at);
    if (bad) issues.push({ field: `${field}.at`, message: bad });
    else if (isEnabled && previous?.at !== input.at && Date.parse(input.at) <= Date.parse(ctx.now)) {
      issues.push({ field: `${field}.at`, message: `is in the past (${input.at}, now ${ctx.now}); a one-off time must be in the future when it is saved` });
    }
    return { at: input.at };
  }
  if (input.everySeconds !== undefined) {
    const min = ctx.minIntervalSeconds ?? DEFAULT_MIN_INTERVAL_SECONDS;
    if (input.everySeconds < min && previous?.everySeconds !== input.everySeconds) {
      issues.push({ field: `${field}.everySeconds`, message: `must be at least ${min} seconds (config scheduleMinIntervalSeconds)` });
    }
    return { everySeconds: input.everySeconds };
  }
  const cron = normalizeCron(input.cron!);
  const badCron = cronIssue(cron);
  if (badCron) issues.push({ field: `${field}.cron`, message: badCron });
  return { cron };
}

function approvalOf(
  input: ScheduleInput['approval'],
  previous: ScheduleApproval | undefined,
  now: string,
  field: string,
  issues: FieldIssue[],
): ScheduleApproval | undefined {
  if (input === null) return undefined;
  if (input === undefined) return previous;
  const by = input.approvedBy?.trim();
  let approvedAt = now;
  if (input.approvedAt !== undefined) {
    const ms = Date.parse(input.approvedAt);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(input.approvedAt) || Number.isNaN(ms)) {
      issues.push({ field: `${field}.approvedAt`, message: 'must be an ISO 8601 time such as 2026-05-14T13:44:00Z (or leave it out: the time of the save)' });
    } else approvedAt = new Date(ms).toISOString();
  } else if (previous && (previous.approvedBy ?? '') === (by ?? '')) {
    approvedAt = previous.approvedAt; // the same yes sent back unchanged
  }
  return { approvedAt, ...(by ? { approvedBy: by } : {}) };
}

/** The name to store: the one given (trimmed; '' or null removes it), else the one stored. */
function nameOf(input: string | null | undefined, previous: string | undefined): string | undefined {
  if (input === undefined) return previous;
  return input?.trim() || undefined;
}

/** Builds the schedules to store, or returns the issues that stop the save. */
export function prepareSchedules(inputs: ScheduleInput[] | undefined, ctx: ScheduleRuleContext): { schedules: Schedule[]; issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const schedules: Schedule[] = [];
  const seen = new Set<string>();
  const previous = new Map((ctx.existing?.schedules ?? []).map((s) => [s.scheduleID, s]));
  (inputs ?? []).forEach((input, i) => {
    const field = `schedules[${i}]`;
    const previousOfID = input.scheduleID ? previous.get(input.scheduleID.toLowerCase()) : undefined;
    const cadence = cadenceOf(input, previousOfID, ctx, field, issues);
    let timezone: string | undefined;
    const zone = input.timezone?.trim();
    if (zone && cadence.cron === undefined) {
      issues.push({
        field: `${field}.timezone`,
        message: "applies to a cron pattern only; 'at' carries its own offset and an interval needs none: leave timezone out",
      });
    } else if (zone) {
      timezone = canonicalTimeZone(zone);
      if (!timezone) issues.push({ field: `${field}.timezone`, message: timeZoneIssue(zone)! });
    }
    let scheduleID = input.scheduleID?.toLowerCase();
    if (scheduleID && seen.has(scheduleID)) {
      issues.push({ field: `${field}.scheduleID`, message: 'is used by another schedule of this tool; leave it out to get a new one' });
    }
    // A schedule sent with the ID of another tool's schedule is a copy: it gets its own ID.
    const owner = scheduleID ? ctx.scheduleOwner?.(scheduleID) : undefined;
    if (scheduleID && owner && owner !== ctx.toolID) scheduleID = undefined;
    scheduleID ??= uuidv7();
    seen.add(scheduleID);
    const isEnabled = input.isEnabled ?? true;
    const args = input.args ?? {};
    const approval = approvalOf(input.approval, previous.get(scheduleID)?.approval, ctx.now, `${field}.approval`, issues);
    if (isEnabled) {
      if (ctx.safety === 'privileged' && !approval) issues.push({ field: `${field}.approval`, message: PRIVILEGED_APPROVAL_HINT });
      // A switched-off schedule may wait for its arguments (an imported trigger); one that runs may not.
      const validate = argValidator(ctx.argSchema);
      if (validate && !validate(args)) {
        for (const issue of modelIssues(validate.errors, args, 'the arguments')) {
          issues.push({
            field: `${field}.args${issue.field ? `.${issue.field}` : ''}`,
            message: `${issue.message} (in the arguments the schedule runs the tool with)`,
          });
        }
      }
    }
    const name = nameOf(input.name, previous.get(scheduleID)?.name);
    schedules.push({
      scheduleID,
      ...(name ? { name } : {}),
      ...cadence,
      ...(timezone ? { timezone } : {}),
      args,
      isEnabled,
      ...(approval ? { approval } : {}),
    });
  });
  return { schedules, issues };
}
