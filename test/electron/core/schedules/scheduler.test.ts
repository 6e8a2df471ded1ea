/**
 * The scheduler in one process, on a real data folder, with a clock running 30× faster than the
 * wall clock (a minute passes in two seconds): fires land in the history with trigger
 * "schedule" and as the schedule's latest output; only the latest missed fire is caught up; a
 * fire that comes while the previous run goes on is skipped and recorded; gates refuse fires,
 * recorded with their reason; a tool made privileged behind the app's back is refused; and
 * switching a schedule off stops it at once. The tests run side by side: each mostly waits for its clock.
 */
import { describe, expect, it, type OnTestFinishedHandler } from 'vitest';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { createCore, type Core } from '../../../../electron/core/app-core.js';
import type { FireOutcome } from '../../../../electron/core/schedules/schedule-runner.js';
import { functionTool, tempDir } from '../../../helpers/store.js';
import { startLoopbackServer, sendJson } from '../../../helpers/loopback-http.js';
import { claimedFires, fastClock, until, type FastClock } from '../../../helpers/schedules.js';
import type { ToolInput } from '../../../../shared/operations.js';

const CALC = { argSchema: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] } };

interface Fired {
  scheduleID: string;
  fireAt: number;
  outcome: FireOutcome;
}

/** The test's own onTestFinished: the tests run side by side (each mostly waits for its clock), each cleaning up its own. */
type AtEnd = (fn: OnTestFinishedHandler) => void;

async function start(
  atEnd: AtEnd,
  opts: { dataDir?: string; clock?: FastClock; watch?: boolean } = {},
): Promise<{ core: Core; fired: Fired[]; clock: FastClock; dataDir: string }> {
  const dataDir = opts.dataDir ?? (await tempDir('tw-sched-'));
  const clock = opts.clock ?? fastClock(30);
  const fired: Fired[] = [];
  const core = await createCore({
    dataDir,
    docker: false,
    watch: opts.watch === true,
    scheduler: { clock, renewMs: 200, ttlMs: 1500, standbyPollMs: 100, onFire: (f) => fired.push(f) },
  });
  atEnd(async () => {
    await core.close();
    if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  await warm(core);
  return { core, fired, clock, dataDir };
}

/**
 * One run first, as in a long-lived process: a process's first run loads the card sanitiser,
 * which on a loaded machine takes longer than a minute of this clock and would overlap the next fire.
 */
async function warm(core: Core): Promise<void> {
  const bundleID = uuidv7();
  await core.bundles.put(bundleID, { slug: `warm-${bundleID.slice(-6)}` });
  await core.tools.create({ bundleID, slug: 'warm', version: 'v1' }, functionTool(CALC));
  await core.invocations.invoke({ bundleID, slug: 'warm', version: 'v1' }, { args: { expression: '1' } });
}

async function scheduledTool(core: Core, tool: Partial<ToolInput>, schedule: NonNullable<ToolInput['schedules']>[number]) {
  const bundleID = uuidv7();
  await core.bundles.put(bundleID, { slug: `b-${bundleID.slice(-6)}` });
  const view = await core.tools.create({ bundleID, slug: 'job', version: 'v1' }, functionTool({ ...CALC, ...tool, schedules: [schedule] }));
  return { bundleID, tool: view, scheduleID: view.schedules![0]!.scheduleID };
}

const minuteOf = (ms: number) => ms % 60_000 === 0;

describe.concurrent('the scheduler', () => {
  it('fires every minute on the minute, into the history with trigger "schedule" and as the latest output', async ({ onTestFinished }) => {
    const { core, fired } = await start(onTestFinished);
    const { tool, scheduleID } = await scheduledTool(core, {}, { cron: '* * * * *', args: { expression: '6*7' } });
    await until('two fires', () => fired.length >= 2);
    expect(fired.every((f) => minuteOf(f.fireAt) && f.outcome.claimed && f.outcome.record.status === 'ok')).toBe(true);
    expect(fired[1]!.fireAt - fired[0]!.fireAt).toBe(60_000);
    const history = await core.history.list(tool.toolID);
    const runs = history.filter((e) => e.trigger === 'schedule' && e.scheduleID === scheduleID);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs[0]).toMatchObject({ status: 'ok', result: { value: 42 }, args: { expression: '6*7' } });
    const latest = await core.schedules.latest(scheduleID);
    expect(latest).toMatchObject({ scheduleID, toolID: tool.toolID, status: 'ok', value: { value: 42 }, fireAt: expect.stringMatching(/:00\.000Z$/) });
    const [view] = (await core.schedules.list()).items;
    expect(view).toEqual({
      scheduleID,
      toolID: tool.toolID,
      bundleID: tool.bundleID,
      cron: '* * * * *',
      timezone: expect.any(String),
      isEnabled: true,
      nextRunAt: expect.stringMatching(/:00\.000Z$/),
      lastRun: { invocationID: expect.any(String), startedAt: expect.any(String), status: expect.stringMatching(/^(ok|running)$/) },
    });
  });

  it('of the fires missed while nothing ran, only the latest runs, once, at start', async ({ onTestFinished }) => {
    const dataDir = await tempDir('tw-sched-');
    onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
    // The scheduler's clock reads 2 h 5 min ahead of the wall clock (mid-way between two fires of
    // */10), so the schedule made now exists long before the fires it missed.
    const ahead = Math.floor(Date.now() / 600_000) * 600_000 + 2 * 3_600_000 + 5 * 60_000;
    const first = await start(onTestFinished, { dataDir, clock: fastClock(1, Date.now(), ahead) });
    const { scheduleID } = await scheduledTool(first.core, {}, { cron: '*/10 * * * *', args: { expression: '1' } });
    await first.core.close();
    // The lease of a scheduler on another machine that last checked 35 minutes ago (on the
    // scheduler's clock) and has not renewed for an hour: fires at -30, -20 and -10 were missed.
    const now = first.clock.now();
    const lease = {
      generation: 1,
      holder: { id: 'gone', pid: 2 ** 22 + 7, host: 'elsewhere', startedAt: new Date(Date.now() - 7_200_000).toISOString() },
      renewedAt: new Date(Date.now() - 3_600_000).toISOString(),
      checkedThrough: new Date(now - 35 * 60_000).toISOString(),
    };
    await rm(join(dataDir, 'scheduler', 'lease'), { recursive: true, force: true });
    await mkdir(join(dataDir, 'scheduler', 'lease'), { recursive: true });
    await writeFile(join(dataDir, 'scheduler', 'lease', '000000000001.json'), JSON.stringify(lease));
    const second = await start(onTestFinished, { dataDir, clock: fastClock(1, Date.now(), now) });
    await until('the catch-up fire', () => second.fired.length >= 1, 10_000);
    await new Promise((r) => setTimeout(r, 500));
    const expected = Math.floor(now / 600_000) * 600_000; // the latest */10 fire before now
    expect(second.fired.map((f) => f.fireAt)).toEqual([expected]);
    expect(await claimedFires(dataDir, scheduleID)).toEqual([new Date(expected).toISOString()]);
  });

  describe('with a slow tool', () => {
    it('a fire that comes while the previous run still goes is skipped, and recorded', async ({ onTestFinished }) => {
      const server = await startLoopbackServer();
      onTestFinished(() => server.close());
      let going = 0;
      let most = 0;
      server.route('/slow', async (_req, res) => {
        most = Math.max(most, ++going);
        await new Promise((r) => setTimeout(r, 3000)); // a minute and a half on the scheduler's clock
        going--;
        sendJson(res, 200, { done: true });
      });
      const { core, fired } = await start(onTestFinished);
      await core.config.patch({ allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true });
      const { tool, scheduleID } = await scheduledTool(
        core,
        { type: 'http', impl: { method: 'GET', urlTemplate: server.url('/slow'), timeoutMs: 10_000 }, argSchema: { type: 'object' } },
        { cron: '* * * * *', args: {} },
      );
      await until('a skipped fire', () => fired.some((f) => f.outcome.claimed && f.outcome.record.status === 'skipped'), 20_000);
      const skipped = fired.find((f) => f.outcome.claimed && f.outcome.record.status === 'skipped')!;
      expect(skipped.outcome.claimed && skipped.outcome.record.error?.message).toMatch(/previous run of this schedule .* was still going/);
      const history = await core.history.list(tool.toolID);
      expect(history.some((e) => e.scheduleID === scheduleID && e.error?.code === 'CONFLICT' && /skipped/.test(e.error.message))).toBe(true);
      expect(most).toBe(1); // never two runs at once
    });
  });

  it('every gate applies: with the kill switch on, fires are refused and recorded with the reason', async ({ onTestFinished }) => {
    const { core, fired } = await start(onTestFinished);
    const { tool, scheduleID } = await scheduledTool(core, {}, { cron: '* * * * *', args: { expression: '1' } });
    await core.config.patch({ toolsEnabled: false });
    await until('a refused fire', () => fired.find((f) => f.outcome.claimed && f.outcome.record.status === 'refused'));
    const view = (await core.schedules.list()).items.find((s) => s.scheduleID === scheduleID)!;
    expect(view.lastRun?.status).toBe('refused');
    const [entry] = await core.history.list(tool.toolID);
    expect(entry).toMatchObject({ trigger: 'schedule', scheduleID, status: 'error', error: { code: 'TOOLS_DISABLED' } });
    await expect(core.schedules.latest(scheduleID)).rejects.toMatchObject({ code: 'NOT_FOUND' }); // nothing ran, so no output
  });

  it('a tool made privileged behind the app’s back (a hand edit) is refused at fire time, recorded', async ({ onTestFinished }) => {
    const { core, fired } = await start(onTestFinished);
    const { tool, scheduleID } = await scheduledTool(core, {}, { cron: '* * * * *', args: { expression: '1' } });
    const path = core.paths.toolFile(tool.bundleID, tool.toolID);
    const file = JSON.parse(await readFile(path, 'utf8'));
    await writeFile(path, JSON.stringify({ ...file, safety: 'privileged' }, null, 2));
    await core.store.syncTool(tool.bundleID, tool.toolID);
    await until('a refused fire', () => fired.find((f) => f.outcome.claimed && f.outcome.record.status === 'refused'));
    const [entry] = await core.history.list(tool.toolID);
    expect(entry).toMatchObject({
      scheduleID,
      error: { code: 'CONFIRMATION_REQUIRED', message: expect.stringMatching(/privileged.*no approval.*approve it/) },
    });
  });

  it('switching a schedule off stops its fires; switching it on without the approval a privileged tool needs is a 400', async ({ onTestFinished }) => {
    const { core, fired } = await start(onTestFinished);
    const { scheduleID } = await scheduledTool(core, {}, { cron: '* * * * *', args: { expression: '1' } });
    await until('a fire', () => fired.length >= 1);
    const off = await core.schedules.setEnabled(scheduleID, false);
    expect(off).toMatchObject({ isEnabled: false, nextRunAt: null });
    const count = fired.length;
    await new Promise((r) => setTimeout(r, 3000)); // a minute and a half on the scheduler's clock
    expect(fired.length).toBe(count);

    const priv = await scheduledTool(core, { safety: 'privileged' }, { cron: '* * * * *', args: { expression: '1' }, isEnabled: false });
    const err = await core.schedules.setEnabled(priv.scheduleID, true).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'INVALID_INPUT', details: { issues: [{ field: 'schedules[0].approval' }] } });
  });

  it('follows edits made outside this process: a schedule added to tool.json by hand (another process, a git pull) fires', async ({ onTestFinished }) => {
    const { core, fired } = await start(onTestFinished, { watch: true });
    const { tool } = await scheduledTool(core, {}, { cron: '0 0 1 1 *', args: { expression: '1' }, isEnabled: false });
    const path = core.paths.toolFile(tool.bundleID, tool.toolID);
    const file = JSON.parse(await readFile(path, 'utf8'));
    const scheduleID = uuidv7();
    file.schedules.push({ scheduleID, cron: '* * * * *', args: { expression: '2+2' }, isEnabled: true });
    await writeFile(path, JSON.stringify(file, null, 2));
    const fire = await until('a fire of the hand-written schedule', () => fired.find((f) => f.scheduleID === scheduleID));
    expect(fire.outcome.claimed && fire.outcome.record.status).toBe('ok');
  });

  it('a privileged tool with its schedule approved runs unattended', async ({ onTestFinished }) => {
    const { core, fired } = await start(onTestFinished);
    const { scheduleID } = await scheduledTool(
      core,
      { safety: 'privileged' },
      { cron: '* * * * *', args: { expression: '3*3' }, approval: { approvedBy: 'test' } },
    );
    const fire = await until('a fire', () => fired.find((f) => f.scheduleID === scheduleID));
    expect(fire.outcome.claimed && fire.outcome.record.status).toBe('ok');
    expect(await core.schedules.latest(scheduleID)).toMatchObject({ status: 'ok', value: { value: 9 } });
  });
});
