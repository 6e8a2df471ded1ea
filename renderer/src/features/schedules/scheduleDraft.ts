/**
 * The editor's working copy of a tool's schedules, what it sends, and what it can check before
 * the server does (the same cron and zone rules, from shared/schedules/cron.ts; arguments with the
 * tester's validator), keyed like the server's issues (`schedules[0].cron`).
 */
import type { ScheduleApproval, ScheduleInput } from '../../../../shared/schemas.js';
import type { ToolView } from '../../../../shared/types.js';
import { cronIssue, timeZoneIssue } from '../../../../shared/schedules/cron.js';
import { validateArgs } from '../../lib/schemaValidator.js';

export interface ScheduleDraft {
  /** React's key; the scheduleID is not there for a new schedule. */
  key: string;
  scheduleID?: string;
  cron: string;
  /** '' for this machine's zone. */
  timezone: string;
  args: Record<string, unknown>;
  isEnabled: boolean;
  /** The person approves running a privileged tool on this schedule. */
  approved: boolean;
  /** The approval as stored, sent back unchanged while it stands. */
  approval?: ScheduleApproval;
}

let counter = 0;
const newKey = () => `s${++counter}-${Date.now().toString(36)}`;

export function newScheduleDraft(): ScheduleDraft {
  return { key: newKey(), cron: '0 9 * * 1-5', timezone: '', args: {}, isEnabled: true, approved: false };
}

export function schedulesFromTool(tool: Pick<ToolView, 'schedules'>): ScheduleDraft[] {
  return (tool.schedules ?? []).map((s) => ({
    key: newKey(),
    scheduleID: s.scheduleID,
    cron: s.cron,
    timezone: s.timezone ?? '',
    args: s.args,
    isEnabled: s.isEnabled,
    approved: !!s.approval,
    ...(s.approval ? { approval: s.approval } : {}),
  }));
}

export function schedulesToInput(drafts: ScheduleDraft[]): ScheduleInput[] {
  return drafts.map((d) => ({
    ...(d.scheduleID ? { scheduleID: d.scheduleID } : {}),
    cron: d.cron.trim(),
    timezone: d.timezone || null,
    args: d.args,
    isEnabled: d.isEnabled,
    // A standing approval goes back as it is; a new tick is a yes given now; no tick withdraws it.
    approval: d.approved ? (d.approval ?? {}) : null,
  }));
}

/** Problems found without the server, keyed like its issues. */
export function scheduleIssues(
  drafts: ScheduleDraft[],
  argSchema: unknown,
  privileged: boolean,
  set: (field: string, message: string | undefined) => void,
): void {
  drafts.forEach((d, i) => {
    const field = `schedules[${i}]`;
    set(`${field}.cron`, cronIssue(d.cron));
    if (d.timezone) set(`${field}.timezone`, timeZoneIssue(d.timezone));
    if (!d.isEnabled) return;
    if (privileged && !d.approved) set(`${field}.approval`, 'this tool is privileged: tick the approval to run it on a schedule, or switch the schedule off');
    if (argSchema !== undefined) {
      const problems = validateArgs(argSchema, d.args);
      if (problems.length) set(`${field}.args`, problems.join('; '));
    }
  });
}
