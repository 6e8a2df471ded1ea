/**
 * Crash-safe file writes: write a temp file beside the target, fsync it, rename it over the
 * target, fsync the directory (where the OS allows). A process killed at any instant leaves
 * either the old or the new file, never a torn one. Temp files carry the writer's pid so a
 * later start can tell an abandoned one from one a live process is still writing.
 */
import { promises as fsp, constants as fsc } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

const TEMP_MARK = '.tmp-';

/** A temp path beside the target, or in tempDir (same file system, so rename stays atomic). */
export function tempPathFor(target: string, tempDir?: string): string {
  return join(tempDir ?? dirname(target), `.${basename(target)}${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`);
}

export function isTempName(name: string): boolean {
  return name.startsWith('.') && name.includes(TEMP_MARK);
}

/** The pid embedded in a temp name, if any. */
export function tempOwnerPid(name: string): number | undefined {
  const m = /\.tmp-(\d+)-[0-9a-f]+$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

export async function fsyncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return; // directories cannot be opened for fsync on Windows
  let fh: fsp.FileHandle | undefined;
  try {
    fh = await fsp.open(dir, fsc.O_RDONLY);
    await fh.sync();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM' && code !== 'EBADF') throw e;
  } finally {
    await fh?.close();
  }
}

export interface WriteOptions {
  mode?: number;
  /** Skip the directory fsync (the caller fsyncs the directory once for a batch). */
  skipDirSync?: boolean;
  /**
   * Where the temp file goes (default: beside the target). The store puts tool.json temps in
   * the bundle's tools/ folder so that start-up recovery finds them without reading every tool folder.
   */
  tempDir?: string;
}

/** Writes data to a temp file and fsyncs it; returns the temp path. */
export async function writeDurableTemp(target: string, data: string | Uint8Array, mode = 0o644, tempDir?: string): Promise<string> {
  const tmp = tempPathFor(target, tempDir);
  const fh = await fsp.open(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL, mode);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } catch (e) {
    await fh.close().catch(() => undefined);
    await fsp.rm(tmp, { force: true });
    throw e;
  }
  await fh.close();
  return tmp;
}

export async function writeFileAtomic(target: string, data: string | Uint8Array, opts: WriteOptions = {}): Promise<void> {
  const tmp = await writeDurableTemp(target, data, opts.mode, opts.tempDir);
  try {
    await fsp.rename(tmp, target);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw e;
  }
  if (!opts.skipDirSync) await fsyncDir(dirname(target));
}

/**
 * Replaces target whole (temp file, then rename) without fsync: for files that describe live
 * processes or the last minute only, where a crash may lose the write but never tear it.
 */
export async function writeFileWhole(target: string, text: string): Promise<void> {
  const tmp = tempPathFor(target);
  try {
    await fsp.writeFile(tmp, text, { flag: 'wx' });
    await fsp.rename(tmp, target);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw e;
  }
}

/**
 * Publishes data at target only if nothing is there yet: the temp file is hard-linked to the
 * target, and link() fails with EEXIST instead of replacing. Returns false when target exists.
 */
export async function publishExclusive(target: string, data: string | Uint8Array): Promise<boolean> {
  const tmp = await writeDurableTemp(target, data);
  try {
    await fsp.link(tmp, target);
    await fsyncDir(dirname(target));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    await fsp.rm(tmp, { force: true });
  }
}

function pidAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes temp files left by writers that died: the owner pid is gone, or the file is older
 * than maxAgeMs (a pid may have been reused). Returns the paths removed.
 */
export async function sweepStrayTemps(dir: string, maxAgeMs = 60_000, now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!isTempName(name)) continue;
    const path = join(dir, name);
    const pid = tempOwnerPid(name);
    let stale = pid === undefined || !pidAlive(pid);
    if (!stale) {
      const st = await fsp.stat(path).catch(() => undefined);
      stale = !!st && now - st.mtimeMs > maxAgeMs;
    }
    if (stale) {
      await fsp.rm(path, { force: true, recursive: true }).catch(() => undefined);
      removed.push(path);
    }
  }
  return removed;
}

export { pidAlive };
