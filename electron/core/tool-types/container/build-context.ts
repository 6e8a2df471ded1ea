/**
 * The build context of a tool folder: what goes to `docker build`, and the hash that names the
 * image. Both come from the same bytes, read once, so the tag always matches what was built.
 *
 * Rules:
 * - only the tool folder; tool.json is left out (it changes with every edit of the metadata
 *   and must not trigger a rebuild);
 * - symbolic links and special files are left out, never followed: a link pointing outside the
 *   folder must not carry host files into an image. Files are opened with O_NOFOLLOW, so a
 *   file swapped for a link between listing and reading is refused too;
 * - modes are normalised to 0644/0755 and timestamps fixed, so the hash is stable across
 *   checkouts and copies.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
// tar-stream: the small, well-kept tar writer under tar-fs/dockerode; we need to write exactly the bytes we hashed.
import tar from 'tar-stream';
import { CoreError } from '../../errors.js';
import { isTempName } from '../../fs/atomic.js';
import { MAX_CONTEXT_BYTES, MAX_CONTEXT_ENTRIES } from './context-limits.js';

const CONTEXT_FORMAT = 'toolwright-build-context-v1';
const MAX_DEPTH = 32;
const FIXED_MTIME = new Date('2000-01-01T00:00:00Z');
const EXCLUDED_AT_ROOT = new Set(['tool.json']);

export interface ContextEntry {
  /** POSIX path relative to the tool folder. */
  path: string;
  type: 'file' | 'directory';
  mode: number;
  data?: Buffer;
}

export interface BuildContext {
  entries: ContextEntry[];
  /** sha256 hex of the normalised entries. */
  hash: string;
  totalBytes: number;
  /** Relative paths left out, with why (links, devices, unreadable files). */
  skipped: string[];
}

function tooBig(what: string): CoreError {
  return new CoreError(
    'TOOL_UNAVAILABLE',
    `The tool folder is too large to build (${what}); keep it under ${MAX_CONTEXT_BYTES / 1024 / 1024} MB and ${MAX_CONTEXT_ENTRIES} files.`,
  );
}

export async function readBuildContext(toolDir: string): Promise<BuildContext> {
  let root: string;
  try {
    root = await realpath(toolDir);
  } catch (error) {
    throw new CoreError('TOOL_UNAVAILABLE', `The tool folder ${toolDir} cannot be read: ${(error as Error).message}`);
  }
  const entries: ContextEntry[] = [];
  const skipped: string[] = [];
  let totalBytes = 0;

  async function walk(relDir: string, depth: number): Promise<void> {
    if (depth > MAX_DEPTH) throw tooBig(`folders nested deeper than ${MAX_DEPTH}`);
    const absDir = path.join(root, relDir);
    const dirents = await readdir(absDir, { withFileTypes: true });
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const dirent of dirents) {
      const rel = relDir ? `${relDir}/${dirent.name}` : dirent.name;
      if (!relDir && EXCLUDED_AT_ROOT.has(dirent.name)) continue;
      // A write in progress (or one a crash abandoned) is not part of the folder yet.
      if (isTempName(dirent.name)) continue;
      if (entries.length >= MAX_CONTEXT_ENTRIES) throw tooBig(`more than ${MAX_CONTEXT_ENTRIES} entries`);
      if (dirent.isSymbolicLink()) {
        skipped.push(`${rel} (symbolic link, not followed)`);
      } else if (dirent.isDirectory()) {
        entries.push({ path: rel, type: 'directory', mode: 0o755 });
        await walk(rel, depth + 1);
      } else if (dirent.isFile()) {
        const data = await readRegularFile(path.join(root, rel));
        if (!data) {
          skipped.push(`${rel} (not a regular file when opened)`);
          continue;
        }
        totalBytes += data.bytes.length;
        if (totalBytes > MAX_CONTEXT_BYTES) throw tooBig(`more than ${MAX_CONTEXT_BYTES / 1024 / 1024} MB`);
        entries.push({ path: rel, type: 'file', mode: data.executable ? 0o755 : 0o644, data: data.bytes });
      } else {
        skipped.push(`${rel} (special file)`);
      }
    }
  }

  try {
    await walk('', 0);
  } catch (error) {
    if (error instanceof CoreError) throw error;
    throw new CoreError('TOOL_UNAVAILABLE', `The tool folder ${toolDir} cannot be read: ${(error as Error).message}`);
  }
  return { entries, hash: hashEntries(entries), totalBytes, skipped };
}

async function readRegularFile(absPath: string): Promise<{ bytes: Buffer; executable: boolean } | null> {
  let handle;
  try {
    handle = await open(absPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return null;
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return null;
    if (stat.size > MAX_CONTEXT_BYTES) throw tooBig(`${path.basename(absPath)} alone is ${Math.round(stat.size / 1024 / 1024)} MB`);
    const bytes = await handle.readFile();
    return { bytes, executable: (stat.mode & 0o111) !== 0 };
  } finally {
    await handle.close();
  }
}

function hashEntries(entries: ContextEntry[]): string {
  const hash = createHash('sha256');
  hash.update(`${CONTEXT_FORMAT}\0`);
  for (const entry of entries) {
    const size = entry.data?.length ?? 0;
    hash.update(`${entry.type}\0${entry.path}\0${entry.mode.toString(8)}\0${size}\0`);
    if (entry.data) hash.update(entry.data);
  }
  return hash.digest('hex');
}

export function hasDockerfile(context: BuildContext): boolean {
  return context.entries.some((e) => e.type === 'file' && e.path === 'Dockerfile');
}

/** The context as a tar stream for the Docker build API. */
export function contextTar(context: BuildContext): Readable {
  const pack = tar.pack();
  for (const entry of context.entries) {
    const header = { name: entry.path, mode: entry.mode, mtime: FIXED_MTIME, uid: 0, gid: 0 };
    if (entry.type === 'directory') pack.entry({ ...header, type: 'directory' });
    else pack.entry({ ...header, type: 'file', size: entry.data?.length ?? 0 }, entry.data ?? Buffer.alloc(0));
  }
  pack.finalize();
  return pack as unknown as Readable;
}
