/**
 * All-or-nothing imports. Everything is written into a stage inside the data folder (same file
 * system, so the final moves are renames), then moved into bundles/ under a small journal:
 *
 *   <data>/.staging/<pid>-<random>/
 *     new/<bundleID>/{bundle.json, tools/, .claims/}   complete bundle folders, claims included
 *     old/<bundleID>/{bundle.json, tools/, .claims/}   what a replace moved out of the way
 *     plan.json                                       written before the first move
 *     committed                                       written after the last move: the commit point
 *
 * A new bundle moves in with one rename of its folder. A replaced bundle keeps its folder (and
 * the .lock inside it, which other writers hold while they work) and swaps its contents under
 * that lock. Each step is a single rename whose effect can be read back from the disk, so undo
 * never needs more than the plan: an entry missing from new/ is in bundles/ and goes back, an
 * entry in old/ returns. A process killed at any instant therefore leaves either the old store
 * (undone by recover() at the next start) or the whole import (committed; only the stage is
 * left to delete). Stages of live processes are recognised by pid and a heartbeat, and left be.
 */
import { promises as fsp } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { BUNDLE_KEY_ORDER, TOOL_KEY_ORDER, type ToolFile } from '../../../shared/schemas.js';
import { canonicalJson } from '../../../shared/canonical.js';
import { CoreError } from '../errors.js';
import { fsyncDir, pidAlive, writeFileAtomic } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import { pool } from '../store/loader.js';
import type { DataPaths } from '../data-paths.js';
import type { BundleDraft, FileSource, ToolDraft } from './validate.js';

export interface PlanEntry {
  bundleID: string;
  /** create: the folder moves in whole; swap: its contents replace those of an existing folder. */
  mode: 'create' | 'swap';
}

const PLAN = 'plan.json';
const COMMITTED = 'committed';
/** Moved out first, so a reader never sees a bundle.json over tools of the other side. */
const OUT_ORDER = ['bundle.json', 'tools', '.claims'] as const;
const IN_ORDER = ['.claims', 'tools', 'bundle.json'] as const;
const HEARTBEAT_MS = 5_000;
const ABANDONED_AFTER_MS = 60_000;

/** Stages this process is working in (never recovered from under it). */
const activeStages = new Set<string>();

async function exists(path: string): Promise<boolean> {
  try {
    await fsp.lstat(path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

async function renameIfPresent(from: string, to: string): Promise<void> {
  try {
    await fsp.rename(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/** Writes a file that must survive a power cut once the directory holding it is fsynced. */
export async function writeDurable(path: string, data: string | Uint8Array | Readable, mode: number): Promise<void> {
  const fh = await fsp.open(path, 'wx', mode);
  try {
    if (typeof data === 'string' || data instanceof Uint8Array) await fh.writeFile(data);
    else for await (const chunk of data) await fh.write(chunk as Buffer);
    await fh.chmod(mode); // the archive decides, not the umask: round trips stay byte-identical
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Fills an empty tool folder: tool.json and the files beside it (subfolders made as needed), every
 * folder fsynced, so the tool is durable before whatever publishes it.
 */
export async function writeToolFolder(dir: string, file: ToolFile, files: readonly FileSource[]): Promise<void> {
  const made = new Set<string>([dir]);
  await writeDurable(join(dir, 'tool.json'), canonicalJson(file as unknown as Record<string, unknown>, TOOL_KEY_ORDER), 0o644);
  for (const f of files) {
    const parts = f.rel.split('/');
    let parent = dir;
    for (const p of parts.slice(0, -1)) {
      parent = join(parent, p);
      if (!made.has(parent)) {
        await fsp.mkdir(parent);
        made.add(parent);
      }
    }
    await writeDurable(join(parent, parts[parts.length - 1]!), await f.open(), f.executable ? 0o755 : 0o644);
  }
  for (const d of made) await fsyncDir(d);
}

function withLocks<T>(lockPaths: string[], fn: () => Promise<T>): Promise<T> {
  return lockPaths.reduceRight<() => Promise<T>>((inner, p) => () => withLock(p, inner), fn)();
}

export class ImportStage {
  private heartbeat: NodeJS.Timeout | undefined;

  private constructor(
    private readonly paths: DataPaths,
    readonly name: string,
  ) {}

  get dir(): string {
    return join(this.paths.stagingDir, this.name);
  }

  static async begin(paths: DataPaths): Promise<ImportStage> {
    const stage = new ImportStage(paths, `${process.pid}-${randomBytes(6).toString('hex')}`);
    activeStages.add(stage.name);
    await fsp.mkdir(join(stage.dir, 'new'), { recursive: true });
    await fsp.mkdir(join(stage.dir, 'old'), { recursive: true });
    stage.heartbeat = setInterval(() => {
      const now = new Date();
      void fsp.utimes(stage.dir, now, now).catch(() => undefined);
    }, HEARTBEAT_MS);
    stage.heartbeat.unref();
    return stage;
  }

  private newDir(bundleID: string): string {
    return join(this.dir, 'new', bundleID);
  }

  /** Writes one complete bundle folder (claims included) into the stage. */
  async writeBundle(draft: BundleDraft, onTool?: () => void): Promise<void> {
    const root = this.newDir(draft.file.bundleID);
    await fsp.mkdir(join(root, 'tools'), { recursive: true });
    await fsp.mkdir(join(root, '.claims'));
    await pool(draft.tools, 16, async (tool) => {
      await this.writeTool(root, tool);
      onTool?.();
    });
    await writeDurable(join(root, 'bundle.json'), canonicalJson(draft.file as unknown as Record<string, unknown>, BUNDLE_KEY_ORDER), 0o644);
    await Promise.all([fsyncDir(join(root, 'tools')), fsyncDir(join(root, '.claims'))]);
    await fsyncDir(root);
  }

  private async writeTool(root: string, tool: ToolDraft): Promise<void> {
    const { file } = tool;
    const dir = join(root, 'tools', file.toolID);
    await fsp.mkdir(dir);
    await writeToolFolder(dir, file, tool.files);
    // The claim the store would have published for this pair: the folder is consistent the moment it lands.
    const claimName = this.paths.claimFile(file.bundleID, file.slug, file.version).split(/[\\/]/).pop()!;
    await writeDurable(join(root, '.claims', claimName), file.toolID, 0o644);
  }

  /**
   * Moves the staged bundles into place. Replaced bundles are swapped under their locks; on any
   * failure every move already made is undone before the error is rethrown.
   */
  async commit(plan: PlanEntry[]): Promise<void> {
    await this.writePlan(plan);
    const locks = plan
      .filter((p) => p.mode === 'swap')
      .map((p) => p.bundleID)
      .sort()
      .map((id) => this.paths.bundleLock(id));
    await withLocks(locks, async () => {
      try {
        for await (const _step of this.moves(plan));
        await fsyncDir(this.paths.bundlesDir);
        await writeFileAtomic(join(this.dir, COMMITTED), '');
      } catch (e) {
        await undoMoves(this.paths, this.dir, plan).catch(() => undefined); // recover() finishes what this could not
        throw e;
      }
    });
  }

  /** The journal: from here on, recovery knows which bundles to put back. */
  async writePlan(plan: PlanEntry[]): Promise<void> {
    await writeFileAtomic(join(this.dir, PLAN), JSON.stringify({ bundles: plan }));
  }

  /** The renames of a commit, one per step (a generator so tests can stop half-way, as a crash would). */
  async *moves(plan: PlanEntry[]): AsyncGenerator<string> {
    for (const entry of plan) {
      const live = this.paths.bundleDir(entry.bundleID);
      const staged = this.newDir(entry.bundleID);
      if (entry.mode === 'create') {
        try {
          await fsp.rename(staged, live);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'EPERM') {
            throw new CoreError(
              'CONFLICT',
              `bundle ${entry.bundleID} was created by someone else while importing; import again and choose skip, replace or copy`,
            );
          }
          throw e;
        }
        yield `create ${entry.bundleID}`;
        continue;
      }
      const aside = join(this.dir, 'old', entry.bundleID);
      await fsp.mkdir(aside, { recursive: true });
      for (const e of OUT_ORDER) {
        await renameIfPresent(join(live, e), join(aside, e));
        yield `out ${entry.bundleID}/${e}`;
      }
      for (const e of IN_ORDER) {
        await fsp.rename(join(staged, e), join(live, e));
        yield `in ${entry.bundleID}/${e}`;
      }
      await fsyncDir(live);
    }
  }

  /** Forgets this stage as if its process had died (for tests of recovery). */
  abandon(): void {
    clearInterval(this.heartbeat);
    activeStages.delete(this.name);
  }

  /** Removes the stage (after a commit, or after an undone failure). */
  async dispose(): Promise<void> {
    clearInterval(this.heartbeat);
    try {
      await fsp.rm(this.dir, { recursive: true, force: true });
    } finally {
      activeStages.delete(this.name);
    }
    await fsp.rmdir(this.paths.stagingDir).catch(() => undefined);
  }
}

/** Undoes the moves of an uncommitted plan, reading from the disk what was already done. Idempotent. */
async function undoMoves(paths: DataPaths, stageDir: string, plan: PlanEntry[]): Promise<void> {
  for (const entry of [...plan].reverse()) {
    const live = paths.bundleDir(entry.bundleID);
    const staged = join(stageDir, 'new', entry.bundleID);
    if (entry.mode === 'create') {
      if (!(await exists(staged)) && (await exists(live))) await fsp.rename(live, staged);
      continue;
    }
    const aside = join(stageDir, 'old', entry.bundleID);
    for (const e of OUT_ORDER) {
      if (!(await exists(join(staged, e))) && (await exists(join(live, e)))) await fsp.rename(join(live, e), join(staged, e));
    }
    for (const e of IN_ORDER) {
      if ((await exists(join(aside, e))) && !(await exists(join(live, e)))) await fsp.rename(join(aside, e), join(live, e));
    }
  }
  await fsyncDir(paths.bundlesDir);
}

async function readPlan(stageDir: string): Promise<PlanEntry[] | undefined> {
  try {
    const value = JSON.parse(await fsp.readFile(join(stageDir, PLAN), 'utf8')) as { bundles?: PlanEntry[] };
    return Array.isArray(value.bundles) ? value.bundles.filter((p) => typeof p?.bundleID === 'string' && /^[0-9a-f-]{36}$/.test(p.bundleID)) : [];
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    // A torn plan cannot exist (it is written atomically); anything else is not ours to trust.
    return [];
  }
}

async function isAbandoned(stagingDir: string, name: string): Promise<boolean> {
  if (activeStages.has(name)) return false;
  const pid = Number(/^(\d+)-/.exec(name)?.[1]);
  if (!pid || pid === process.pid || !pidAlive(pid)) return true;
  const st = await fsp.stat(join(stagingDir, name)).catch(() => undefined);
  return !st || Date.now() - st.mtimeMs > ABANDONED_AFTER_MS;
}

/**
 * Finishes or undoes the stages of dead imports. Returns the bundle IDs whose folders were
 * touched, for the caller to re-read.
 */
export async function recoverStages(paths: DataPaths): Promise<string[]> {
  let names: string[];
  try {
    names = await fsp.readdir(paths.stagingDir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const touched = new Set<string>();
  for (const name of names) {
    if (!(await isAbandoned(paths.stagingDir, name))) continue;
    // Claim it by renaming, so two processes starting together never undo the same stage.
    const claimed = `${process.pid}-${randomBytes(6).toString('hex')}`;
    const dir = join(paths.stagingDir, claimed);
    try {
      await fsp.rename(join(paths.stagingDir, name), dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    activeStages.add(claimed);
    try {
      const st = await fsp.lstat(dir);
      if (st.isDirectory() && !(await exists(join(dir, COMMITTED)))) {
        const plan = await readPlan(dir);
        if (plan?.length) {
          await undoMoves(paths, dir, plan);
          for (const p of plan) touched.add(p.bundleID);
        }
      } else if (st.isDirectory()) {
        for (const p of (await readPlan(dir)) ?? []) touched.add(p.bundleID);
      }
      await fsp.rm(dir, { recursive: true, force: true });
    } finally {
      activeStages.delete(claimed);
    }
  }
  await fsp.rmdir(paths.stagingDir).catch(() => undefined);
  return [...touched];
}
