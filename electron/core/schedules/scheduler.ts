/**
 * The scheduler of a long-lived process (the app, the headless host, an MCP server): it stands by
 * until it holds the data folder's lease (./lease.ts), then fires each enabled schedule at its
 * times (shared/schedules/cadence.ts: cron patterns with zones and DST, one-off times, intervals) through the runner, which claims every fire so it
 * runs once across processes.
 *
 * - Catch-up: on taking the lease, of the fires missed since the previous holder last checked
 *   (or, the first time, since the schedule was made), only the latest runs, at once; older ones
 *   are skipped. Fires missed while this process could not run (a suspended laptop) follow the
 *   same rule.
 * - Live: any change of the store (this process, another one through the watcher, a hand edit)
 *   re-plans the schedules it touched; an unchanged schedule keeps its next fire.
 * - One timer to the earliest fire, never longer than a minute (wall-clock jumps are caught up
 *   at the next tick).
 */
import { randomUUID } from 'node:crypto';
import { uuidV7Time } from '../../../shared/schedules/cron.js';
import { cadenceKey, latestRunBetween, nextRun, type CadenceFields } from '../../../shared/schedules/cadence.js';
import type { Logger } from '../log.js';
import type { Store } from '../store/store.js';
import { SchedulerLease, type LeaseFile, type LeaseHolder } from './lease.js';
import { allSchedules } from './schedule-index.js';
import { HOST, type ScheduleFiles } from './schedule-files.js';
import type { FireOutcome, ScheduleRunner } from './schedule-runner.js';

/** Time as the scheduler sees it; tests run it faster than the wall clock. */
export interface SchedulerClock {
  now(): number;
  /** Real milliseconds to wait until the clock reads `at`. */
  delayUntil(at: number): number;
}

export const REAL_CLOCK: SchedulerClock = { now: () => Date.now(), delayUntil: (at) => at - Date.now() };

export interface SchedulerOptions {
  clock?: SchedulerClock;
  /** How often the holder renews the lease (real ms). */
  renewMs?: number;
  /** A lease not renewed for this long is taken over (real ms). renewMs + ttlMs + standbyPollMs ≤ 15 s. */
  ttlMs?: number;
  /** How often a process standing by looks at the lease (real ms). */
  standbyPollMs?: number;
  /** Each fire this process claimed and ran (or recorded as refused or skipped); for tests. */
  onFire?: (fire: { scheduleID: string; fireAt: number; outcome: FireOutcome }) => void;
  /** Whether this process holds the lease, as it changes; for tests and logs. */
  onRole?: (role: 'holder' | 'standby') => void;
  /** Start with the core (default); tests that start several processes at one instant call start() themselves. */
  autoStart?: boolean;
}

interface Plan {
  cadence: CadenceFields;
  zone: string;
  key: string;
  next: number | null;
}

const MAX_WAIT_MS = 60_000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

export class Scheduler {
  private readonly clock: SchedulerClock;
  private readonly lease: SchedulerLease;
  private readonly holder: LeaseHolder;
  private readonly opts: Required<Pick<SchedulerOptions, 'renewMs' | 'ttlMs' | 'standbyPollMs'>> & SchedulerOptions;
  private generation: number | undefined;
  private checkedThrough: number | null = null;
  private readonly plans = new Map<string, Plan>();
  private fireTimer: NodeJS.Timeout | undefined;
  private leaseTimer: NodeJS.Timeout | undefined;
  private replanTimer: NodeJS.Timeout | undefined;
  private lastSweep = 0;
  private stopped = false;
  private started = false;
  private leaseBusy: Promise<void> = Promise.resolve();
  private readonly offStore: () => void;

  constructor(
    private readonly deps: { store: Store; files: ScheduleFiles; runner: ScheduleRunner; log: Logger },
    options: SchedulerOptions = {},
  ) {
    this.opts = { renewMs: 3000, ttlMs: 10_000, standbyPollMs: 2000, ...options };
    this.clock = options.clock ?? REAL_CLOCK;
    this.lease = new SchedulerLease(deps.files.leaseDir, this.opts.ttlMs);
    this.holder = { id: randomUUID(), pid: process.pid, host: HOST, startedAt: new Date().toISOString() };
    const onEvent = (e: { type: string }) => {
      if (e.type.startsWith('tool.') || e.type.startsWith('bundle.')) this.replanSoon();
    };
    deps.store.on('event', onEvent);
    this.offStore = () => deps.store.off('event', onEvent);
  }

  get isHolder(): boolean {
    return this.generation !== undefined;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.leaseStep();
  }

  async close(): Promise<void> {
    this.stopped = true;
    this.offStore();
    for (const t of [this.fireTimer, this.leaseTimer, this.replanTimer]) clearTimeout(t);
    await this.leaseBusy;
    if (this.generation !== undefined) {
      // Released with where it got to, so the next scheduler takes over at once and catches up from here.
      await this.lease
        .renew(this.generation, this.holder, this.checkedIso(), true)
        .catch((e: unknown) => this.deps.log.error('releasing the scheduler lease', e));
      this.generation = undefined;
    }
    // Runs going on are cancelled by the runners' own close; their records get a moment to land.
    await Promise.race([Promise.allSettled(this.deps.runner.inFlight()), new Promise((r) => setTimeout(r, 2000).unref())]);
  }

  // ---- the lease ------------------------------------------------------------------------------

  private checkedIso(): string | null {
    return this.checkedThrough === null ? null : new Date(this.checkedThrough).toISOString();
  }

  /** One step of the lease loop (acquire or renew), serialised, then the next one is timed. */
  private leaseStep(): void {
    this.leaseBusy = this.leaseBusy
      .then(async () => {
        if (this.stopped) return;
        if (this.generation === undefined) {
          const got = await this.lease.tryAcquire(this.holder, this.checkedIso());
          if (got.acquired && !this.stopped) await this.becomeHolder(got.generation, got.previous);
        } else if (!(await this.lease.renew(this.generation, this.holder, this.checkedIso()))) {
          this.standBy();
        }
      })
      .catch((e: unknown) => this.deps.log.error('the scheduler lease', e))
      .finally(() => {
        if (this.stopped) return;
        clearTimeout(this.leaseTimer);
        this.leaseTimer = setTimeout(() => this.leaseStep(), this.generation === undefined ? this.opts.standbyPollMs : this.opts.renewMs);
        this.leaseTimer.unref();
      });
  }

  private async becomeHolder(generation: number, previous: LeaseFile | undefined): Promise<void> {
    this.generation = generation;
    this.opts.onRole?.('holder');
    const now = this.clock.now();
    const since = previous?.checkedThrough ? Date.parse(previous.checkedThrough) : null;
    this.plans.clear();
    this.replan(now);
    this.catchUp(since, now);
    this.checkedThrough = now;
    this.armTimer();
    void this.sweep(now);
  }

  private standBy(): void {
    this.generation = undefined;
    clearTimeout(this.fireTimer);
    this.plans.clear();
    this.opts.onRole?.('standby');
  }

  // ---- planning ---------------------------------------------------------------------------------

  private replanSoon(): void {
    if (this.generation === undefined || this.replanTimer) return;
    this.replanTimer = setTimeout(() => {
      this.replanTimer = undefined;
      if (this.generation === undefined || this.stopped) return;
      this.replan(this.clock.now());
      this.armTimer();
    }, 20);
    this.replanTimer.unref();
  }

  /** Brings the plan in line with the store: new and changed schedules get their next fire from now. */
  private replan(now: number): void {
    const seen = new Set<string>();
    for (const { schedule, zone } of allSchedules(this.deps.store.reader)) {
      seen.add(schedule.scheduleID);
      const key = `${cadenceKey(schedule)}\u0000${zone}\u0000${schedule.isEnabled}`;
      if (this.plans.get(schedule.scheduleID)?.key === key) continue;
      let next: number | null = null;
      try {
        next = schedule.isEnabled ? nextRun(schedule, zone, now) : null;
      } catch (e) {
        this.deps.log.error(`schedule ${schedule.scheduleID} (a cadence that cannot be read: ${cadenceKey(schedule)})`, e);
      }
      this.plans.set(schedule.scheduleID, { cadence: schedule, zone, key, next });
    }
    for (const id of this.plans.keys()) if (!seen.has(id)) this.plans.delete(id);
  }

  /** Of the fires missed since `since` (or since each schedule was made), the latest runs now. */
  private catchUp(since: number | null, now: number): void {
    for (const { schedule, zone } of allSchedules(this.deps.store.reader)) {
      if (!schedule.isEnabled) continue;
      const made = uuidV7Time(schedule.scheduleID);
      const from = since === null ? made : made === undefined ? since : Math.max(since, made);
      if (from === undefined) continue;
      let latest: number | null = null;
      try {
        latest = latestRunBetween(schedule, zone, from, now);
      } catch {
        continue;
      }
      if (latest !== null) this.fire(schedule.scheduleID, latest);
    }
  }

  // ---- firing -----------------------------------------------------------------------------------

  private armTimer(): void {
    clearTimeout(this.fireTimer);
    if (this.generation === undefined || this.stopped) return;
    let earliest = Infinity;
    for (const p of this.plans.values()) if (p.next !== null && p.next < earliest) earliest = p.next;
    const wait = earliest === Infinity ? MAX_WAIT_MS : Math.min(MAX_WAIT_MS, Math.max(0, this.clock.delayUntil(earliest)));
    this.fireTimer = setTimeout(() => this.tick(), wait);
    this.fireTimer.unref();
  }

  private tick(): void {
    if (this.generation === undefined || this.stopped) return;
    const now = this.clock.now();
    for (const [scheduleID, plan] of this.plans) {
      if (plan.next === null || plan.next > now) continue;
      // Several fires due at once (the process was suspended): the latest runs, the others are skipped.
      let fireAt = plan.next;
      try {
        fireAt = latestRunBetween(plan.cadence, plan.zone, plan.next - 1, now) ?? plan.next;
        plan.next = nextRun(plan.cadence, plan.zone, now);
      } catch {
        plan.next = null;
      }
      this.fire(scheduleID, fireAt);
    }
    this.checkedThrough = now;
    this.armTimer();
    if (now - this.lastSweep > SWEEP_EVERY_MS) void this.sweep(now);
  }

  private fire(scheduleID: string, fireAt: number): void {
    this.deps.runner.fire(scheduleID, fireAt).then(
      (outcome) => {
        if (outcome.claimed) this.opts.onFire?.({ scheduleID, fireAt, outcome });
      },
      (e: unknown) => this.deps.log.error(`firing schedule ${scheduleID}`, e),
    );
  }

  private async sweep(now: number): Promise<void> {
    this.lastSweep = now;
    const known = new Set(allSchedules(this.deps.store.reader).map((e) => e.schedule.scheduleID));
    await this.deps.files.sweep(known, Date.now()).catch((e: unknown) => this.deps.log.error('sweeping the scheduler folder', e));
  }
}
