/**
 * Claims make `<slug,version>` unique inside a bundle across processes, at O(1) per create.
 * A claim is a file named by a hash of the pair that holds the owning toolID. It is published
 * with link(), which refuses to replace an existing file, so even two processes that both got
 * past the lock (proper-lockfile's stale-takeover race) cannot both win.
 *
 * A create writes the tool into a hidden staging folder, publishes the claim (the commit
 * point), then renames the staging folder into place. A claim whose tool is still staged is
 * completed by whoever finds it; a claim whose tool is gone (or now has another pair) is stale.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import type { ToolFile } from '../../../shared/schemas.js';
import { fsyncDir, publishExclusive } from '../fs/atomic.js';
import type { DataPaths } from '../data-paths.js';

export type ClaimState = { kind: 'free' } | { kind: 'taken'; toolID: string } | { kind: 'stale'; toolID: string };

async function readText(path: string): Promise<string | undefined> {
  try {
    return await fsp.readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

async function readToolFile(path: string): Promise<ToolFile | undefined> {
  const text = await readText(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as ToolFile;
  } catch {
    return undefined;
  }
}

export class Claims {
  constructor(private readonly paths: DataPaths) {}

  async owner(bundleID: string, slug: string, version: string): Promise<string | undefined> {
    return (await readText(this.paths.claimFile(bundleID, slug, version)))?.trim() || undefined;
  }

  /** Finds the staging folder of a tool, if a create of it is in flight or was interrupted. */
  async stagingOf(bundleID: string, toolID: string): Promise<string | undefined> {
    const dir = this.paths.toolsDir(bundleID);
    const names = await fsp.readdir(dir).catch(() => [] as string[]);
    const name = names.find((n) => n.startsWith(`.staging-${toolID}`));
    return name ? join(dir, name) : undefined;
  }

  /** Moves a staged tool into place. Losing the race to another completer is success. */
  async completeStaged(bundleID: string, toolID: string, stagingDir: string): Promise<void> {
    const finalDir = this.paths.toolDir(bundleID, toolID);
    try {
      await fsp.rename(stagingDir, finalDir);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return; // completed by someone else
      if (code === 'ENOTEMPTY' || code === 'EEXIST') {
        await fsp.rm(stagingDir, { recursive: true, force: true });
        return;
      }
      throw e;
    }
    await fsyncDir(this.paths.toolsDir(bundleID));
  }

  /** Decides whether a pair is free; completes an interrupted create it finds on the way. */
  async inspect(bundleID: string, slug: string, version: string): Promise<ClaimState> {
    const toolID = await this.owner(bundleID, slug, version);
    if (!toolID) return { kind: 'free' };
    const file = await readToolFile(this.paths.toolFile(bundleID, toolID));
    if (file) return file.slug === slug && file.version === version ? { kind: 'taken', toolID } : { kind: 'stale', toolID };
    const staging = await this.stagingOf(bundleID, toolID);
    if (staging) {
      await this.completeStaged(bundleID, toolID, staging);
      return { kind: 'taken', toolID };
    }
    return { kind: 'stale', toolID };
  }

  /** Removes a claim only if it still names toolID (never someone else's newer claim). */
  async release(bundleID: string, slug: string, version: string, toolID: string): Promise<void> {
    const path = this.paths.claimFile(bundleID, slug, version);
    if ((await readText(path))?.trim() === toolID) await fsp.rm(path, { force: true });
  }

  /** Publishes a claim; false when the pair is already claimed. */
  async publish(bundleID: string, slug: string, version: string, toolID: string): Promise<boolean> {
    await fsp.mkdir(this.paths.claimsDir(bundleID), { recursive: true });
    return publishExclusive(this.paths.claimFile(bundleID, slug, version), toolID);
  }

  /** Start-up recovery: a staging folder whose claim names it is completed, else left to the sweeper. */
  async recoverStaged(bundleID: string, stagingName: string): Promise<boolean> {
    const toolID = stagingName.slice('.staging-'.length, '.staging-'.length + 36);
    const stagingDir = join(this.paths.toolsDir(bundleID), stagingName);
    const file = await readToolFile(join(stagingDir, 'tool.json'));
    if (!file || file.toolID !== toolID) return false;
    if ((await this.owner(bundleID, file.slug, file.version)) !== toolID) return false;
    await this.completeStaged(bundleID, toolID, stagingDir);
    return true;
  }
}
