/**
 * What the operations offer about schedules: the list (GET /tools/schedules, docs/contracts.md's item
 * shape), a schedule's latest output, switching one on or off (a tool.json edit with every save
 * rule), and "Run now". Any process can answer: the last runs and outputs are read from disk.
 */
import type { InvokeResult, ScheduleOutput, ScheduleView } from '../../../shared/types.js';
import { nextRun } from '../../../shared/schedules/cadence.js';
import { CoreError, notFound } from '../errors.js';
import type { Store } from '../store/store.js';
import type { ToolService } from '../store/tools.js';
import type { ToolInput } from '../../../shared/operations.js';
import { allSchedules, findSchedule, type ScheduleEntry } from './schedule-index.js';
import type { ScheduleFiles, ScheduleRunRecord } from './schedule-files.js';
import type { ScheduleRunner } from './schedule-runner.js';
import type { SchedulerClock } from './scheduler.js';
import { toolEtag } from '../store/preconditions.js';

export interface ScheduleServiceDeps {
  store: Store;
  tools: Pick<ToolService, 'update'>;
  files: ScheduleFiles;
  runner: Pick<ScheduleRunner, 'runNow'>;
  clock: SchedulerClock;
}

export class ScheduleService {
  constructor(private readonly deps: ScheduleServiceDeps) {}

  private view(entry: ScheduleEntry, run: ScheduleRunRecord | undefined): ScheduleView {
    const { schedule, tool, zone } = entry;
    let next: number | null = null;
    if (schedule.isEnabled) {
      try {
        next = nextRun(schedule, zone, this.deps.clock.now());
      } catch {
        next = null; // a pattern written by hand that cannot be read: it never fires
      }
    }
    return {
      scheduleID: schedule.scheduleID,
      ...(schedule.name ? { name: schedule.name } : {}),
      toolID: tool.file.toolID,
      bundleID: tool.file.bundleID,
      cron: schedule.cron ?? null,
      ...(schedule.at !== undefined ? { at: schedule.at } : {}),
      ...(schedule.everySeconds !== undefined ? { everySeconds: schedule.everySeconds } : {}),
      timezone: zone,
      isEnabled: schedule.isEnabled,
      nextRunAt: next === null ? null : new Date(next).toISOString(),
      lastRun: run ? { invocationID: run.invocationID, startedAt: run.startedAt, status: run.status } : null,
    };
  }

  /** Every schedule (of one tool when toolID is given), oldest tool first. */
  async list(filter: { toolID?: string } = {}): Promise<{ items: ScheduleView[] }> {
    const entries = allSchedules(this.deps.store.reader).filter((e) => !filter.toolID || e.tool.file.toolID === filter.toolID.toLowerCase());
    const runs = await Promise.all(entries.map((e) => this.deps.files.readRun(e.schedule.scheduleID)));
    return { items: entries.map((e, i) => this.view(e, runs[i])) };
  }

  /** The view of an entry already found (a page of many costs no lookup per item). */
  async viewOf(entry: ScheduleEntry): Promise<ScheduleView> {
    return this.view(entry, await this.deps.files.readRun(entry.schedule.scheduleID));
  }

  async get(scheduleID: string): Promise<ScheduleView> {
    const entry = findSchedule(this.deps.store.reader, scheduleID.toLowerCase());
    if (!entry) throw notFound(`schedule ${scheduleID}`);
    return this.view(entry, await this.deps.files.readRun(entry.schedule.scheduleID));
  }

  /** The latest output; NOT_FOUND until the schedule has run once. */
  async latest(scheduleID: string): Promise<ScheduleOutput> {
    const id = scheduleID.toLowerCase();
    if (!findSchedule(this.deps.store.reader, id)) throw notFound(`schedule ${scheduleID}`);
    const output = await this.deps.files.readOutput(id);
    if (!output) throw notFound(`an output of schedule ${scheduleID}: it has not run yet`);
    return output;
  }

  /** Switches a schedule on or off: an edit of its tool.json, with the save rules (approval, arguments) when switching on. */
  async setEnabled(scheduleID: string, isEnabled: boolean): Promise<ScheduleView> {
    const id = scheduleID.toLowerCase();
    for (let attempt = 0; ; attempt++) {
      const entry = findSchedule(this.deps.store.reader, id);
      if (!entry) throw notFound(`schedule ${scheduleID}`);
      const file = entry.tool.file;
      if (entry.schedule.isEnabled === isEnabled) return this.get(id);
      const input = { ...file, schedules: file.schedules!.map((s) => (s.scheduleID === id ? { ...s, isEnabled } : s)) } as unknown as ToolInput;
      try {
        await this.deps.tools.update({ bundleID: file.bundleID, slug: file.slug, version: file.version }, input, toolEtag(entry.tool));
        return this.get(id);
      } catch (e) {
        // Another process changed the tool meanwhile: apply the switch to its latest version.
        if (!(e instanceof CoreError && e.code === 'MODIFIED_ELSEWHERE') || attempt >= 3) throw e;
        await this.deps.store.syncTool(file.bundleID, file.toolID);
      }
    }
  }

  runNow(scheduleID: string, options: { confirm?: boolean } = {}): Promise<InvokeResult> {
    return this.deps.runner.runNow(scheduleID.toLowerCase(), options);
  }
}
