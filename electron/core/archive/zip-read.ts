/**
 * Reads an untrusted ZIP. yauzl: it reads the central directory (the spec's authority, not the
 * local headers a streaming reader trusts), refuses entries whose data is longer or shorter
 * than declared (validateEntrySizes) and never touches the disk; adm-zip is out (path
 * traversal, allocation and symlink CVEs). File names are decoded here (decodeStrings: false)
 * so that every refusal can say exactly what was wrong with which entry.
 *
 * Everything is checked from the central directory before a single byte is inflated: names,
 * layout, types, duplicates, counts, declared sizes and compression ratios. Reading then
 * enforces the same caps on the bytes that actually come out.
 */
import { Transform, type Readable } from 'node:stream';
// yauzl: see above; well kept, spec-conformant, used by electron-builder and many installers.
import yauzl from 'yauzl';
import { CoreError } from '../errors.js';
import { foldKey, pathProblem, placeOf, type Place } from './layout.js';
import { type TransferLimits } from './limits.js';
import { formatBytes } from '../../../shared/format.js';

export interface ArchiveEntry {
  name: string;
  place: Exclude<Place, { kind: 'error' } | { kind: 'dir' } | { kind: 'junk' }>;
  size: number;
  executable: boolean;
  raw: yauzl.Entry;
}

export interface ArchiveIndex {
  zip: yauzl.ZipFile;
  entries: ArchiveEntry[];
  ignored: string[];
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const HOST_UNIX = 3;
const HOST_OSX = 19;
const DOS_DIRECTORY = 0x10;
const DOS_REPARSE_POINT = 0x400;

function refuse(entry: string, reason: string, code: 'INVALID_INPUT' | 'PAYLOAD_TOO_LARGE' = 'INVALID_INPUT'): CoreError {
  return new CoreError(code, `The archive was refused: entry '${entry}' ${reason}.`, { entry, reason });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeName(e: yauzl.Entry): string | { error: string; shown: string } {
  const raw = e.fileName as unknown as Buffer;
  const shown = raw.toString('latin1').replace(/[^\x20-\x7e]/g, '?');
  const isUtf8Flag = (e.generalPurposeBitFlag & 0x800) !== 0;
  if (!isUtf8Flag && raw.every((b) => b < 0x80)) return raw.toString('ascii');
  try {
    return utf8.decode(raw);
  } catch {
    if (isUtf8Flag) return { error: 'has a name that is not valid UTF-8 although the archive says it is', shown };
    // Old archivers write CP437 without saying so; yauzl knows that table.
    return yauzl.getFileNameLowLevel(e.generalPurposeBitFlag, raw, [], true);
  }
}

/** The file type bits, when the archiver recorded Unix modes. */
function unixMode(e: yauzl.Entry): number | undefined {
  const host = e.versionMadeBy >> 8;
  const mode = (e.externalFileAttributes >>> 16) & 0xffff;
  if (host === HOST_UNIX || host === HOST_OSX) return mode;
  return mode !== 0 ? mode : undefined;
}

function openZip(buffer: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true, decodeStrings: false }, (err, zip) => {
      if (err || !zip) reject(new CoreError('INVALID_INPUT', `The file is not a readable ZIP archive: ${err?.message ?? 'unknown error'}.`));
      else resolve(zip);
    });
  });
}

function readAllEntries(zip: yauzl.ZipFile, max: number): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const out: yauzl.Entry[] = [];
    zip.on('entry', (e: yauzl.Entry) => {
      out.push(e);
      if (out.length > max) {
        zip.close();
        reject(new CoreError('PAYLOAD_TOO_LARGE', `The archive was refused: it holds more than ${max} entries.`));
        return;
      }
      zip.readEntry();
    });
    zip.once('end', () => resolve(out));
    zip.once('error', (err: Error) => reject(new CoreError('INVALID_INPUT', `The file is not a readable ZIP archive: ${err.message}.`)));
    zip.readEntry();
  });
}

/**
 * Opens an archive and checks its whole directory. Throws a CoreError naming the first bad entry.
 * `place` maps entries onto a layout (by default, bundles/<bundleID>/…); other archives (.mcpb)
 * pass their own and keep every other check.
 */
export async function indexArchive(
  data: Uint8Array,
  limits: TransferLimits,
  place: (name: string, isDirectory: boolean) => Place = placeOf,
): Promise<ArchiveIndex> {
  if (data.byteLength > limits.maxArchiveBytes) {
    throw new CoreError('PAYLOAD_TOO_LARGE', `The archive is ${formatBytes(data.byteLength)}; at most ${formatBytes(limits.maxArchiveBytes)} can be imported.`);
  }
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const zip = await openZip(buffer);
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new CoreError('PAYLOAD_TOO_LARGE', `The archive was refused: it holds ${zip.entryCount} entries; at most ${limits.maxEntries} are allowed.`);
    }
    const raws = await readAllEntries(zip, limits.maxEntries);
    const entries: ArchiveEntry[] = [];
    const ignored: string[] = [];
    // Keys are folded names (case and Unicode form), as macOS and Windows compare them.
    const files = new Map<string, string>();
    const explicitDirs = new Map<string, string>();
    const dirs = new Map<string, string>(); // every folder any entry implies → that entry
    const offsets = new Map<number, string>();
    const perTool = new Map<string, { bytes: number; count: number }>();
    let total = 0;

    for (const raw of raws) {
      const decoded = decodeName(raw);
      if (typeof decoded !== 'string') throw refuse(decoded.shown, decoded.error);
      const name = decoded;
      const problem = pathProblem(name);
      if (problem) throw refuse(name, problem);

      const mode = unixMode(raw);
      const type = mode === undefined ? undefined : mode & S_IFMT;
      if (type === S_IFLNK) throw refuse(name, 'is a symbolic link; links are refused because they could point outside the data folder');
      if ((raw.externalFileAttributes & DOS_REPARSE_POINT) !== 0) throw refuse(name, 'is a Windows reparse point (a link); links are refused');
      const isDirectory = name.endsWith('/') || type === S_IFDIR || (type === undefined && (raw.externalFileAttributes & DOS_DIRECTORY) !== 0);
      if (type !== undefined && type !== 0 && type !== S_IFREG && type !== S_IFDIR)
        throw refuse(name, 'is a device, FIFO or socket; only regular files are allowed');
      if (isDirectory && raw.uncompressedSize !== 0) throw refuse(name, 'is a folder that claims to hold data');
      if ((raw.generalPurposeBitFlag & 0x1) !== 0) throw refuse(name, 'is encrypted; bundle archives are never encrypted');
      if (raw.compressionMethod !== 0 && raw.compressionMethod !== 8) {
        throw refuse(name, `uses compression method ${raw.compressionMethod}; only stored (0) and deflate (8) can be read`);
      }

      const key = foldKey(name);
      const sameName = isDirectory ? explicitDirs.get(key) : files.get(key);
      if (sameName !== undefined) {
        throw refuse(
          name,
          sameName === name
            ? 'appears twice'
            : `differs from entry '${sameName}' only by letter case or Unicode form; macOS and Windows would store both as one file`,
        );
      }
      if (isDirectory) {
        const file = files.get(key);
        if (file !== undefined) throw refuse(name, `is a folder, but entry '${file}' is a file of the same name`);
        explicitDirs.set(key, name);
        if (!dirs.has(key)) dirs.set(key, name);
      } else {
        const dirUser = dirs.get(key);
        if (dirUser !== undefined) throw refuse(name, `is a file, but entry '${dirUser}' uses it as a folder`);
        files.set(key, name);
      }
      const parts = key.split('/');
      for (let i = 1; i < parts.length; i++) {
        const dir = parts.slice(0, i).join('/');
        const file = files.get(dir);
        if (file !== undefined) throw refuse(file, `is a file, but entry '${name}' uses it as a folder`);
        if (!dirs.has(dir)) dirs.set(dir, name);
      }

      const where = place(name, isDirectory);
      if (where.kind === 'error') throw refuse(name, where.reason);
      if (where.kind === 'junk') {
        ignored.push(name);
        continue;
      }
      if (where.kind === 'dir') continue;

      const other = offsets.get(raw.relativeOffsetOfLocalHeader);
      if (other !== undefined) throw refuse(name, `shares its data with entry '${other}' (overlapping entries are a zip-bomb technique)`);
      offsets.set(raw.relativeOffsetOfLocalHeader, name);

      const size = raw.uncompressedSize;
      const cap = where.kind === 'file' ? limits.maxFileBytes : limits.maxJsonBytes;
      if (size > cap) throw refuse(name, `declares ${formatBytes(size)}; at most ${formatBytes(cap)} are allowed for it`, 'PAYLOAD_TOO_LARGE');
      if (size > limits.ratioFloorBytes && size > raw.compressedSize * limits.maxRatio) {
        const ratio = raw.compressedSize === 0 ? '∞' : Math.round(size / raw.compressedSize);
        throw refuse(name, `expands ${ratio}:1 when decompressed, beyond the ${limits.maxRatio}:1 that marks a zip bomb`, 'PAYLOAD_TOO_LARGE');
      }
      total += size;
      if (total > limits.maxTotalBytes) {
        throw new CoreError(
          'PAYLOAD_TOO_LARGE',
          `The archive was refused: its files add up to more than ${formatBytes(limits.maxTotalBytes)} once decompressed (at entry '${name}').`,
          { entry: name },
        );
      }
      if (where.kind === 'file') {
        if (where.depth > limits.maxDepth) throw refuse(name, `is nested more than ${limits.maxDepth} folders deep`);
        const k = `${where.bundleID}/${where.toolID}`;
        const t = perTool.get(k) ?? { bytes: 0, count: 0 };
        t.bytes += size;
        t.count += 1;
        perTool.set(k, t);
        if (t.count > limits.maxToolFolderEntries)
          throw refuse(name, `makes its tool folder hold more than ${limits.maxToolFolderEntries} files`, 'PAYLOAD_TOO_LARGE');
        if (t.bytes > limits.maxToolFolderBytes)
          throw refuse(name, `makes its tool folder larger than ${formatBytes(limits.maxToolFolderBytes)}`, 'PAYLOAD_TOO_LARGE');
      }
      const executable = mode !== undefined && (mode & 0o111) !== 0;
      entries.push({ name, place: where, size, executable, raw });
    }
    return { zip, entries, ignored };
  } catch (e) {
    zip.close();
    throw e;
  }
}

/** The entry's bytes as a stream that fails (naming the entry) past `cap` or on a size lie. */
export async function openEntry(index: ArchiveIndex, entry: ArchiveEntry, cap: number): Promise<Readable> {
  let stream: Readable;
  try {
    stream = await index.zip.openReadStreamPromise(entry.raw);
  } catch (e) {
    throw refuse(entry.name, `cannot be read: ${(e as Error).message}`);
  }
  let seen = 0;
  const liar = () =>
    refuse(entry.name, `holds more data than it declares (${formatBytes(entry.size)}); the archive is corrupt or crafted`, 'PAYLOAD_TOO_LARGE');
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > cap || seen > entry.size) done(liar());
      else done(null, chunk);
    },
  });
  stream.once('error', (err: Error) => {
    // yauzl (validateEntrySizes) notices a size lie first when its inflater runs ahead of us.
    if (/too many bytes/.test(err.message)) counter.destroy(liar());
    else if (/too few bytes/.test(err.message))
      counter.destroy(refuse(entry.name, `holds less data than it declares (${formatBytes(entry.size)}); the archive is corrupt or crafted`));
    else counter.destroy(refuse(entry.name, `cannot be decompressed: ${err.message}`));
  });
  counter.once('error', () => {
    stream.unpipe(counter);
    stream.destroy();
  });
  return stream.pipe(counter);
}

export async function readEntryBytes(index: ArchiveIndex, entry: ArchiveEntry, cap: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await openEntry(index, entry, cap)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
