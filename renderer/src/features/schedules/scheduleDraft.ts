/**
 * The editor's working copy of a tool's schedules, what it sends, and what it can check before
 * the server does (the same cron and zone rules, from shared/schedules/cron.ts; arguments with the
 * tester's validator), keyed like the server's issues (`schedules[0].cron`).
 */
import type { ScheduleApproval, ScheduleInput } from '../../../../shared/schemas.js';
import type { ToolView } from '../../../../shared/types.js';
import { cronIssue, timeZoneIssue } from '../../../../shared/schedules/cron.js';
import { atIssue, cadenceKind, type CadenceKind } from '../../../../shared/schedules/cadence.js';
import { validateArgs } from '../../lib/schemaValidator.js';

export interface ScheduleDraft {
  /** React's key; the scheduleID is not there for a new schedule. */
  key: string;
  scheduleID?: string;
  /** What it is for, in a person's or an agent's words; '' for none. */
  name: string;
  /** The name as stored, so clearing it is sent as a removal and an unnamed one sends nothing. */
  storedName?: string;
  /** How it fires: a cron pattern, once at `at`, or every `everySeconds`. */
  kind: CadenceKind;
  cron: string;
  /** RFC 3339, for kind 'once'. */
  at: string;
  /** For kind 'interval'. */
  everySeconds: number;
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
  return { key: newKey(), name: '', kind: 'cron', cron: '0 9 * * 1-5', at: '', everySeconds: 3600, timezone: '', args: {}, isEnabled: true, approved: false };
}

export function schedulesFromTool(tool: Pick<ToolView, 'schedules'>): ScheduleDraft[] {
  return (tool.schedules ?? []).map((s) => ({
    key: newKey(),
    scheduleID: s.scheduleID,
    name: s.name ?? '',
    ...(s.name ? { storedName: s.name } : {}),
    kind: cadenceKind(s),
    cron: s.cron ?? '0 9 * * 1-5',
    at: s.at ?? '',
    everySeconds: s.everySeconds ?? 3600,
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
    ...(d.name.trim() ? { name: d.name.trim() } : d.storedName ? { name: null } : {}),
    ...(d.kind === 'once'
      ? { at: d.at.trim() }
      : d.kind === 'interval'
        ? { everySeconds: d.everySeconds }
        : { cron: d.cron.trim(), timezone: d.timezone || null }),
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
    set(`${field}.cron`, d.kind === 'cron' ? cronIssue(d.cron) : undefined);
    set(`${field}.at`, d.kind === 'once' ? (d.at.trim() ? atIssue(d.at.trim()) : 'choose the date and time it runs') : undefined);
    set(
      `${field}.everySeconds`,
      d.kind === 'interval' && !(Number.isInteger(d.everySeconds) && d.everySeconds >= 1) ? 'must be a whole number of seconds' : undefined,
    );
    if (d.timezone && d.kind === 'cron') set(`${field}.timezone`, timeZoneIssue(d.timezone));
    if (!d.isEnabled) return;
    if (privileged && !d.approved) set(`${field}.approval`, 'this tool is privileged: tick the approval to run it on a schedule, or switch the schedule off');
    if (argSchema !== undefined) {
      const problems = validateArgs(argSchema, d.args);
      if (problems.length) set(`${field}.args`, problems.join('; '));
    }
  });
}
