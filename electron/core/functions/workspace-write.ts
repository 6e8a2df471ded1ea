/**
 * Writes inside config.workspaceRoot (file_write, file_edit, file_delete).
 *
 * Reads may follow a symbolic link that stays inside the workspace; writes follow none. The path
 * is walked one name at a time from the canonical root, each folder opened with O_NOFOLLOW |
 * O_DIRECTORY relative to the one before, so the folder a write lands in is held open and cannot
 * be swapped for a link by another process between the check and the write (a TOCTOU race):
 * - on Linux every later step (temp file, rename, unlink) names its target through that open
 *   folder (`/proc/self/fd/<fd>/<name>`, which is openat() for a runtime without it);
 * - elsewhere the folder's canonical path is checked again right before and after the change,
 *   which narrows the window to a few system calls (docs/limits.md).
 * The new content goes to a temp file created O_EXCL | O_NOFOLLOW beside the target and renamed
 * over it: a reader sees the old file or the new one. rename() never follows a link at the
 * target, and unlink()/rmdir() act on the name itself.
 */
import { promises as fsp, constants as fsc, existsSync, type Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { CoreError } from '../errors.js';
import { pathSegments, workspaceRootOf } from './workspace.js';

const NOFOLLOW = fsc.O_NOFOLLOW ?? 0;
const WRITE_FLAGS = fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | NOFOLLOW;
const DIR_FLAGS = fsc.O_RDONLY | (fsc.O_DIRECTORY ?? 0) | NOFOLLOW;
export const READ_FLAGS = fsc.O_RDONLY | NOFOLLOW | (fsc.O_NONBLOCK ?? 0);
/** Whether open folders can be named by descriptor (Linux's /proc). */
const BY_DESCRIPTOR = process.platform === 'linux' && existsSync('/proc/self/fd');

export interface WriteTarget {
  /** Canonical workspace root. */
  root: string;
  /** Canonical path of the folder the target lives in (for messages and the fallback checks). */
  parent: string;
  /** The target's name in that folder. */
  name: string;
  /** The caller's path, normalised ('/' separators). */
  display: string;
  /** The target as it was when resolved (lstat), or undefined when it does not exist. */
  existing: Stats | undefined;
  /** A path that names `entry` inside the held folder (through its descriptor on Linux). */
  at(entry: string): string;
  /** Closes the held folder; every write target must be released. */
  release(): Promise<void>;
}

function refused(display: string, why: string): CoreError {
  return new CoreError('FORBIDDEN', `path '${display}' is refused: ${why}`, { issues: [{ field: 'args.path', message: why }] });
}

const errno = (e: unknown) => (e as NodeJS.ErrnoException).code;

/**
 * Resolves a path for a write without following any symbolic link, holding its folder open.
 * Missing folders on the way are created when `createFolders`, otherwise NOT_FOUND.
 */
export async function resolveForWrite(
  configuredRoot: string | null,
  input: string,
  functionName: string,
  opts: { createFolders?: boolean } = {},
): Promise<WriteTarget> {
  const root = await workspaceRootOf(configuredRoot, functionName);
  const segments = pathSegments(input);
  const display = segments.join('/');
  if (segments.length === 0) throw refused('.', 'it is the workspace root itself; name a file inside it');
  let dir = await fsp.open(root, DIR_FLAGS);
  let dirPath = root;
  const named = (fh: fsp.FileHandle, real: string, entry: string) => (BY_DESCRIPTOR ? `/proc/self/fd/${fh.fd}/${entry}` : path.join(real, entry));
  try {
    for (let i = 0; i < segments.length - 1; i++) {
      const here = segments.slice(0, i + 1).join('/');
      const child = named(dir, dirPath, segments[i]!);
      let next: fsp.FileHandle | undefined;
      for (let attempt = 0; !next; attempt++) {
        try {
          next = await fsp.open(child, DIR_FLAGS);
        } catch (e) {
          const code = errno(e);
          if (code === 'ENOENT' && opts.createFolders && attempt < 2) {
            await fsp.mkdir(child).catch((m: unknown) => {
              if (errno(m) !== 'EEXIST') throw refused(display, `folder '${here}' cannot be created (${errno(m) ?? String(m)})`);
            });
            continue;
          }
          if (code === 'ENOENT') throw new CoreError('NOT_FOUND', `folder '${here}' was not found in the workspace`);
          if (code === 'ELOOP' || code === 'EMLINK') throw refused(display, `'${here}' is a symbolic link; file tools write only through real folders`);
          if (code === 'ENOTDIR') {
            const st = await fsp.lstat(child).catch(() => undefined);
            if (st?.isSymbolicLink()) throw refused(display, `'${here}' is a symbolic link; file tools write only through real folders`);
            throw new CoreError('INVALID_ARGS', `'${here}' is a file, not a folder`, { issues: [{ field: 'args.path', message: `'${here}' is a file` }] });
          }
          throw refused(display, `'${here}' cannot be opened (${code ?? String(e)})`);
        }
      }
      await dir.close();
      dir = next;
      dirPath = path.join(dirPath, segments[i]!);
    }
    const held = dir;
    const heldPath = dirPath;
    const name = segments[segments.length - 1]!;
    const at = (entry: string) => named(held, heldPath, entry);
    const existing = await fsp.lstat(at(name)).catch((e: unknown) => {
      if (errno(e) === 'ENOENT') return undefined;
      throw refused(display, `it cannot be read (${errno(e) ?? String(e)})`);
    });
    if (existing?.isSymbolicLink()) throw refused(display, 'it is a symbolic link; file tools never write through links');
    const target: WriteTarget = { root, parent: heldPath, name, display, existing, at, release: () => held.close().catch(() => undefined) };
    await checkParent(target);
    return target;
  } catch (e) {
    await dir.close().catch(() => undefined);
    throw e;
  }
}

/** Without descriptors: the folder still resolves to where it was checked (no folder on the way became a link). */
async function checkParent(target: WriteTarget): Promise<void> {
  if (BY_DESCRIPTOR) return;
  const real = await fsp.realpath(target.parent).catch(() => undefined);
  if (real !== target.parent || (target.parent !== target.root && !target.parent.startsWith(target.root + path.sep))) {
    throw refused(target.display, 'a folder on its way changed into a symbolic link while it was being written; nothing was written there');
  }
}

export function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** What the file must still be right before it is replaced (file_edit read it; file_write with overwrite: false wants none). */
export type Expectation = { kind: 'absent' } | { kind: 'unchanged'; stat: Stats } | { kind: 'any' };

function unchanged(before: Stats, now: Stats): boolean {
  return sameFile(before, now) && before.size === now.size && before.mtimeMs === now.mtimeMs;
}

/** Replaces (or creates) the target with `data`, atomically; keeps the mode of a file it replaces. */
export async function replaceFile(target: WriteTarget, data: Uint8Array, expect: Expectation): Promise<{ created: boolean }> {
  const mode = target.existing ? target.existing.mode & 0o7777 : 0o644;
  const tmpName = `.${target.name.slice(0, 100)}.tw-${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  await checkParent(target);
  const fh = await fsp.open(target.at(tmpName), WRITE_FLAGS, mode).catch((e: unknown) => {
    throw refused(target.display, `a temporary file cannot be created beside it (${errno(e) ?? String(e)})`);
  });
  let written: Stats;
  try {
    await fh.writeFile(data);
    await fh.sync();
    written = await fh.stat();
    await fh.close();
  } catch (e) {
    await fh.close().catch(() => undefined);
    await fsp.rm(target.at(tmpName), { force: true });
    throw e;
  }
  try {
    await checkParent(target);
    const now = await fsp.lstat(target.at(target.name)).catch(() => undefined);
    if (expect.kind === 'absent' && now) throw new CoreError('CONFLICT', `'${target.display}' already exists; pass overwrite: true to replace it`);
    if (expect.kind === 'unchanged' && (!now || !unchanged(expect.stat, now))) {
      throw new CoreError('CONFLICT', `'${target.display}' was changed by someone else while it was being edited; read it again and retry`);
    }
    if (now?.isSymbolicLink()) throw refused(target.display, 'it became a symbolic link while it was being written');
    if (now?.isDirectory()) throw new CoreError('INVALID_ARGS', `'${target.display}' is a folder`);
    await fsp.rename(target.at(tmpName), target.at(target.name));
  } catch (e) {
    await fsp.rm(target.at(tmpName), { force: true }).catch(() => undefined);
    throw e;
  }
  const landed = await fsp.lstat(target.at(target.name)).catch(() => undefined);
  if (!landed || !sameFile(landed, written)) {
    throw new CoreError('CONFLICT', `'${target.display}' was replaced by another process right after it was written; check its content`);
  }
  await checkParent(target);
  return { created: !target.existing };
}

/** Removes the target (a file, or a folder: empty unless `recursive`), never following a link. */
export async function removeEntry(target: WriteTarget, recursive: boolean): Promise<{ kind: 'file' | 'folder' }> {
  const st = target.existing;
  if (!st) throw new CoreError('NOT_FOUND', `'${target.display}' was not found in the workspace`);
  await checkParent(target);
  const where = target.at(target.name);
  const now = await fsp.lstat(where).catch(() => undefined);
  if (!now || !sameFile(now, st)) throw new CoreError('CONFLICT', `'${target.display}' changed while it was being deleted; nothing was deleted`);
  if (st.isDirectory()) {
    if (recursive) await fsp.rm(where, { recursive: true, force: false });
    else {
      await fsp.rmdir(where).catch((e: unknown) => {
        if (errno(e) === 'ENOTEMPTY' || errno(e) === 'EEXIST') {
          throw new CoreError('CONFLICT', `folder '${target.display}' is not empty; pass recursive: true to delete it with everything in it`);
        }
        throw e;
      });
    }
    return { kind: 'folder' };
  }
  if (!st.isFile()) throw new CoreError('INVALID_ARGS', `'${target.display}' is not a regular file or folder (a device, pipe or socket); it is left alone`);
  await fsp.unlink(where);
  return { kind: 'file' };
}
