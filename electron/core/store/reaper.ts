/**
 * The reaper: a soft-deleted bundle's folder is removed once two days have passed and it holds
 * no tools. Runs at start and periodically (app-core), with the store's injectable clock.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { BundleFile } from '../../../shared/schemas.js';
import { fsyncDir } from '../fs/atomic.js';
import type { DataPaths } from '../data-paths.js';
import type { Logger } from '../log.js';
import type { StoreReader } from './reader.js';

export const REAP_AFTER_MS = 2 * 24 * 60 * 60 * 1000;

const oldEnough = (softDeletedAt: string | null | undefined, now: Date) => !!softDeletedAt && now.getTime() - Date.parse(softDeletedAt) >= REAP_AFTER_MS;

/** What the reaper needs of the store (the Store is one; naming it here keeps store.ts and this module apart). */
export interface ReapableStore {
  readonly paths: DataPaths;
  readonly reader: StoreReader;
  readonly log: Logger | undefined;
  withBundleLock<T>(bundleID: string, fn: () => Promise<T>): Promise<T>;
  readBundleFile(bundleID: string): Promise<BundleFile | undefined>;
  forgetBundle(bundleID: string): void;
}

export async function reapDeletedBundles(store: ReapableStore, now: Date): Promise<string[]> {
  const { paths } = store;
  const reaped: string[] = [];
  for (const rec of [...store.reader.bundles()]) {
    if (rec.builtin || !oldEnough(rec.file.softDeletedAt, now)) continue;
    const id = rec.file.bundleID;
    const removed = await store
      .withBundleLock(id, async () => {
        // Decide again under the lock, from disk: another process may have restored it or added a tool.
        const disk = await store.readBundleFile(id).catch(() => undefined);
        if (!oldEnough(disk?.softDeletedAt, now)) return false;
        const names = await fsp.readdir(paths.toolsDir(id)).catch(() => [] as string[]);
        if (names.some((n) => !n.startsWith('.'))) return false;
        // Rename first so no reader ever sees a half-removed bundle, then remove at leisure.
        const grave = join(paths.bundlesDir, `.reaped-${id}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
        await fsp.rename(paths.bundleDir(id), grave);
        await fsyncDir(paths.bundlesDir);
        await fsp.rm(grave, { recursive: true, force: true });
        return true;
      })
      .catch((e: unknown) => {
        store.log?.error(`reaping bundle ${id}`, e);
        return false;
      });
    if (removed) {
      store.forgetBundle(id);
      reaped.push(id);
    }
  }
  return reaped;
}
