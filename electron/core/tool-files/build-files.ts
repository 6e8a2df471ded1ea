/**
 * The files beside a container tool's tool.json (its Dockerfile, runner, data), read and written
 * by path for the app's editor. Rules:
 * - a path passes buildFilePathProblem() first (rules.ts);
 * - nothing is followed: every folder on the way is lstat-ed and must be a real folder; files are
 *   opened with O_NOFOLLOW; a link is reported, never read through or written through;
 * - writes are atomic (temp file, fsync, rename, fsync of the folder), under the bundle's lock, in
 *   a bundle that takes writes (not switched off, not in the Trash), never in a built-in;
 * - a folder is never created where the tool folder is gone (a tool deleted meanwhile stays deleted);
 * - sizes stay under BUILD_FILE_LIMITS, the build context's own caps.
 */
import { constants, promises as fsp } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { BuildFileContent, BuildFileEntry, BuildFileList } from '../../../shared/types.js';
import { formatBytes } from '../../../shared/format.js';
import { CoreError, invalid, notFound } from '../errors.js';
import { fsyncDir, writeFileAtomic } from '../fs/atomic.js';
import type { Store } from '../store/store.js';
import type { ToolRecord } from '../store/loader.js';
import type { ToolRef } from '../store/tools.js';
import { foldKey } from '../archive/layout.js';
import { toolTypeModule, typesWith } from '../tool-types/registry.js';
import { BUILD_FILE_LIMITS, buildFilePathProblem, hiddenFromListing } from './rules.js';

export interface WriteInput {
  path: string;
  content: string;
  encoding?: 'utf8' | 'base64';
  executable?: boolean;
  ifSha256?: string;
  mustNotExist?: boolean;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const utf8 = new TextDecoder('utf-8', { fatal: true });

function errno(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException)?.code;
}

function checkPath(rel: string, field = 'path'): string {
  const problem = buildFilePathProblem(rel);
  if (problem) throw invalid([{ field, message: `'${rel}' ${problem}` }]);
  return rel;
}

/** Text when the bytes are valid UTF-8 without NUL, base64 otherwise. */
function encode(data: Buffer): { encoding: 'utf8' | 'base64'; content: string } {
  if (!data.includes(0)) {
    try {
      return { encoding: 'utf8', content: utf8.decode(data) };
    } catch {
      // not UTF-8: base64 below
    }
  }
  return { encoding: 'base64', content: data.toString('base64') };
}

export class BuildFilesService {
  constructor(
    private readonly store: Store,
    private readonly onChanged: (bundleID: string, toolID: string) => void,
  ) {}

  async list(ref: ToolRef): Promise<BuildFileList> {
    return this.listOf(await this.containerTool(ref));
  }

  private async listOf(rec: ToolRecord): Promise<BuildFileList> {
    const items: BuildFileEntry[] = [];
    const skipped: BuildFileList['skipped'] = [];
    let totalBytes = 0;
    const walk = async (rel: string, depth: number): Promise<void> => {
      let dirents;
      try {
        dirents = await fsp.readdir(rel ? join(rec.dir, rel) : rec.dir, { withFileTypes: true });
      } catch (e) {
        if (errno(e) === 'ENOENT' && !rel) return; // a tool folder not there yet holds nothing
        throw e;
      }
      for (const d of dirents) {
        const path = rel ? `${rel}/${d.name}` : d.name;
        if (hiddenFromListing(path)) continue;
        if (items.length + skipped.length >= BUILD_FILE_LIMITS.maxEntries) return;
        if (d.isSymbolicLink()) skipped.push({ path, reason: 'symbolic link: never followed, and left out of the build' });
        else if (d.isDirectory()) {
          if (depth >= BUILD_FILE_LIMITS.maxDepth) skipped.push({ path, reason: `folder nested deeper than ${BUILD_FILE_LIMITS.maxDepth}` });
          else await walk(path, depth + 1);
        } else if (d.isFile()) {
          const st = await fsp.lstat(join(rec.dir, path));
          totalBytes += st.size;
          items.push({ path, size: st.size, executable: (st.mode & 0o111) !== 0 });
        } else skipped.push({ path, reason: 'not a regular file' });
      }
    };
    await walk('', 0);
    const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    return { items: items.sort(byPath), skipped: skipped.sort(byPath), totalBytes, limits: { ...BUILD_FILE_LIMITS } };
  }

  async read(ref: ToolRef, rel: string): Promise<BuildFileContent> {
    const rec = await this.containerTool(ref);
    checkPath(rel);
    await this.realFolders(rec, rel, false);
    const data = await this.readRegular(join(rec.dir, rel), rel);
    if (!data) throw notFound(`build file '${rel}'`);
    return { path: rel, size: data.bytes.length, executable: data.executable, sha256: sha256(data.bytes), ...encode(data.bytes) };
  }

  async write(ref: ToolRef, input: WriteInput): Promise<BuildFileContent> {
    const rel = checkPath(input.path);
    const bytes = Buffer.from(input.content, input.encoding === 'base64' ? 'base64' : 'utf8');
    if (input.encoding === 'base64' && bytes.toString('base64').replace(/=+$/, '') !== input.content.replace(/\s+/g, '').replace(/=+$/, '')) {
      throw invalid([{ field: 'content', message: 'is not valid base64' }]);
    }
    if (bytes.length > BUILD_FILE_LIMITS.maxFileBytes) {
      throw new CoreError(
        'PAYLOAD_TOO_LARGE',
        `'${rel}' would be ${formatBytes(bytes.length)}; one build file may hold at most ${formatBytes(BUILD_FILE_LIMITS.maxFileBytes)}`,
      );
    }
    const rec = await this.containerTool(ref);
    this.store.refuseBuiltin(ref.bundleID, 'cannot change the files of a built-in tool');
    return this.store.withBundleLock(ref.bundleID, async () => {
      await this.store.writableBundle(ref.bundleID, 'change its tools');
      await this.toolFolder(rec);
      const target = join(rec.dir, rel);
      await this.realFolders(rec, rel, false);
      const existing = await this.readRegular(target, rel);
      if (existing && input.mustNotExist) throw new CoreError('CONFLICT', `'${rel}' already exists; open it, or pick another name`, { path: rel });
      if (input.ifSha256 !== undefined && (!existing || sha256(existing.bytes) !== input.ifSha256)) {
        throw new CoreError(
          'MODIFIED_ELSEWHERE',
          existing
            ? `'${rel}' was changed elsewhere since you opened it; reload it (or copy your text first)`
            : `'${rel}' was deleted elsewhere since you opened it`,
          { path: rel },
        );
      }
      if (!existing) await this.checkRoom(rec, rel, bytes.length);
      else await this.checkRoom(rec, rel, bytes.length - existing.bytes.length);
      await this.realFolders(rec, rel, true);
      // Unless told: a script (#!) is executable, and a file that was stays so.
      const executable = input.executable ?? (existing?.executable === true || bytes.subarray(0, 2).toString('latin1') === '#!');
      await writeFileAtomic(target, bytes, { mode: executable ? 0o755 : 0o644 });
      // The mode of a replaced file is the temp file's, already right; chmod covers a umask that masked the x bits.
      await fsp.chmod(target, executable ? 0o755 : 0o644);
      this.onChanged(ref.bundleID, rec.file.toolID);
      return { path: rel, size: bytes.length, executable, sha256: sha256(bytes), ...encode(bytes) };
    });
  }

  async rename(ref: ToolRef, from: string, to: string): Promise<{ from: string; to: string }> {
    checkPath(from, 'from');
    checkPath(to, 'to');
    const rec = await this.containerTool(ref);
    this.store.refuseBuiltin(ref.bundleID, 'cannot change the files of a built-in tool');
    return this.store.withBundleLock(ref.bundleID, async () => {
      await this.store.writableBundle(ref.bundleID, 'change its tools');
      await this.toolFolder(rec);
      await this.realFolders(rec, from, false);
      const source = await fsp.lstat(join(rec.dir, from)).catch(() => undefined);
      if (!source?.isFile()) throw notFound(`build file '${from}'`);
      if (from === to) return { from, to };
      await this.realFolders(rec, to, false);
      const target = await fsp.lstat(join(rec.dir, to)).catch(() => undefined);
      // A change of letter case only (run.SH → run.sh) is the same file on macOS and Windows: allowed.
      if (target && foldKey(from) !== foldKey(to))
        throw new CoreError('CONFLICT', `'${to}' already exists; delete it first or pick another name`, { path: to });
      await this.checkRoom(rec, to, 0, from);
      await this.realFolders(rec, to, true);
      await fsp.rename(join(rec.dir, from), join(rec.dir, to));
      await fsyncDir(dirname(join(rec.dir, to)));
      await this.removeEmptyFolders(rec, from);
      this.onChanged(ref.bundleID, rec.file.toolID);
      return { from, to };
    });
  }

  async delete(ref: ToolRef, rel: string): Promise<{ deleted: true }> {
    checkPath(rel);
    const rec = await this.containerTool(ref);
    this.store.refuseBuiltin(ref.bundleID, 'cannot change the files of a built-in tool');
    return this.store.withBundleLock(ref.bundleID, async () => {
      await this.store.writableBundle(ref.bundleID, 'change its tools');
      await this.realFolders(rec, rel, false);
      const target = join(rec.dir, rel);
      const st = await fsp.lstat(target).catch(() => undefined);
      // A link is removed itself (unlink never follows); a folder is not a file.
      if (!st || st.isDirectory()) throw notFound(`build file '${rel}'`);
      await fsp.unlink(target);
      await this.removeEmptyFolders(rec, rel);
      this.onChanged(ref.bundleID, rec.file.toolID);
      return { deleted: true as const };
    });
  }

  // ---- helpers --------------------------------------------------------------------------------

  private async containerTool(ref: ToolRef): Promise<ToolRecord> {
    const rec = await this.store.tool(ref.bundleID, ref.slug, ref.version);
    if (!toolTypeModule(rec.file.type).buildFiles) {
      const only = typesWith((m) => m.buildFiles).join(' and ');
      throw invalid([{ field: 'type', message: `'${rec.file.slug}' is a ${rec.file.type} tool; only ${only} tools keep build files beside tool.json` }]);
    }
    return rec;
  }

  /** The tool folder must be there and be a real folder: it is never created (or re-created) here. */
  private async toolFolder(rec: ToolRecord): Promise<void> {
    const st = await fsp.lstat(rec.dir).catch(() => undefined);
    if (!st) throw notFound(`the folder of tool <${rec.file.slug},${rec.file.version}>`);
    if (!st.isDirectory())
      throw invalid([{ field: 'path', message: 'the tool folder is a symbolic link or a file; Toolwright does not follow links in the data folder' }]);
  }

  /**
   * Checks every folder on the way to `rel` is a real folder (no link), creating missing ones
   * when `create` (one at a time: a removed tool folder is never re-created by a recursive mkdir).
   */
  private async realFolders(rec: ToolRecord, rel: string, create: boolean): Promise<void> {
    const segments = rel.split('/').slice(0, -1);
    let at = rec.dir;
    for (let i = 0; i < segments.length; i++) {
      at = join(at, segments[i]!);
      const shown = segments.slice(0, i + 1).join('/');
      const st = await fsp.lstat(at).catch((e: unknown) => {
        if (errno(e) === 'ENOENT' || errno(e) === 'ENOTDIR') return undefined;
        throw e;
      });
      if (st?.isSymbolicLink()) {
        throw invalid([
          { field: 'path', message: `'${shown}' is a symbolic link; Toolwright never follows links in a tool folder (replace it with a real folder)` },
        ]);
      }
      if (st && !st.isDirectory()) throw invalid([{ field: 'path', message: `'${shown}' is a file, so it cannot hold '${rel}'` }]);
      if (!st) {
        if (!create) return;
        await fsp.mkdir(at).catch((e: unknown) => {
          if (errno(e) !== 'EEXIST') throw e;
        });
      }
    }
  }

  /** A regular file's bytes, or undefined when there is none; links and special files are refused, never opened through. */
  private async readRegular(abs: string, rel: string): Promise<{ bytes: Buffer; executable: boolean } | undefined> {
    let handle;
    try {
      handle = await fsp.open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (e) {
      const code = errno(e);
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      if (code === 'ELOOP')
        throw invalid([{ field: 'path', message: `'${rel}' is a symbolic link; Toolwright never reads or writes through links in a tool folder` }]);
      if (code === 'EISDIR') throw invalid([{ field: 'path', message: `'${rel}' is a folder, not a file` }]);
      throw e;
    }
    try {
      const st = await handle.stat();
      if (st.isDirectory()) throw invalid([{ field: 'path', message: `'${rel}' is a folder, not a file` }]);
      if (!st.isFile()) throw invalid([{ field: 'path', message: `'${rel}' is not a regular file` }]);
      if (st.size > BUILD_FILE_LIMITS.maxFileBytes) {
        throw new CoreError(
          'PAYLOAD_TOO_LARGE',
          `'${rel}' is ${formatBytes(st.size)}; files over ${formatBytes(BUILD_FILE_LIMITS.maxFileBytes)} are not opened here`,
        );
      }
      return { bytes: await handle.readFile(), executable: (st.mode & 0o111) !== 0 };
    } finally {
      await handle.close();
    }
  }

  /**
   * The folder stays within the build context's caps after adding `grow` bytes at `rel`, and
   * `rel` does not collide with another file up to letter case or Unicode form (the folder must
   * export and import, and build on macOS and Windows, as it does here).
   */
  private async checkRoom(rec: ToolRecord, rel: string, grow: number, renamedFrom?: string): Promise<void> {
    const listing = await this.listOf(rec);
    const key = foldKey(rel);
    for (const item of listing.items) {
      if (item.path === rel || item.path === renamedFrom) continue;
      if (foldKey(item.path) === key)
        throw new CoreError('CONFLICT', `'${rel}' collides with '${item.path}' (the same name up to letter case or Unicode form)`, { path: rel });
      if (item.path.startsWith(`${rel}/`)) throw invalid([{ field: 'path', message: `'${rel}' is a folder, not a file` }]);
    }
    const exists = listing.items.some((i) => i.path === rel);
    if (!exists && !renamedFrom && listing.items.length + listing.skipped.length + 1 > BUILD_FILE_LIMITS.maxEntries) {
      throw new CoreError('PAYLOAD_TOO_LARGE', `the tool folder already holds ${BUILD_FILE_LIMITS.maxEntries} files, as many as a build takes`);
    }
    if (listing.totalBytes + grow > BUILD_FILE_LIMITS.maxFolderBytes) {
      throw new CoreError(
        'PAYLOAD_TOO_LARGE',
        `the tool folder would hold ${formatBytes(listing.totalBytes + grow)}; a build context may hold at most ${formatBytes(BUILD_FILE_LIMITS.maxFolderBytes)}`,
      );
    }
  }

  /** Folders a rename or delete left empty go too, up to (never including) the tool folder. */
  private async removeEmptyFolders(rec: ToolRecord, rel: string): Promise<void> {
    let dir = dirname(rel);
    while (dir !== '.' && dir !== '') {
      try {
        await fsp.rmdir(join(rec.dir, dir));
      } catch {
        return; // not empty (or gone): stop
      }
      dir = dirname(dir);
    }
  }
}
