/**
 * Runs a schedule: for a fire (claimed first, so it runs once across processes) or by hand ("Run
 * now"). A run goes through the engine with every gate (kill switch, switches, availability, rate
 * limit, arguments) and lands in the tool's history with `trigger: "schedule"`. What does not run
 * is recorded too, with its reason, in the history and as the schedule's last run: a refusal by a
 * gate, a privileged tool without the schedule's approval, or a fire that came while the previous
 * run was still going (skipped, never started twice).
 */
import { randomUUID } from 'node:crypto';
import type { ApiError, ErrorCode } from '../../../shared/errors.js';
import type { HistoryEntry, InvokeResult, ScheduleOutput } from '../../../shared/types.js';
import { CoreError, notFound, toApiError } from '../errors.js';
import type { InvocationEngine } from '../invoke/engine.js';
import type { HistoryStore } from '../invoke/history.js';
import { maskMarked } from '../invoke/post-process.js';
import type { Logger } from '../log.js';
import type { Store } from '../store/store.js';
import { findSchedule, type ScheduleEntry } from './schedule-index.js';
import { HOST, ScheduleFiles, type ScheduleRunRecord } from './schedule-files.js';
import { runOutputText } from './run-log.js';

export interface ScheduleRunnerDeps {
  store: Store;
  engine: Pick<InvocationEngine, 'invoke'>;
  history: Pick<HistoryStore, 'append'>;
  files: ScheduleFiles;
  /** The scheduler's clock (fire times, records). */
  now: () => number;
  /** A schedule's last run or output changed. */
  changed: (scheduleID: string) => void;
  log: Logger;
}

type FoundSchedule = NonNullable<ReturnType<typeof findSchedule>>;

export type FireOutcome = { claimed: false } | { claimed: true; record: ScheduleRunRecord };

export class ScheduleRunner {
  /** Schedules with a run going in this process. */
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: ScheduleRunnerDeps) {}

  /** Runs going now, for close(). */
  inFlight(): Promise<unknown>[] {
    return [...this.running.values()];
  }

  /** A fire of an enabled schedule. Only the process that claims the fire runs it. */
  async fire(scheduleID: string, fireAt: number): Promise<FireOutcome> {
    const entry = findSchedule(this.deps.store.reader, scheduleID);
    if (!entry || !entry.schedule.isEnabled) return { claimed: false };
    const invocationID = randomUUID();
    if (!(await this.deps.files.claimFire(scheduleID, fireAt, invocationID))) return { claimed: false };
    try {
      const { record } = await this.run(entry, { fireAt, invocationID, manual: false });
      return { claimed: true, record };
    } catch (e) {
      // A refusal is already recorded; anything else is a bug worth a log line, never a crash.
      if (!(e instanceof CoreError)) this.deps.log.error(`running schedule ${scheduleID}`, e);
      return { claimed: true, record: (await this.deps.files.readRun(scheduleID))! };
    }
  }

  /** "Run now": the same gates and records; a refusal is thrown (after it is recorded) for the caller to show. */
  async runNow(scheduleID: string, options: { confirm?: boolean } = {}): Promise<InvokeResult> {
    const entry = findSchedule(this.deps.store.reader, scheduleID);
    if (!entry) throw notFound(`schedule ${scheduleID}`);
    const { result } = await this.run(entry, { fireAt: null, invocationID: randomUUID(), manual: true, confirm: options.confirm === true });
    return result!;
  }

  private async run(
    entry: FoundSchedule,
    opts: { fireAt: number | null; invocationID: string; manual: boolean; confirm?: boolean },
  ): Promise<{ record: ScheduleRunRecord; result?: InvokeResult }> {
    const { schedule, tool } = entry;
    const { scheduleID } = schedule;
    const started = this.deps.now();
    const base = {
      scheduleID,
      toolID: tool.file.toolID,
      invocationID: opts.invocationID,
      fireAt: opts.fireAt === null ? null : new Date(opts.fireAt).toISOString(),
      startedAt: new Date(started).toISOString(),
      pid: process.pid,
      host: HOST,
    };

    const previous = this.running.has(scheduleID) ? undefined : await this.deps.files.readRun(scheduleID);
    if (this.running.has(scheduleID) || ScheduleFiles.isLive(previous, Date.now())) {
      const since = previous?.startedAt ?? 'earlier';
      const error = new CoreError(
        'CONFLICT',
        `skipped: the previous run of this schedule (started ${since}) was still going; a schedule never runs twice at once`,
      );
      return this.notRun(entry, base, 'skipped', error, opts.manual);
    }
    if (!entry.bundle) return this.notRun(entry, base, 'refused', notFound(`bundle ${tool.file.bundleID}`), opts.manual);
    const privileged = tool.file.safety === 'privileged';
    if (privileged && !schedule.approval && !(opts.manual && opts.confirm)) {
      const error = new CoreError(
        'CONFIRMATION_REQUIRED',
        `refused: ${tool.file.slug} ${tool.file.version} is privileged and this schedule has no approval to run it unattended; open the schedule in the tool's editor and approve it`,
        { toolID: tool.file.toolID, safety: 'privileged' },
      );
      return this.notRun(entry, base, 'refused', error, opts.manual);
    }

    let done!: () => void;
    this.running.set(scheduleID, new Promise<void>((r) => (done = r)));
    try {
      await this.writeRun({ ...base, status: 'running' });
      let result: InvokeResult;
      try {
        result = await this.deps.engine.invoke(tool, entry.bundle.file, {
          args: schedule.args,
          confirm: privileged,
          invocationID: opts.invocationID,
          trigger: 'schedule',
          scheduleID,
        });
      } catch (e) {
        // Refused by a gate before it ran (kill switch, switches, availability, rate limit, arguments).
        return await this.notRun(entry, base, 'refused', e, opts.manual);
      }
      const status = result.ok ? 'ok' : result.error?.code === 'CANCELLED' ? 'cancelled' : 'error';
      const record: ScheduleRunRecord = {
        ...base,
        status,
        finishedAt: new Date(this.deps.now()).toISOString(),
        durationMs: result.durationMs,
        ...(result.error ? { error: result.error } : {}),
      };
      const output: ScheduleOutput = {
        scheduleID,
        toolID: tool.file.toolID,
        bundleID: tool.file.bundleID,
        invocationID: result.invocationID,
        fireAt: base.fireAt,
        startedAt: base.startedAt,
        durationMs: result.durationMs,
        status,
        ...(result.value !== undefined ? { value: result.value } : {}),
        ...(result.error ? { error: result.error } : {}),
        ...(result.card && (result.card.title || result.card.text) ? { card: { title: result.card.title, text: result.card.text } } : {}),
        ...(result.truncated ? { truncated: result.truncated } : {}),
      };
      await this.deps.files.writeOutput(output).catch((e: unknown) => this.deps.log.error(`writing the output of schedule ${scheduleID}`, e));
      await this.keep(record, runOutputText(output));
      await this.writeRun(record);
      return { record, result };
    } finally {
      this.running.delete(scheduleID);
      done();
    }
  }

  /** Records a fire or run that did not happen, in the history and as the last run; a manual run gets the refusal back. */
  private async notRun(
    entry: ScheduleEntry,
    base: Omit<ScheduleRunRecord, 'status'>,
    status: 'refused' | 'skipped',
    e: unknown,
    manual: boolean,
  ): Promise<{ record: ScheduleRunRecord }> {
    const error: ApiError = toApiError(e, { log: (x) => this.deps.log.error(`schedule ${base.scheduleID}`, x), unexpected: 'the run failed' });
    const record: ScheduleRunRecord = { ...base, status, finishedAt: base.startedAt, durationMs: 0, error };
    const entryOf: HistoryEntry = {
      invocationID: base.invocationID,
      toolID: base.toolID,
      startedAt: base.startedAt,
      durationMs: 0,
      status: 'error',
      trigger: 'schedule',
      scheduleID: base.scheduleID,
      args: maskMarked(entry.schedule.args, entry.tool.file.argSchema),
      error: { code: error.code as ErrorCode, message: error.message },
    };
    await this.deps.history.append(base.toolID, entryOf).catch((x: unknown) => this.deps.log.error('history', x));
    await this.keep(record, runOutputText({ error }));
    await this.writeRun(record);
    if (manual) throw e instanceof CoreError ? e : new CoreError(error.code, error.message);
    return { record };
  }

  /** Keeps a finished run with its output in the schedule's run log (what schedules.runs and runOutput read). */
  private async keep(record: ScheduleRunRecord, output: string): Promise<void> {
    if (record.status === 'running') return;
    const entry = {
      invocationID: record.invocationID,
      fireAt: record.fireAt,
      startedAt: record.startedAt,
      ...(record.finishedAt ? { finishedAt: record.finishedAt } : {}),
      durationMs: record.durationMs ?? 0,
      status: record.status,
      ...(record.error ? { error: record.error } : {}),
    };
    await this.deps.files.runLog
      .append(record.scheduleID, entry, output)
      .catch((e: unknown) => this.deps.log.error(`keeping a run of schedule ${record.scheduleID}`, e));
  }

  private async writeRun(record: ScheduleRunRecord): Promise<void> {
    await this.deps.files.writeRun(record).catch((e: unknown) => this.deps.log.error(`recording a run of schedule ${record.scheduleID}`, e));
    this.deps.changed(record.scheduleID);
  }
}
