/**
 * Exactly one scheduler per data folder, across real processes: three Toolwright processes start
 * their schedulers at the same instant on one data folder with a schedule firing every minute (on
 * a clock 12× faster than the wall clock: a minute every 5 s). One becomes the holder; it is
 * SIGKILLed between two fires; another takes over within 15 s. Every minute from the first fire
 * to the last runs exactly once: none twice, none lost (the one due during the takeover is caught
 * up), as the processes report, as the fire claims on disk and as the tool's history show.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import type { ChildProcess } from 'node:child_process';
import { collect, spawnTs } from '../../../helpers/procs.js';
import { functionTool, openTestStore } from '../../../helpers/store.js';
import { claimedFires, nextMinute, until } from '../../../helpers/schedules.js';
import { HistoryStore } from '../../../../electron/core/invoke/history.js';

const SPEED = 12;
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

type Line = { pid: number; at: number; role?: string; fire?: string; status?: string; invocationID?: string; ready?: boolean; closed?: boolean };

describe('one scheduler per data folder, across processes', () => {
  it('three processes, one killed: takeover within 15 s, every fire exactly once', async () => {
    const t = await openTestStore();
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'jobs' });
    const tool = await t.tools.create(
      { bundleID, slug: 'tick', version: 'v1' },
      functionTool({
        argSchema: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
        schedules: [{ cron: '* * * * *', timezone: 'Europe/Paris', args: { expression: '1+1' } }],
      }),
    );
    const scheduleID = tool.schedules![0]!.scheduleID;
    const goFile = join(t.dataDir, '..', `go-${bundleID}`);
    const realAnchor = Date.now();
    // The scheduler's clock runs an hour ahead of the wall clock, so the schedule exists well before the fires.
    const fakeAnchor = nextMinute(realAnchor + 3_600_000) - 1000;

    const procs = [0, 1, 2].map(() => {
      const child = spawnTs('test/helpers/scheduler-worker.ts', [t.dataDir, String(SPEED), String(realAnchor), String(fakeAnchor), goFile]);
      children.push(child);
      return { child, out: collect(child) };
    });
    const lines = () => procs.flatMap((p) => p.out.lines as Line[]).sort((a, b) => a.at - b.at);
    try {
      await until('three processes ready', () => procs.every((p) => p.out.lines.some((l) => l['ready'])), 90_000);
      // The three schedulers start at the same instant, 10 s past a minute on their clock (so the
      // catch-up fire at start is over long before the next minute's fire).
      const fake = (real: number) => fakeAnchor + (real - realAnchor) * SPEED;
      const target = nextMinute(fake(Date.now() + 300)) + 10_000;
      await writeFile(goFile, String(Math.round(realAnchor + (target - fakeAnchor) / SPEED)));

      const holderLine = await until('a holder', () => lines().find((l) => l.role === 'holder'));
      const holder = procs.find((p) => p.child.pid === holderLine.pid)!;
      await until('two fires of the first holder', () => lines().filter((l) => l.fire && l.pid === holderLine.pid).length >= 2, 30_000);
      expect(
        lines()
          .filter((l) => l.role === 'holder')
          .map((l) => l.pid),
      ).toEqual([holderLine.pid]);

      // Killed somewhere between two fires (a fire is claimed and run within milliseconds of its minute).
      const lastFire = lines()
        .filter((l) => l.fire && l.pid === holderLine.pid)
        .at(-1)!;
      await new Promise((r) => setTimeout(r, Math.max(0, lastFire.at + 150 + Math.random() * 2500 - Date.now())));
      const killedAt = Date.now();
      holder.child.kill('SIGKILL');
      const next = await until('a new holder', () => lines().find((l) => l.role === 'holder' && l.pid !== holderLine.pid && l.at >= killedAt), 20_000);
      expect(next.at - killedAt).toBeLessThanOrEqual(15_000);
      await until('three fires of the new holder', () => lines().filter((l) => l.fire && l.pid === next.pid).length >= 3, 40_000);

      for (const p of procs) if (p !== holder) p.child.kill('SIGTERM');
      await Promise.all(procs.map((p) => p.out.done));
    } catch (e) {
      throw new Error(
        `${(e as Error).message}\nlines: ${JSON.stringify(lines())}\nstderr: ${(await Promise.all(procs.map(async (p) => (p.child.exitCode === null ? '' : (await p.out.done).stderr)))).join('\n')}`,
      );
    }

    const fires = lines().filter((l) => l.fire);
    expect(
      fires.filter((l) => l.status !== 'ok'),
      JSON.stringify(lines()),
    ).toEqual([]);
    const times = fires.map((l) => Date.parse(l.fire!)).sort((a, b) => a - b);
    // None twice.
    expect(new Set(times).size).toBe(times.length);
    // None lost: every minute from the first fire to the last.
    const expected = Array.from({ length: (times.at(-1)! - times[0]!) / 60_000 + 1 }, (_, i) => times[0]! + i * 60_000);
    expect(times).toEqual(expected);
    // Fires of both holders.
    expect(new Set(fires.map((l) => l.pid)).size).toBe(2);
    // What is on disk agrees: one claim per fire, one history entry per fire and no other scheduled run.
    expect(await claimedFires(t.dataDir, scheduleID)).toEqual(expected.map((ms) => new Date(ms).toISOString()));
    const history = (await new HistoryStore(t.store.paths.historyDir).list(tool.toolID, 1000)).filter((e) => e.trigger === 'schedule');
    expect(history.map((e) => e.invocationID).sort()).toEqual(fires.map((l) => l.invocationID).sort());
    await rm(goFile, { force: true });
    await t.cleanup();
  }, 180_000); // real processes on a shared 2-core machine: ~20 s when quiet, ~45 s under load

  it('one-off and interval cadences: three processes racing, each interval fire and the one-off run exactly once', async () => {
    const t = await openTestStore();
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'cadences' });
    const realAnchor = Date.now();
    const fakeAnchor = nextMinute(realAnchor + 3_600_000) - 1000;
    const fake = (real: number) => fakeAnchor + (real - realAnchor) * SPEED;
    // The one-off is due 25 s (of the fast clock) after the schedulers start; the save sees the real clock, for which it is an hour ahead.
    const startFake = nextMinute(fake(Date.now() + 20_000)) + 10_000;
    const at = new Date(startFake + 25_000).toISOString();
    const tool = await t.tools.create(
      { bundleID, slug: 'cadenced', version: 'v1' },
      functionTool({
        argSchema: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
        schedules: [
          { everySeconds: 60, args: { expression: '2+2' } },
          { at, args: { expression: '3+3' } },
        ],
      }),
    );
    const [interval, once] = tool.schedules!.map((s) => s.scheduleID) as [string, string];
    const goFile = join(t.dataDir, '..', `go-${bundleID}`);
    const procs = [0, 1, 2].map(() => {
      const child = spawnTs('test/helpers/scheduler-worker.ts', [t.dataDir, String(SPEED), String(realAnchor), String(fakeAnchor), goFile]);
      children.push(child);
      return { child, out: collect(child) };
    });
    const lines = () => procs.flatMap((p) => p.out.lines as (Line & { scheduleID?: string })[]).sort((a, b) => a.at - b.at);
    try {
      await until('three processes ready', () => procs.every((p) => p.out.lines.some((l) => l['ready'])), 90_000);
      await writeFile(goFile, String(Math.round(realAnchor + (startFake - fakeAnchor) / SPEED)));
      await until(
        'the one-off and three interval fires',
        () => {
          const fired = lines().filter((l) => l.fire && l.status !== 'not-claimed');
          return fired.some((l) => l.scheduleID === once) && fired.filter((l) => l.scheduleID === interval).length >= 4;
        },
        60_000,
      );
      for (const p of procs) p.child.kill('SIGTERM');
      await Promise.all(procs.map((p) => p.out.done));
    } catch (e) {
      throw new Error(`${(e as Error).message}\nlines: ${JSON.stringify(lines())}`);
    }
    const fires = lines().filter((l) => l.fire && l.status !== 'not-claimed');
    expect(
      fires.filter((l) => l.status !== 'ok'),
      JSON.stringify(lines()),
    ).toEqual([]);
    // The one-off: once, at its time.
    expect(fires.filter((l) => l.scheduleID === once).map((l) => l.fire)).toEqual([at]);
    expect(await claimedFires(t.dataDir, once)).toEqual([at]);
    // The interval: none twice, none lost, a minute apart on the anchor of its creation.
    const times = fires
      .filter((l) => l.scheduleID === interval)
      .map((l) => Date.parse(l.fire!))
      .sort((a, b) => a - b);
    expect(new Set(times).size).toBe(times.length);
    const anchor = Date.parse(new Date(parseInt(interval.replace(/-/g, '').slice(0, 12), 16)).toISOString());
    for (const time of times) expect((time - anchor) % 60_000).toBe(0);
    expect(times.slice(1).map((time, i) => time - times[i]!)).toEqual(times.slice(1).map(() => 60_000));
    expect(await claimedFires(t.dataDir, interval)).toEqual(times.map((ms) => new Date(ms).toISOString()));
    await rm(goFile, { force: true });
    await t.cleanup();
  }, 180_000);
});
