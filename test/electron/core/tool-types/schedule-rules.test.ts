/**
 * The save rules of schedules, through the real ToolService on a real store: bad cron or zone
 * is a 400 naming the field, IDs are generated and unique, a copy gets new IDs, arguments are
 * checked once a schedule is on, and a privileged tool needs an explicit approval.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { v7 as uuidv7 } from 'uuid';
import { expectCode, functionTool, openTestStore, type TestStore } from '../../../helpers/store.js';
import type { ScheduleInput } from '../../../../shared/schemas.js';

let t: TestStore;
let bundleID: string;
beforeEach(async () => {
  t = await openTestStore();
  bundleID = uuidv7();
  await t.bundles.put(bundleID, { slug: 'jobs' });
});
afterEach(() => t.cleanup());

const create = (slug: string, schedules: ScheduleInput[], overrides = {}) =>
  t.tools.create({ bundleID, slug, version: 'v1' }, functionTool({ schedules, ...overrides }));

const issuesOf = async (p: Promise<unknown>) => ((await expectCode(p, 'INVALID_INPUT')).details as { issues: { field: string; message: string }[] }).issues;

describe('schedule save rules', () => {
  it('stores a schedule with a generated UUIDv7, the normalised pattern and the canonical zone, in tool.json', async () => {
    const tool = await create('calc', [{ cron: ' 0  9 * * 1-5 ', timezone: 'europe/paris', args: { expr: '1+1' } }]);
    const [s] = tool.schedules!;
    expect(s).toEqual({
      scheduleID: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Paris',
      args: { expr: '1+1' },
      isEnabled: true,
    });
    const onDisk = JSON.parse(await readFile(t.store.paths.toolFile(bundleID, tool.toolID), 'utf8'));
    expect(onDisk.schedules).toEqual(tool.schedules);
    expect(Object.keys(onDisk.schedules[0])).toEqual(['scheduleID', 'cron', 'timezone', 'args', 'isEnabled']);
  });

  it('a bad cron or zone is a 400 naming the field and the fix; nothing is written', async () => {
    const issues = await issuesOf(
      create('calc', [
        { cron: '0 9 * *', args: { expr: '1' } },
        { cron: '0 9 * * *', timezone: 'Mars/Olympus', args: { expr: '1' } },
      ]),
    );
    expect(issues).toEqual([
      { field: 'schedules[0].cron', message: expect.stringMatching(/5 fields.*it has 4/) },
      { field: 'schedules[1].timezone', message: expect.stringMatching(/not an IANA time zone.*Europe\/Paris/) },
    ]);
    expect(t.store.state.tools.size).toBe(0);
  });

  it('an enabled schedule must carry valid arguments; a switched-off one may wait for them', async () => {
    const issues = await issuesOf(create('calc', [{ cron: '* * * * *', args: {} }]));
    expect(issues).toEqual([{ field: 'schedules[0].args.expr', message: expect.stringMatching(/is required.*arguments the schedule runs/) }]);
    const off = await create('calc', [{ cron: '* * * * *', args: {}, isEnabled: false }]);
    expect(off.schedules![0]!.isEnabled).toBe(false);
  });

  it('scheduleIDs are unique within a tool, kept across edits, and a copy into another tool gets new ones', async () => {
    const id = uuidv7();
    expect(
      await issuesOf(
        create('a', [
          { scheduleID: id, cron: '0 * * * *', args: { expr: '1' } },
          { scheduleID: id, cron: '5 * * * *', args: { expr: '1' } },
        ]),
      ),
    ).toEqual([{ field: 'schedules[1].scheduleID', message: expect.stringMatching(/another schedule of this tool/) }]);
    const a = await create('a', [{ scheduleID: id, cron: '0 * * * *', args: { expr: '1' } }]);
    expect(a.schedules![0]!.scheduleID).toBe(id);
    const edited = await t.tools.update({ bundleID, slug: 'a', version: 'v1' }, { ...a, schedules: [{ ...a.schedules![0]!, cron: '30 * * * *' }] });
    expect(edited.schedules![0]).toMatchObject({ scheduleID: id, cron: '30 * * * *' });
    // The GET of one tool sent back as another (a copy): its schedule gets a new ID.
    const copy = await t.tools.create({ bundleID, slug: 'a-copy', version: 'v1' }, { ...edited, slug: undefined, version: undefined });
    expect(copy.schedules![0]!.scheduleID).not.toBe(id);
    expect(copy.schedules![0]!.cron).toBe('30 * * * *');
  });

  it('a privileged tool needs an explicit approval to schedule it enabled, recorded in tool.json', async () => {
    const schedule = { cron: '0 3 * * *', args: { expr: '1' } };
    const [issue] = await issuesOf(create('wipe', [schedule], { safety: 'privileged' }));
    expect(issue).toEqual({
      field: 'schedules[0].approval',
      message: expect.stringMatching(/privileged.*"approval": \{\}.*or save the schedule switched off/),
    });
    await create('wipe', [{ ...schedule, isEnabled: false }], { safety: 'privileged' }); // off: no approval needed
    const approved = await t.tools.update(
      { bundleID, slug: 'wipe', version: 'v1' },
      functionTool({ safety: 'privileged', schedules: [{ ...schedule, approval: { approvedBy: 'Ada' } }] }),
    );
    expect(approved.schedules![0]!.approval).toEqual({ approvedAt: expect.any(String), approvedBy: 'Ada' });
    // Sent back unchanged, the approval keeps its time; null withdraws it (and the schedule can no longer be on).
    const again = await t.tools.update({ bundleID, slug: 'wipe', version: 'v1' }, approved);
    expect(again.schedules![0]!.approval).toEqual(approved.schedules![0]!.approval);
    await issuesOf(t.tools.update({ bundleID, slug: 'wipe', version: 'v1' }, { ...again, schedules: [{ ...again.schedules![0]!, approval: null }] }));
  });

  it('making a scheduled tool privileged asks for the approval too', async () => {
    const tool = await create('calc', [{ cron: '0 3 * * *', args: { expr: '1' } }]);
    const [issue] = await issuesOf(t.tools.update({ bundleID, slug: 'calc', version: 'v1' }, { ...tool, safety: 'privileged' }));
    expect(issue!.field).toBe('schedules[0].approval');
  });

  it('stores a one-off time as written and an interval, each the only cadence of its schedule', async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString().replace('Z', '+00:00');
    const tool = await create('cadences', [{ at }, { everySeconds: 120 }], { argSchema: { type: 'object' } });
    expect(tool.schedules!.map(({ scheduleID: _id, ...rest }) => rest)).toEqual([
      { at, args: {}, isEnabled: true },
      { everySeconds: 120, args: {}, isEnabled: true },
    ]);
    const onDisk = JSON.parse(await readFile(t.store.paths.toolFile(bundleID, tool.toolID), 'utf8'));
    expect(Object.keys(onDisk.schedules[0])).toEqual(['scheduleID', 'at', 'args', 'isEnabled']);
  });

  it('refuses a one-off in the past, a malformed time, an interval under the minimum, no cadence, two cadences, and a zone on a one-off', async () => {
    const issues = await issuesOf(
      create(
        'bad',
        [
          { at: '2020-01-01T00:00:00Z' },
          { at: 'next tuesday' },
          { everySeconds: 30 },
          {},
          { cron: '* * * * *', everySeconds: 300 },
          { at: new Date(Date.now() + 60_000).toISOString(), timezone: 'Europe/Paris' },
        ] as ScheduleInput[],
        { argSchema: { type: 'object' } },
      ),
    );
    const byField = Object.fromEntries(issues.map((i) => [i.field, i.message]));
    expect(byField['schedules[0].at']).toMatch(/^is in the past \(2020-01-01T00:00:00Z, now .*\); a one-off time must be in the future when it is saved$/);
    expect(byField['schedules[1].at']).toContain('RFC 3339');
    expect(byField['schedules[2].everySeconds']).toBe('must be at least 60 seconds (config scheduleMinIntervalSeconds)');
    expect(byField['schedules[3]']).toContain("needs a cadence: 'cron'");
    expect(byField['schedules[4]']).toContain('more than one cadence');
    expect(byField['schedules[5].timezone']).toContain('applies to a cron pattern only');
  });

  it('takes the minimum interval from config, and an old one-off or interval never blocks an edit of its tool', async () => {
    await t.config.patch({ scheduleMinIntervalSeconds: 10 });
    const tool = await create('short', [{ everySeconds: 15 }], { argSchema: { type: 'object' } });
    await t.config.patch({ scheduleMinIntervalSeconds: 600 });
    // A one-off whose time has passed since it was saved, written as the scheduler left it.
    const past = '2020-01-01T00:00:00Z';
    const file = JSON.parse(await readFile(t.store.paths.toolFile(bundleID, tool.toolID), 'utf8'));
    file.schedules.push({ scheduleID: uuidv7(), at: past, args: {}, isEnabled: true });
    await writeFile(t.store.paths.toolFile(bundleID, tool.toolID), JSON.stringify(file, null, 2));
    await t.store.syncTool(bundleID, tool.toolID);
    const { schedules } = file as { schedules: ScheduleInput[] };
    const edited = await t.tools.update(
      { bundleID, slug: 'short', version: 'v1' },
      functionTool({ argSchema: { type: 'object' }, description: 'edited', schedules }),
    );
    expect(edited.schedules!.map((s) => s.everySeconds ?? s.at)).toEqual([15, past]);
    // Changing the interval now meets today's minimum.
    const issues = await issuesOf(
      t.tools.update(
        { bundleID, slug: 'short', version: 'v1' },
        functionTool({ argSchema: { type: 'object' }, schedules: [{ ...edited.schedules![0]!, everySeconds: 20 }] }),
      ),
    );
    expect(issues[0]).toEqual({ field: 'schedules[0].everySeconds', message: 'must be at least 600 seconds (config scheduleMinIntervalSeconds)' });
  });
});
