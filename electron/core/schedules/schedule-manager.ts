/**
 * Managing schedules as a principal does (shared/operations/schedules.ts: create, search, edit,
 * delete, runs, a run's output), what the built-in schedule tools of agents call. A schedule is an
 * entry of its tool's tool.json, so every change is a tool edit with every save rule (cadence,
 * zone, one-off in the future, minimum interval, arguments against the argSchema, the approval a
 * privileged tool needs), retried on a concurrent edit from another process.
 *
 * Who sees what (docs/contracts.md, "Schedules an agent manages"): the data folder's owner (the
 * host's token, the app, the CLI, a stdio agent) sees and changes every schedule; any other
 * principal (a profile token, an OAuth subject) only those it created, and another's is answered
 * exactly as one that does not exist. An agent may schedule only a tool it is offered.
 */
import { v7 as uuidv7 } from 'uuid';
import { callerLabel, principalKey, type Caller } from '../../../shared/caller.js';
import type { FieldIssue } from '../../../shared/errors.js';
import type { ToolInput, OpInput } from '../../../shared/operations.js';
import type { Schedule, ScheduleInput } from '../../../shared/schedules/schema.js';
import { cadenceKind, describeCadence } from '../../../shared/schedules/cadence.js';
import {
  RUN_OUTPUT_DEFAULT_CHARS,
  SCHEDULE_RUNS_DEFAULT_LIMIT,
  SCHEDULE_SEARCH_DEFAULT_LIMIT,
  type ManagedSchedule,
  type ScheduleRunOutputChunk,
  type ScheduleRunsPage,
  type ScheduleSearchPage,
} from '../../../shared/schedules/manage.js';
import { isUuid } from '../../../shared/ids.js';
import { CoreError } from '../errors.js';
import type { Store } from '../store/store.js';
import type { ToolRecord } from '../store/reader.js';
import type { ToolService } from '../store/tools.js';
import { toolEtag } from '../store/preconditions.js';
import { asciiName } from '../agents/agent-tools.js';
import { allSchedules, findSchedule, type ScheduleEntry } from './schedule-index.js';
import type { ScheduleFiles } from './schedule-files.js';
import type { ScheduleService } from './schedule-service.js';
import type { ScheduleOwner } from './schedule-owners.js';
import { cutText } from './run-log.js';

export interface ScheduleManagerDeps {
  store: Store;
  tools: Pick<ToolService, 'update'>;
  files: ScheduleFiles;
  views: Pick<ScheduleService, 'get' | 'viewOf'>;
  /** Which tools a caller may schedule (an agent: those it is offered at its address). */
  toolScope: (caller: Caller) => (rec: ToolRecord) => boolean;
}

const OWNER = 'owner';
const CADENCE_KEYS = ['cron', 'at', 'everySeconds'] as const;

/** The answer for a schedule the caller may not see, and for one that does not exist: the same. */
const unknownSchedule = (scheduleID: string) =>
  new CoreError('NOT_FOUND', `schedule ${scheduleID} was not found; schedule_search lists the schedules you may see`);

const toolLabel = (rec: ToolRecord, bundleSlug: string) => `${bundleSlug}/${rec.file.slug}@${rec.file.version}`;

/** The save's issues, named as the operation's fields (`schedules[3].at` → `at`). */
function renamed(e: unknown, index: number): unknown {
  if (!(e instanceof CoreError) || e.code !== 'INVALID_INPUT') return e;
  const prefix = `schedules[${index}]`;
  const issues = (e.details?.issues ?? []).filter((i: FieldIssue) => i.field.startsWith(prefix));
  if (issues.length === 0) return e;
  const mapped = issues.map((i: FieldIssue) => {
    const field = i.field.slice(prefix.length).replace(/^\./, '');
    const message =
      field === 'approval'
        ? 'the tool is privileged: a schedule runs it unattended only once a person approves that schedule in Toolwright (the tool\'s editor, "Runs"); create or keep it switched off (isEnabled false) and ask a person to approve it'
        : i.message;
    return { field: field || 'schedule', message };
  });
  return new CoreError('INVALID_INPUT', mapped.map((i) => `${i.field}: ${i.message}`).join('; '), { issues: mapped });
}

export class ScheduleManager {
  constructor(private readonly deps: ScheduleManagerDeps) {}

  private sees(caller: Caller, owner: ScheduleOwner | undefined): boolean {
    const key = principalKey(caller);
    return key === OWNER || owner?.principal === key;
  }

  /** The schedule if this caller may see it; NOT_FOUND otherwise, whatever the reason. */
  private async visible(scheduleID: string, caller: Caller) {
    const id = scheduleID.toLowerCase();
    const entry = findSchedule(this.deps.store.reader, id);
    const owner = await this.deps.files.owners.get(id);
    if (!entry || !this.sees(caller, owner)) throw unknownSchedule(scheduleID);
    return { entry, owner };
  }

  private async managed(scheduleID: string, owner: ScheduleOwner | undefined): Promise<ManagedSchedule> {
    const entry = findSchedule(this.deps.store.reader, scheduleID)!;
    return this.describe(entry, await this.deps.views.get(scheduleID), owner);
  }

  private describe(entry: ScheduleEntry, view: Awaited<ReturnType<ScheduleService['get']>>, owner: ScheduleOwner | undefined): ManagedSchedule {
    const s = entry.schedule;
    const bundle = this.deps.store.reader.bundle(entry.tool.file.bundleID);
    let cadenceText: string;
    try {
      cadenceText = describeCadence(s);
    } catch {
      cadenceText = s.cron ?? '';
    }
    return {
      ...view,
      tool: toolLabel(entry.tool, bundle?.file.slug ?? entry.tool.file.bundleID),
      cadence: cadenceKind(s),
      cadenceText,
      args: s.args,
      state: s.isEnabled ? 'active' : 'paused',
      ...(owner ? { createdBy: owner.caller } : {}),
    };
  }

  /**
   * The tool a reference names, among those the caller may schedule: its toolID, `<bundle>/<slug>[@version]`
   * (the newest enabled version when left out), or a slug (or the name agents call it by) that is unique.
   */
  resolveTool(ref: string, caller: Caller): ToolRecord {
    const reader = this.deps.store.reader;
    const allowed = this.deps.toolScope(caller);
    const text = ref.trim().normalize('NFC');
    const fail = (why: string) =>
      new CoreError('NOT_FOUND', `no tool '${ref}' you may schedule${why}`, { issues: [{ field: 'tool', message: `names no tool you may schedule${why}` }] });
    const pick = (recs: ToolRecord[]) => {
      const ok = recs.filter(allowed);
      const enabled = ok.filter((r) => r.file.isEnabled);
      return (enabled.length ? enabled : ok).sort((a, b) => b.file.createdAt.localeCompare(a.file.createdAt));
    };
    if (isUuid(text)) {
      const rec = reader.tool(text.toLowerCase());
      if (rec && allowed(rec)) return rec;
      throw fail('');
    }
    const slash = text.indexOf('/');
    if (slash > 0) {
      const bundleSlug = text.slice(0, slash);
      const rest = text.slice(slash + 1);
      const at = rest.lastIndexOf('@');
      const slug = at > 0 ? rest.slice(0, at) : rest;
      const version = at > 0 ? rest.slice(at + 1) : undefined;
      const recs = reader
        .bundlesWithSlug(bundleSlug)
        .flatMap((b) => reader.toolsOf(b.file.bundleID))
        .filter((r) => r.file.slug === slug && (version === undefined || r.file.version === version));
      const found = pick(recs)[0];
      if (found) return found;
      throw fail(' (write it as <bundle>/<tool>@<version>, as tools/list and GET /tools/tools name it)');
    }
    const bySlug = pick([...reader.tools()].filter((r) => r.file.slug === text || asciiName(r.file.slug) === text));
    const distinct = new Set(bySlug.map((r) => `${r.file.bundleID}/${r.file.slug}`));
    if (distinct.size > 1) {
      throw new CoreError('INVALID_INPUT', `'${ref}' names tools of several bundles; write it as <bundle>/<tool>@<version>`, {
        issues: [{ field: 'tool', message: 'is ambiguous: write it as <bundle>/<tool>@<version>' }],
      });
    }
    if (bySlug[0]) return bySlug[0];
    throw fail('');
  }

  /** Writes a tool's schedules through the tool save (every rule), again on the latest file if another process wrote it meanwhile. */
  private async saveSchedules(toolID: string, change: (current: Schedule[]) => { schedules: ScheduleInput[]; index: number }): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const rec = this.deps.store.reader.tool(toolID);
      if (!rec) throw new CoreError('NOT_FOUND', `the tool of this schedule (${toolID}) no longer exists`);
      const file = rec.file;
      const { schedules, index } = change(file.schedules ?? []);
      const input = { ...file, schedules } as unknown as ToolInput;
      try {
        await this.deps.tools.update({ bundleID: file.bundleID, slug: file.slug, version: file.version }, input, toolEtag(rec));
        return;
      } catch (e) {
        if (e instanceof CoreError && e.code === 'MODIFIED_ELSEWHERE' && attempt < 3) {
          await this.deps.store.syncTool(file.bundleID, file.toolID);
          continue;
        }
        throw renamed(e, index);
      }
    }
  }

  async create(input: OpInput<'schedules.create'>, caller: Caller): Promise<ManagedSchedule> {
    const rec = this.resolveTool(input.tool, caller);
    const scheduleID = uuidv7();
    const owner: ScheduleOwner = { principal: principalKey(caller), caller: callerLabel(caller), createdAt: new Date().toISOString() };
    const schedule: ScheduleInput = {
      scheduleID,
      ...(input.name?.trim() ? { name: input.name.trim() } : {}),
      ...(input.cron !== undefined ? { cron: input.cron } : {}),
      ...(input.at !== undefined ? { at: input.at } : {}),
      ...(input.everySeconds !== undefined ? { everySeconds: input.everySeconds } : {}),
      ...(input.timezone ? { timezone: input.timezone } : {}),
      args: input.args ?? {},
      isEnabled: input.isEnabled ?? true,
    };
    // The owner is recorded first: a crash in between leaves a record of nothing (swept), never another's schedule served to all.
    await this.deps.files.owners.set(scheduleID, owner);
    try {
      await this.saveSchedules(rec.file.toolID, (current) => ({ schedules: [...current, schedule], index: current.length }));
    } catch (e) {
      await this.deps.files.owners.remove(scheduleID).catch(() => undefined);
      throw e;
    }
    return this.managed(scheduleID, owner);
  }

  async edit(scheduleID: string, patch: OpInput<'schedules.edit'>['patch'], caller: Caller): Promise<ManagedSchedule> {
    const { entry, owner } = await this.visible(scheduleID, caller);
    const id = entry.schedule.scheduleID;
    const cadenceGiven = CADENCE_KEYS.filter((k) => patch[k] !== undefined);
    if (cadenceGiven.length > 1) {
      throw new CoreError('INVALID_INPUT', "give at most one cadence: 'cron', 'at' or 'everySeconds'", {
        issues: cadenceGiven.map((k) => ({ field: `patch.${k}`, message: 'is one of several cadences given; give one' })),
      });
    }
    await this.saveSchedules(entry.tool.file.toolID, (current) => {
      const index = current.findIndex((s) => s.scheduleID === id);
      if (index < 0) throw unknownSchedule(scheduleID);
      const stored = current[index]!;
      const next: ScheduleInput = { ...stored };
      if (cadenceGiven.length === 1) {
        for (const k of CADENCE_KEYS) delete next[k];
        const k = cadenceGiven[0]!;
        if (k === 'everySeconds') next.everySeconds = patch.everySeconds!;
        else next[k] = patch[k]!;
        if (k !== 'cron') delete next.timezone;
      }
      if (patch.timezone !== undefined) next.timezone = patch.timezone;
      if (patch.name !== undefined) next.name = patch.name;
      if (patch.args !== undefined) next.args = patch.args;
      if (patch.isEnabled !== undefined) next.isEnabled = patch.isEnabled;
      // A person's yes was for this cadence and these arguments: another run of the tool needs another yes.
      const changed = cadenceGiven.length > 0 || patch.timezone !== undefined || patch.args !== undefined;
      if (changed && stored.approval) next.approval = null;
      else delete next.approval;
      return { schedules: current.map((s, i) => (i === index ? next : s)), index };
    });
    return this.managed(id, owner);
  }

  async delete(scheduleID: string, caller: Caller): Promise<{ deleted: true; scheduleID: string }> {
    const { entry } = await this.visible(scheduleID, caller);
    const id = entry.schedule.scheduleID;
    await this.saveSchedules(entry.tool.file.toolID, (current) => ({ schedules: current.filter((s) => s.scheduleID !== id), index: -1 }));
    await Promise.all([this.deps.files.owners.remove(id), this.deps.files.runLog.remove(id)]);
    return { deleted: true, scheduleID: id };
  }

  async search(input: OpInput<'schedules.search'>, caller: Caller): Promise<ScheduleSearchPage> {
    const owners = await this.deps.files.owners.all();
    const toolID = input.tool === undefined ? undefined : this.resolveTool(input.tool, caller).file.toolID;
    const text = input.text?.trim().toLowerCase();
    const entries = allSchedules(this.deps.store.reader).filter((e) => {
      const s = e.schedule;
      if (!this.sees(caller, owners.get(s.scheduleID))) return false;
      if (toolID && e.tool.file.toolID !== toolID) return false;
      if (input.state && (input.state === 'active') !== s.isEnabled) return false;
      if (input.cadence && cadenceKind(s) !== input.cadence) return false;
      if (!text) return true;
      const bundle = this.deps.store.reader.bundle(e.tool.file.bundleID)?.file.slug ?? '';
      const hay = [s.name, s.cron, s.at, e.tool.file.slug, e.tool.file.displayName, bundle, e.tool.file.description].filter(Boolean).join('\n').toLowerCase();
      return hay.includes(text);
    });
    // Newest first: a scheduleID is a UUIDv7, so its order is its creation's.
    entries.sort((a, b) => (a.schedule.scheduleID < b.schedule.scheduleID ? 1 : -1));
    const offset = input.offset ?? 0;
    const limit = input.limit ?? SCHEDULE_SEARCH_DEFAULT_LIMIT;
    const page = entries.slice(offset, offset + limit);
    const items = await Promise.all(
      page.map(async (e) => this.describe(e, await this.deps.views.get(e.schedule.scheduleID), owners.get(e.schedule.scheduleID))),
    );
    return { items, total: entries.length, remaining: Math.max(0, entries.length - offset - items.length), offset, limit };
  }

  async runs(input: OpInput<'schedules.runs'>, caller: Caller): Promise<ScheduleRunsPage> {
    const { entry } = await this.visible(input.scheduleID, caller);
    const id = entry.schedule.scheduleID;
    const offset = input.offset ?? 0;
    const limit = input.limit ?? SCHEDULE_RUNS_DEFAULT_LIMIT;
    const { items, total } = await this.deps.files.runLog.page(id, offset, limit);
    return { scheduleID: id, items, total, remaining: Math.max(0, total - offset - items.length), offset, limit };
  }

  async runOutput(input: OpInput<'schedules.runOutput'>, caller: Caller): Promise<ScheduleRunOutputChunk> {
    const { entry } = await this.visible(input.scheduleID, caller);
    const id = entry.schedule.scheduleID;
    const run = await this.deps.files.runLog.get(id, input.invocationID);
    if (!run) {
      throw new CoreError('NOT_FOUND', `run ${input.invocationID} of schedule ${id} is not kept (schedule_runs lists the runs that are)`);
    }
    const total = run.output.length;
    const offset = input.offset ?? 0;
    if (offset > total) {
      throw new CoreError('INVALID_INPUT', `offset ${offset} is past the end of this output (${total} characters)`, {
        issues: [{ field: 'offset', message: `must be at most ${total}, the output's length` }],
      });
    }
    const max = input.maxChars ?? RUN_OUTPUT_DEFAULT_CHARS;
    let text = cutText(run.output.slice(offset), max);
    // A chunk that starts inside a surrogate pair began mid-character: its lone half is left out.
    if (text.length === 0 && offset < total) text = run.output.slice(offset, offset + 1);
    const end = offset + text.length;
    return {
      scheduleID: id,
      invocationID: run.invocationID,
      status: run.status,
      text,
      offset,
      nextOffset: end < total ? end : null,
      remaining: total - end,
      totalChars: total,
      ...(run.outputTruncatedFrom ? { truncatedFrom: run.outputTruncatedFrom } : {}),
    };
  }
}
