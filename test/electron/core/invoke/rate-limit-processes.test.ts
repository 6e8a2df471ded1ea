/** maxCallsPerMinute holds across every process on one data folder (real OS processes). */
import { afterAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { runTogether } from '../../../helpers/procs.js';
import { functionTool, openTestStore, type TestStore } from '../../../helpers/store.js';

let t: TestStore | undefined;
afterAll(async () => {
  await t?.cleanup();
});

const PROCESSES = 3;
const CALLS = 8;
const LIMIT = 10;

describe('maxCallsPerMinute across processes', () => {
  it(`${PROCESSES} processes × ${CALLS} calls of a tool limited to ${LIMIT} a minute: ${LIMIT} run, the rest are RATE_LIMITED`, async () => {
    t = await openTestStore();
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'limits' });
    await t.tools.create(
      { bundleID, slug: 'limited', version: 'v1' },
      functionTool({ argSchema: { type: 'object', properties: { expression: { type: 'string' } } }, limits: { maxCallsPerMinute: LIMIT } }),
    );
    // Every worker starts calling at the same instant, once all have loaded.
    const done = await runTogether(
      'test/helpers/race-worker.ts',
      Array.from({ length: PROCESSES }, () => ['invoke', t!.dataDir, bundleID, String(CALLS)]),
    );
    const lines = done.flatMap((d) => d.lines);
    expect(
      done.map((d) => d.code),
      done.map((d) => d.stderr).join('\n'),
    ).toEqual(done.map(() => 0));
    expect(lines).toHaveLength(PROCESSES * CALLS);
    expect(lines.filter((l) => l['ok'] === true)).toHaveLength(LIMIT);
    expect(lines.filter((l) => l['code'] === 'RATE_LIMITED')).toHaveLength(PROCESSES * CALLS - LIMIT);
  }, 120_000);
});
