/**
 * Scheduler test helpers: a clock that runs faster than the wall clock (so a schedule firing
 * every minute fires every second or two), shared by every process of a test through its
 * anchors, and small readers of what the scheduler leaves on disk.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeSync } from 'node:fs';
import type { SchedulerClock, SchedulerOptions } from '../../electron/core/schedules/scheduler.js';

export interface FastClock extends SchedulerClock {
  speed: number;
  realAnchor: number;
  fakeAnchor: number;
}

/** fake = fakeAnchor + (real - realAnchor) × speed. Processes given the same anchors agree on the time. */
export function fastClock(speed: number, realAnchor = Date.now(), fakeAnchor = nextMinute(realAnchor) - 2000): FastClock {
  const now = () => fakeAnchor + (Date.now() - realAnchor) * speed;
  return { speed, realAnchor, fakeAnchor, now, delayUntil: (at) => (at - now()) / speed };
}

export function nextMinute(ms: number): number {
  return Math.ceil(ms / 60_000) * 60_000;
}

/** The fire claims of a schedule (one file per fire that ran somewhere), as ISO times. */
export async function claimedFires(dataDir: string, scheduleID: string): Promise<string[]> {
  const names = await readdir(join(dataDir, 'scheduler', 'fires', scheduleID)).catch(() => [] as string[]);
  return names
    .filter((n) => !n.startsWith('.'))
    .map((n) => n.replace(/^(\d{4}-\d{2}-\d{2}T\d{2})-(\d{2})-(\d{2})-(\d{3})Z$/, '$1:$2:$3.$4Z'))
    .sort();
}

export async function until<T>(what: string, fn: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** One JSON line on stdout, with this process's pid and the time: how scheduler processes report to their test. */
export const reportLine = (line: Record<string, unknown>): void => void writeSync(1, JSON.stringify({ pid: process.pid, at: Date.now(), ...line }) + '\n');

/** A scheduler process's reports: a line per role change and per fire it ran (its status, or that another process claimed it). */
export const reportingScheduler: Pick<SchedulerOptions, 'onRole' | 'onFire'> = {
  onRole: (role) => reportLine({ role }),
  onFire: ({ scheduleID, fireAt, outcome }) =>
    reportLine({
      fire: new Date(fireAt).toISOString(),
      scheduleID,
      status: outcome.claimed ? outcome.record.status : 'not-claimed',
      invocationID: outcome.claimed ? outcome.record.invocationID : null,
    }),
};
