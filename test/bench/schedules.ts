/**
 * The scheduler with the real clock: how long after a minute boundary a schedule firing every
 * minute starts its run, and when its output lands (goal ≤ 1 s), for 10 schedules that fire at
 * the same minute, beside a plain setTimeout armed for the same boundary in the same process
 * (how late Node's own timer is). Waits for BENCH_MINUTES minute boundaries (default 2). The
 * engine is warmed first, as in a long-lived process (a process's very first run loads the card
 * sanitiser and takes most of a second, whoever asks for it).
 */
import { rm } from 'node:fs/promises';
import { v7 as uuidv7 } from 'uuid';
import { createCore } from '../../electron/core/app-core.js';
import type { FireOutcome } from '../../electron/core/schedules/schedule-runner.js';
import { functionTool, tempDir } from '../helpers/store.js';
import { fmt, quantile, row } from './util.js';

const SCHEDULES = 10;

export async function run(): Promise<void> {
  const minutes = Math.max(1, Number(process.env['BENCH_MINUTES'] ?? 2));
  const dataDir = await tempDir('tw-bench-sched-');
  const fires: { fireAt: number; outcome: FireOutcome }[] = [];
  const core = await createCore({ dataDir, docker: false, scheduler: { onFire: (f) => fires.push(f) } });
  try {
    await core.config.patch({ limits: { maxCallsPerMinute: 100000, maxOutputBytes: 16384 } });
    const bundleID = uuidv7();
    await core.bundles.put(bundleID, { slug: 'bench' });
    for (let i = 0; i < SCHEDULES; i++) {
      await core.tools.create(
        { bundleID, slug: `tick-${i}`, version: 'v1' },
        functionTool({
          argSchema: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
          schedules: [{ cron: '* * * * *', args: { expression: `${i}+1` } }],
        }),
      );
    }
    await core.invocations.invoke({ bundleID, slug: 'tick-0', version: 'v1' }, { args: { expression: '0' } });
    // The baseline: a plain timer for each of the same boundaries.
    const first = Math.ceil((Date.now() + 1000) / 60_000) * 60_000;
    const boundaries = Array.from({ length: minutes }, (_, i) => first + i * 60_000);
    const lateness: number[] = [];
    for (const b of boundaries) setTimeout(() => lateness.push(Date.now() - b), b - Date.now());
    console.log(`  waiting for ${minutes} minute boundar${minutes === 1 ? 'y' : 'ies'} (${SCHEDULES} schedules each)…`);
    const last = boundaries.at(-1)!;
    while (fires.filter((f) => f.fireAt === last).length < SCHEDULES || lateness.length < minutes) {
      if (Date.now() > last + 30_000) throw new Error('the fires did not all come within 30 s of the last boundary');
      await new Promise((r) => setTimeout(r, 100));
    }
    const measured = fires.filter((f) => boundaries.includes(f.fireAt) && f.outcome.claimed);
    const started = measured.map((f) => (f.outcome.claimed ? Date.parse(f.outcome.record.startedAt) - f.fireAt : NaN));
    const landed = measured.map((f) => (f.outcome.claimed ? Date.parse(f.outcome.record.finishedAt!) - f.fireAt : NaN));
    // Date.now() has whole milliseconds: a timer on time reads 0, shown as 1 ms so the ratio means something.
    const base = Math.max(1, quantile(lateness, 0.5));
    const baseMax = Math.max(1, ...lateness);
    console.log(`  ${measured.length} fires, all ${measured.every((f) => f.outcome.claimed && f.outcome.record.status === 'ok') ? 'ok' : 'NOT ok'}`);
    console.log(row('run started after the minute, p50', quantile(started, 0.5), base));
    console.log(row('run started after the minute, max', Math.max(...started), baseMax));
    console.log(row('output landed after the minute, p50', quantile(landed, 0.5), base));
    console.log(row('output landed after the minute, max', Math.max(...landed), baseMax));
    console.log(`  goal: output within 1 s of the minute — max ${fmt(Math.max(...landed))} (${Math.max(...landed) <= 1000 ? 'met' : 'NOT met'})`);
  } finally {
    await core.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
