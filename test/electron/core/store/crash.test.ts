import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { BundleFile, ToolFile } from '../../../../shared/schemas.js';
import { validatorFor } from '../../../../electron/core/validation.js';
import { withLock } from '../../../../electron/core/fs/lock.js';
import { openTestStore, type TestStore } from '../../../helpers/store.js';
import { collect, spawnTs } from '../../../helpers/procs.js';

// Most of each kill's CPU is the writer's start (~0.75 s CPU apiece), yet the count stays: with
// writeFileAtomic swapped for an in-place write (open 'w', write, fsync), a trial first saw a torn
// tool.json at the 18th kill: a torn write is caught about once in 18 kills, not at every one.
const KILLS = 25;

let t: TestStore;
beforeAll(async () => {
  t = await openTestStore();
});
afterAll(async () => {
  await t.cleanup();
});

/** Every bundle.json and tool.json under the data dir, parsed and schema-checked. */
async function checkEveryFile(dataDir: string): Promise<{ files: number; temps: string[] }> {
  let files = 0;
  const temps: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.name.includes('.tmp-')) temps.push(p);
      if (e.isDirectory()) {
        if (!e.name.startsWith('.')) await walk(p);
      } else if (e.name === 'bundle.json' || e.name === 'tool.json') {
        const text = await readFile(p, 'utf8');
        const value = JSON.parse(text); // throws on a torn file
        const ok = validatorFor(e.name === 'bundle.json' ? BundleFile : ToolFile)(value);
        expect(ok, `${p} does not match its schema`).toBe(true);
        files++;
      }
    }
  };
  await walk(join(dataDir, 'bundles'));
  return { files, temps };
}

describe('crash safety', () => {
  it(`SIGKILL of a writer at ${KILLS} random instants never leaves a torn file; the next start cleans up`, async () => {
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'crash' });
    for (let i = 0; i < KILLS; i++) {
      const child = spawnTs('test/helpers/race-worker.ts', ['churn', t.dataDir, bundleID]);
      const run = collect(child);
      // The first worker lives until it created a tool, so the end check has files to read even when a loaded machine is slow to write.
      await new Promise<void>((resolve) => run.onLine((l) => (i === 0 ? l['created'] : l['ready']) && resolve()));
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 150));
      child.kill('SIGKILL');
      const done = await run.done;
      expect(done.signal).toBe('SIGKILL');
      expect(done.lines.filter((l) => l['error'] || l['fatal'])).toEqual([]);
      const { temps } = await checkEveryFile(t.dataDir);
      expect(temps.every((p) => p.includes('.tmp-'))).toBe(true);
    }
    // The next start removes what dead writers left and finishes interrupted creates.
    const fresh = await t.reopen();
    expect(fresh.store.problems()).toEqual([]);
    const after = await checkEveryFile(t.dataDir);
    expect(after.temps).toEqual([]);
    expect(after.files).toBeGreaterThan(1);
    // Every tool the store sees holds its claim, so uniqueness survives the crashes.
    for (const tool of fresh.tools.list({ includeDisabled: true, recommendedPageSize: 1000 }).items) {
      expect(await fresh.store.claims.owner(bundleID, tool.slug, tool.version)).toBe(tool.toolID);
    }
  }, 180_000);

  it('a lock left by a killed process is refused while fresh and taken over after the stale time', async () => {
    const lockPath = join(t.dataDir, 'held.lock');
    const staleMs = 2000;
    const child = spawnTs('test/helpers/race-worker.ts', ['hold', lockPath, String(staleMs)]);
    const run = collect(child);
    await new Promise<void>((resolve) => run.onLine((l) => l['held'] && resolve()));
    child.kill('SIGKILL');
    await run.done;
    const killedAt = Date.now();
    await expect(withLock(lockPath, async () => 'early', { stale: staleMs, waitMs: 200 })).rejects.toMatchObject({ code: 'BUSY' });
    const got = await withLock(lockPath, async () => Date.now(), { stale: staleMs, waitMs: 15_000 });
    expect(got - killedAt).toBeGreaterThanOrEqual(staleMs - 500);
  }, 60_000);
});
