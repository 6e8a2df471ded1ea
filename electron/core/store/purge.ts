/**
 * Deleting a bundle for good, from the Trash: its tools first (their metrics and history go with
 * them), then the folder, renamed out of sight before it is removed, as the reaper does. Only a
 * bundle that is in the Trash can be purged; the reaper still removes empty ones after two days.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CoreError } from '../errors.js';
import { fsyncDir } from '../fs/atomic.js';
import type { Store } from './store.js';
import type { ToolService } from './tools.js';

export async function purgeBundle(store: Store, tools: ToolService, bundleID: string): Promise<{ purged: true; toolCount: number }> {
  await store.freshBundle(bundleID);
  store.refuseBuiltin(bundleID, 'cannot delete a built-in bundle');
  const file = await store.readBundleFile(bundleID);
  if (!file?.softDeletedAt)
    throw new CoreError('CONFLICT', `bundle '${file?.slug ?? bundleID}' is not in the Trash; delete it first, then delete it for good from the Trash`);
  const ids = store.state.toolIDsOf(bundleID);
  for (const id of ids) {
    const rec = store.state.tools.get(id);
    if (rec) await tools.delete({ bundleID, slug: rec.file.slug, version: rec.file.version });
  }
  await store.withBundleLock(bundleID, async () => {
    const disk = await store.readBundleFile(bundleID).catch(() => undefined);
    if (!disk?.softDeletedAt) throw new CoreError('CONFLICT', 'the bundle was restored elsewhere meanwhile; nothing was removed');
    const before = await store.changes?.before(store.paths.bundleFile(bundleID));
    const grave = join(store.paths.bundlesDir, `.purged-${bundleID}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    await fsp.rename(store.paths.bundleDir(bundleID), grave);
    await fsyncDir(store.paths.bundlesDir);
    await fsp.rm(grave, { recursive: true, force: true });
    if (before) store.changes?.changed(store.paths.bundleFile(bundleID), before, undefined);
  });
  store.forgetBundle(bundleID);
  return { purged: true, toolCount: ids.length };
}
