/**
 * Schedules travelling: an import keeps them switched off (and drops approvals given elsewhere),
 * an import as a copy gives them new IDs, and a Chalie manifest's trigger becomes a switched-off
 * schedule.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { freshTransferStores } from '../../../helpers/transfer.js';
import { functionTool } from '../../../helpers/store.js';

const fresh = freshTransferStores(afterAll);

describe('schedules in imports and exports', () => {
  it('an exported bundle imports with its schedules switched off and unapproved; as a copy with new scheduleIDs', async () => {
    const source = await fresh();
    const bundleID = uuidv7();
    await source.bundles.put(bundleID, { slug: 'jobs' });
    const tool = await source.tools.create(
      { bundleID, slug: 'nightly', version: 'v1' },
      functionTool({
        safety: 'privileged',
        schedules: [{ cron: '0 3 * * *', timezone: 'Europe/Paris', args: { expr: '1+1' }, approval: { approvedBy: 'Ada' } }],
      }),
    );
    const [original] = tool.schedules!;
    expect(original!.isEnabled).toBe(true);
    const { zip } = await source.transfer.exportBundles([bundleID]);

    const target = await fresh();
    const report = await target.transfer.importZip(zip, 'skip');
    expect(report.warnings?.join('\n')).toMatch(/schedules arrive switched off: nightly v1/);
    const imported = target.store.state.tools.get(tool.toolID)!.file;
    expect(imported.schedules).toEqual([
      { scheduleID: original!.scheduleID, cron: '0 3 * * *', timezone: 'Europe/Paris', args: { expr: '1+1' }, isEnabled: false },
    ]);

    // Into the folder it came from, as a copy: the copy's schedule is its own.
    const copied = await source.transfer.importZip(zip, 'copy');
    const copyID = copied.created[0]!.bundleID;
    const copyTool = [...source.store.state.tools.values()].find((r) => r.file.bundleID === copyID)!.file;
    expect(copyTool.schedules![0]!.scheduleID).not.toBe(original!.scheduleID);
    expect(copyTool.schedules![0]).toMatchObject({ cron: '0 3 * * *', isEnabled: false });
    expect(copyTool.schedules![0]!.approval).toBeUndefined();
    // The original still runs as it did.
    expect(source.store.state.tools.get(tool.toolID)!.file.schedules![0]!.isEnabled).toBe(true);
  });

  describe("a Chalie manifest's trigger", () => {
    const folder = (manifest: object) => [
      {
        path: 'manifest.json',
        content: JSON.stringify({ name: 'news-digest', version: '1.0', parameters: { topic: { type: 'string', required: true } }, ...manifest }),
      },
      { path: 'Dockerfile', content: 'FROM busybox\n' },
    ];

    it('becomes a switched-off schedule with its zone, arguments from the trigger or the defaults', async () => {
      const t = await fresh();
      const bundleID = uuidv7();
      await t.bundles.put(bundleID, { slug: 'chalie' });
      const result = await t.transfer.importContainerFiles(
        bundleID,
        folder({
          trigger: { type: 'cron', schedule: '0 8 * * 1-5', timezone: 'Europe/Malta' },
          parameters: { topic: { type: 'string', required: true }, count: { type: 'integer', default: 5 } },
        }),
      );
      expect(result.tool.schedules).toEqual([
        { scheduleID: expect.stringMatching(/^[0-9a-f-]{36}$/), cron: '0 8 * * 1-5', timezone: 'Europe/Malta', args: { count: 5 }, isEnabled: false },
      ]);
      expect(result.warnings.join('\n')).toMatch(/trigger became a schedule, switched off: At 08:00, Monday through Friday/);
    });

    it.each([
      [{ trigger: '*/15 * * * *' }, '*/15 * * * *'],
      [{ trigger: { type: 'interval', minutes: 30 } }, '*/30 * * * *'],
      [{ trigger: { type: 'interval', hours: 6, args: { topic: 'ai' } } }, '0 */6 * * *'],
    ])('reads %j', async (manifest, cron) => {
      const t = await fresh();
      const bundleID = uuidv7();
      await t.bundles.put(bundleID, { slug: 'chalie' });
      const result = await t.transfer.importContainerFiles(bundleID, folder(manifest));
      expect(result.tool.schedules![0]).toMatchObject({ cron, isEnabled: false });
    });

    it('on demand needs no schedule; what cannot be read is reported, and the tool is still imported', async () => {
      const t = await fresh();
      const bundleID = uuidv7();
      await t.bundles.put(bundleID, { slug: 'chalie' });
      const onDemand = await t.transfer.importContainerFiles(bundleID, folder({ trigger: { type: 'on_demand', description: 'when needed' } }));
      expect(onDemand.tool.schedules).toBeUndefined();
      expect(onDemand.warnings.join('\n')).toMatch(/runs it when called, so it needs no schedule/);
      const bad = await t.transfer.importContainerFiles(bundleID, folder({ name: 'other', trigger: { type: 'cron', schedule: '0 8 * *' } }));
      expect(bad.tool.schedules).toBeUndefined();
      expect(bad.warnings.join('\n')).toMatch(/not turned into a schedule: the pattern must have 5 fields/);
    });
  });
});
