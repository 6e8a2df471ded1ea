import { afterAll, describe, expect, it } from 'vitest';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { MetricsStore } from '../../../electron/core/metrics.js';
import { tempDir } from '../../helpers/store.js';
import { runTogether } from '../../helpers/procs.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('usage metrics', () => {
  it('lose no increment when 4 processes record the same tool at once', async () => {
    const dir = await tempDir('tw-metrics-');
    dirs.push(dir);
    const toolID = uuidv7();
    const results = await runTogether(
      'test/helpers/race-worker.ts',
      Array.from({ length: 4 }, () => ['metrics', dir, toolID, '150']),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const m = JSON.parse(await readFile(join(dir, `${toolID}.json`), 'utf8'));
    expect(m.callCount).toBe(600);
    expect(m.errorCount).toBe(4 * 15); // every 10th call of 150 failed
    expect(typeof m.lastCalledAt).toBe('string');
  }, 60_000);

  it('counts a batch while it is on its way to the file, and a stale read of the file never takes counts back', async () => {
    const dir = await tempDir('tw-metrics-');
    dirs.push(dir);
    const store = new MetricsStore(dir, 60_000);
    const toolID = uuidv7();
    store.record(toolID, true);
    await store.flush();
    store.record(toolID, false);
    const writing = store.flush();
    // Mid-flush (the batch has left the pending counts, the file is not written yet): still counted.
    expect(store.get(toolID)).toMatchObject({ callCount: 2, errorCount: 1 });
    await writing;
    expect(store.get(toolID)).toMatchObject({ callCount: 2, errorCount: 1 });
    // The watcher's read of the first write, finishing after the second: the older file must not win.
    await writeFile(join(dir, `${toolID}.json`), JSON.stringify({ callCount: 1, errorCount: 0, lastCalledAt: new Date().toISOString() }));
    await store.reload(toolID);
    expect(store.get(toolID)).toMatchObject({ callCount: 2, errorCount: 1 });
    // Another process's newer counts do.
    await writeFile(join(dir, `${toolID}.json`), JSON.stringify({ callCount: 5, errorCount: 1, lastCalledAt: new Date().toISOString() }));
    await store.reload(toolID);
    expect(store.get(toolID)).toMatchObject({ callCount: 5, errorCount: 1 });
  });

  it('counts in memory at once and writes later, never touching anything but metrics/', async () => {
    const dir = await tempDir('tw-metrics-');
    dirs.push(dir);
    const store = new MetricsStore(join(dir, 'metrics'), 10_000);
    const id = uuidv7();
    store.record(id, true);
    store.record(id, false);
    expect(store.get(id)).toMatchObject({ callCount: 2, errorCount: 1 });
    await expect(readFile(join(dir, 'metrics', `${id}.json`), 'utf8')).rejects.toThrow();
    await store.flush();
    expect(JSON.parse(await readFile(join(dir, 'metrics', `${id}.json`), 'utf8')).callCount).toBe(2);
    const again = new MetricsStore(join(dir, 'metrics'));
    await again.loadAll();
    expect(again.get(id).callCount).toBe(2);
  });

  it('keeps the counts and never rejects when the metrics folder cannot be made (a timer flush would crash the process)', async () => {
    const dir = await tempDir('tw-metrics-');
    dirs.push(dir);
    await writeFile(join(dir, 'metrics'), 'a file where the folder should be');
    const store = new MetricsStore(join(dir, 'metrics'), 60_000);
    const id = uuidv7();
    store.record(id, true);
    await expect(store.flush()).resolves.toBeUndefined();
    expect(store.get(id).callCount).toBe(1);
    await rm(join(dir, 'metrics'));
    await store.flush();
    expect(JSON.parse(await readFile(join(dir, 'metrics', `${id}.json`), 'utf8')).callCount).toBe(1);
    await store.close();
  });

  it('makes its folder again when it was removed after a flush, and close() writes what is pending', async () => {
    const dir = await tempDir('tw-metrics-');
    dirs.push(dir);
    const store = new MetricsStore(join(dir, 'metrics'), 60_000);
    const id = uuidv7();
    store.record(id, true);
    await store.flush();
    await rm(join(dir, 'metrics'), { recursive: true });
    store.record(id, true);
    // The folder is made once per process: this flush finds it gone, keeps the count, and the next makes it again.
    await store.flush();
    await store.flush();
    expect(JSON.parse(await readFile(join(dir, 'metrics', `${id}.json`), 'utf8')).callCount).toBe(1);
    store.record(id, false);
    await store.close();
    expect(JSON.parse(await readFile(join(dir, 'metrics', `${id}.json`), 'utf8'))).toMatchObject({ callCount: 2, errorCount: 1 });
  });
});
