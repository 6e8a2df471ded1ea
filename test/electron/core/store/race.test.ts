import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { openTestStore, type TestStore } from '../../../helpers/store.js';
import { runTogether } from '../../../helpers/procs.js';

const PROCESSES = 8;
const ROUNDS = 40; // 8 × 40 = 320 create attempts, 40 contested pairs

let t: TestStore;
beforeAll(async () => {
  t = await openTestStore();
});
afterAll(async () => {
  await t.cleanup();
});

describe('<slug,version> uniqueness across OS processes', () => {
  it(`${PROCESSES} processes × ${ROUNDS} contested creates: exactly one success per pair, every other answer a conflict`, async () => {
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'race' });
    const results = await runTogether(
      'test/helpers/race-worker.ts',
      Array.from({ length: PROCESSES }, () => ['create', t.dataDir, bundleID, String(ROUNDS)]),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const attempts = results.flatMap((r) => r.lines);
    expect(attempts).toHaveLength(PROCESSES * ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      const mine = attempts.filter((a) => a['r'] === round);
      expect(
        mine.filter((a) => a['ok'] === true),
        `round ${round}`,
      ).toHaveLength(1);
      for (const a of mine.filter((x) => x['ok'] !== true)) expect(a['code'], String(a['message'])).toBe('CONFLICT');
    }
    // On disk: one tool per pair, every tool.json parses, and a fresh store sees exactly them.
    const toolsDir = join(t.dataDir, 'bundles', bundleID, 'tools');
    const names = (await readdir(toolsDir)).filter((n) => !n.startsWith('.'));
    expect(names).toHaveLength(ROUNDS);
    const slugs = await Promise.all(names.map(async (n) => JSON.parse(await readFile(join(toolsDir, n, 'tool.json'), 'utf8')).slug as string));
    expect(new Set(slugs).size).toBe(ROUNDS);
    const fresh = await t.reopen();
    expect(fresh.tools.list({ bundleIDs: [bundleID], recommendedPageSize: 1000 }).items).toHaveLength(ROUNDS);
    expect(fresh.store.problems()).toEqual([]);
  }, 120_000);

  it('the publish step alone refuses to overwrite, so two lock holders (proper-lockfile #121) still cannot both win', async () => {
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'publish' });
    const results = await runTogether(
      'test/helpers/race-worker.ts',
      Array.from({ length: PROCESSES }, () => ['publish', t.dataDir, bundleID, '60']),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const attempts = results.flatMap((r) => r.lines);
    for (let round = 0; round < 60; round++) {
      expect(
        attempts.filter((a) => a['r'] === round && a['ok'] === true),
        `round ${round}`,
      ).toHaveLength(1);
    }
  }, 120_000);
});
