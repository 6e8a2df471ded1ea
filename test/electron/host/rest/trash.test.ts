/** Deleting a bundle for good from the Trash (POST /tools/bundles/{id}/purge). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';

let h: TestHost;
beforeAll(async () => {
  h = await startHost();
});
afterAll(async () => {
  await h.close();
});

describe('delete for good', () => {
  it('refuses a bundle that is not in the Trash, and removes one that is, with its tools', async () => {
    const bundleID = uuidv7();
    await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'doomed', displayName: 'Doomed' });
    for (const slug of ['a', 'b']) {
      const r = await h.api('PUT', `/tools/bundles/${bundleID}/tools/${slug}/version/v1`, {
        type: 'function',
        displayName: slug,
        impl: { function: 'core.uuid' },
        argSchema: { type: 'object' },
      });
      expect(r.status).toBe(201);
    }
    const early = await h.api('POST', `/tools/bundles/${bundleID}/purge`);
    expect(early.status).toBe(409);
    expect(early.body.error.message).toMatch(/not in the Trash/);
    expect(existsSync(join(h.dataDir, 'bundles', bundleID))).toBe(true);

    await h.api('DELETE', `/tools/bundles/${bundleID}`);
    const trashTools = await h.api('GET', `/tools/tools?bundleIDs=${bundleID}&includeDisabled=true`);
    expect(trashTools.body.items.map((t: { slug: string }) => t.slug).sort()).toEqual(['a', 'b']);
    const purged = await h.api('POST', `/tools/bundles/${bundleID}/purge`);
    expect(purged.status, JSON.stringify(purged.body)).toBe(200);
    expect(purged.body).toEqual({ purged: true, toolCount: 2 });
    expect(existsSync(join(h.dataDir, 'bundles', bundleID))).toBe(false);
    expect((await h.api('GET', `/tools/bundles/${bundleID}`)).status).toBe(404);
    expect((await h.api('GET', '/tools/bundles?deleted=only')).body.items).toEqual([]);
  });

  it('refuses the built-in bundle', async () => {
    const r = await h.api('POST', '/tools/bundles/0190a000-0000-7000-8000-00000000c0e0/purge');
    expect(r.status).toBe(403);
  });
});
