import { afterEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { resolveToolRef } from '../../../electron/cli/tool-ref.js';
import { functionTool, openTestStore, type TestStore } from '../../helpers/store.js';

let t: TestStore | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

describe('a tool ref without @version', () => {
  it('names the most recently created version: labels are opaque, never ordered (v9 created after v10 wins)', async () => {
    let now = Date.parse('2026-03-01T00:00:00.000Z');
    t = await openTestStore({ clock: () => new Date((now += 60_000)) });
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'b' });
    await t.tools.create({ bundleID, slug: 'calc', version: 'v10' }, functionTool());
    await t.tools.create({ bundleID, slug: 'calc', version: 'v9' }, functionTool());
    await t.tools.create({ bundleID, slug: 'calc', version: 'beta' }, functionTool({ isEnabled: false }));
    expect(resolveToolRef(t.store.reader, 'b/calc').file.version).toBe('v9');
    expect(resolveToolRef(t.store.reader, 'calc@v10').file.version).toBe('v10');
    // Switched off: the newest enabled one still wins; with none enabled, the newest of all.
    await t.tools.setEnabled({ bundleID, slug: 'calc', version: 'v9' }, false);
    await t.tools.setEnabled({ bundleID, slug: 'calc', version: 'v10' }, false);
    expect(resolveToolRef(t.store.reader, 'calc').file.version).toBe('beta');
    await t.tools.setEnabled({ bundleID, slug: 'calc', version: 'v10' }, true);
    expect(resolveToolRef(t.store.reader, 'calc').file.version).toBe('v10');
  });
});
