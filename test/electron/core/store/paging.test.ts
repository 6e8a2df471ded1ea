import { afterEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { expectCode, functionTool, openTestStore, type TestStore } from '../../../helpers/store.js';

let t: TestStore | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

describe('page tokens', () => {
  it('never repeat or skip an unchanged item while items are created and deleted between pages', async () => {
    t = await openTestStore();
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'p' });
    for (let i = 0; i < 25; i++) await t.tools.create({ bundleID, slug: `t${i}`, version: '1' }, functionTool());
    const initial = t.tools.list({ recommendedPageSize: 1000 }).items.map((x) => x.slug);
    const seen: string[] = [];
    const deleted = new Set<string>();
    let token: string | undefined;
    let page = 0;
    do {
      const res = t.tools.list({ recommendedPageSize: 4, ...(token ? { pageToken: token } : {}) });
      seen.push(...res.items.map((x) => x.slug));
      token = res.nextPageToken;
      // Between pages: delete one item not yet seen and one already seen, and create two new ones.
      const unseen = initial.filter((s) => !seen.includes(s) && !deleted.has(s));
      if (unseen.length > 2) {
        const victim = unseen[unseen.length - 1]!;
        await t.tools.delete({ bundleID, slug: victim, version: '1' });
        deleted.add(victim);
      }
      const old = seen.find((s) => initial.includes(s) && !deleted.has(s));
      if (old && page % 2 === 0) {
        await t.tools.delete({ bundleID, slug: old, version: '1' });
        deleted.add(old);
      }
      await t.tools.create({ bundleID, slug: `new${page}a`, version: '1' }, functionTool());
      await t.tools.create({ bundleID, slug: `new${page}b`, version: '1' }, functionTool());
      page++;
    } while (token && page < 100);
    expect(new Set(seen).size).toBe(seen.length); // nothing repeated
    const unchanged = initial.filter((s) => !deleted.has(s));
    for (const s of unchanged) expect(seen).toContain(s); // nothing unchanged skipped
    // Every page but the last was full, and the last page has no token.
    expect(token).toBeUndefined();
  });

  it('are opaque, refused when tampered with or used for another query, and absent on the last page', async () => {
    t = await openTestStore();
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'p' });
    for (let i = 0; i < 3; i++) await t.tools.create({ bundleID, slug: `t${i}`, version: '1' }, functionTool({ tags: ['x'] }));
    const first = t.tools.list({ recommendedPageSize: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.nextPageToken).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(first.nextPageToken).not.toContain(first.items[1]!.toolID);
    const last = t.tools.list({ recommendedPageSize: 2, pageToken: first.nextPageToken! });
    expect(last.items).toHaveLength(1);
    expect(last.nextPageToken).toBeUndefined();
    const e = await expectCode(
      Promise.resolve().then(() => t!.tools.list({ tags: ['x'], recommendedPageSize: 2, pageToken: first.nextPageToken! })),
      'INVALID_INPUT',
    );
    expect(e.message).toContain('different query');
    await expectCode(
      Promise.resolve().then(() => t!.tools.list({ pageToken: 'garbage!!' })),
      'INVALID_INPUT',
    );
    const bundlesPage = t.bundles.list({ pageSize: 1 });
    expect(bundlesPage.items).toHaveLength(1);
    expect(bundlesPage.nextPageToken).toBeUndefined();
  });
});
