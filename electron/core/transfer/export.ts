/**
 * Deterministic, streaming export of bundles as a ZIP (layout in layout.ts).
 *
 * The same content always gives the same bytes: entries sorted by path, one fixed timestamp
 * (DOS fields only, built from local-time components, so the time zone of the machine does not
 * leak into the bytes), modes 0644/0755 only, canonical JSON. Files stream from disk lazily
 * (yazl asks for each entry only when the output has room), so a large bundle never sits in
 * memory whole, and progress follows the bytes actually written.
 *
 * What goes in: bundle.json, each tool.json (re-serialised from the validated record, with
 * isBuiltIn false: an exported bundle is a user bundle wherever it lands) and the files beside
 * each tool.json. What never goes in: secrets (tool.json only names them), metrics, history,
 * claims, locks, temp files, symbolic links.
 */
import { constants as fsc, promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
// yazl: streaming ZIP writer by the author of yauzl; lazy entries give backpressure end to end.
import yazl from 'yazl';
import { BUNDLE_KEY_ORDER, TOOL_KEY_ORDER } from '../../../shared/schemas.js';
import { canonicalJson } from '../../../shared/canonical.js';
import { isUuid } from '../../../shared/ids.js';
import { CoreError, invalid, notFound } from '../errors.js';
import { isTempName } from '../fs/atomic.js';
import type { Store } from '../store/store.js';
import { bundleJsonPath, pathProblem, toolFilePath, toolJsonPath, TOOL_JSON } from '../archive/layout.js';
import { type TransferLimits } from '../archive/limits.js';
import { formatBytes } from '../../../shared/format.js';
import { exportClosure, withBundleHints } from './pipeline-links.js';

/** 2000-01-01 00:00 in whatever zone runs this: the DOS date/time fields come out the same everywhere. */
const FIXED_MTIME = new Date(2000, 0, 1, 0, 0, 0);

export interface ExportEntry {
  path: string;
  executable: boolean;
  size: number;
  /** In-memory content (JSON), or a file on disk read when the entry is written. */
  data?: Buffer;
  source?: string;
}

export interface OpenedExport {
  stream: Readable;
  fileName: string;
  entryCount: number;
  /** Sum of the uncompressed sizes, for a progress bar by bytes. */
  totalBytes: number;
}

function json(value: unknown, order: readonly string[]): Buffer {
  return Buffer.from(canonicalJson(value as Record<string, unknown>, order), 'utf8');
}

/** The files beside tool.json, sorted, without links, temp files or special files. */
async function toolFolderFiles(dir: string, limits: TransferLimits): Promise<{ rel: string; abs: string; size: number; executable: boolean }[]> {
  const out: { rel: string; abs: string; size: number; executable: boolean }[] = [];
  let bytes = 0;
  const walk = async (relDir: string, depth: number): Promise<void> => {
    if (depth > limits.maxDepth) throw invalid([{ field: dir, message: `folders are nested deeper than ${limits.maxDepth}` }]);
    const names = (await fsp.readdir(join(dir, relDir), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of names) {
      const rel = relDir ? `${relDir}/${d.name}` : d.name;
      if (!relDir && d.name === TOOL_JSON) continue;
      if (isTempName(d.name) || d.isSymbolicLink()) continue;
      const problem = pathProblem(rel);
      if (problem) {
        throw new CoreError('INVALID_INPUT', `cannot export ${join(dir, rel)}: its path ${problem}; rename or remove it`, { path: join(dir, rel) });
      }
      if (d.isDirectory()) await walk(rel, depth + 1);
      else if (d.isFile()) {
        const st = await fsp.lstat(join(dir, rel));
        bytes += st.size;
        if (st.size > limits.maxFileBytes || bytes > limits.maxToolFolderBytes || out.length >= limits.maxToolFolderEntries) {
          throw new CoreError(
            'PAYLOAD_TOO_LARGE',
            `cannot export ${dir}: the tool folder is larger than an import accepts (${formatBytes(limits.maxToolFolderBytes)}, ${limits.maxToolFolderEntries} files)`,
          );
        }
        out.push({ rel, abs: join(dir, rel), size: st.size, executable: (st.mode & 0o111) !== 0 });
      }
    }
  };
  await walk('', 0);
  return out;
}

/** Everything an export of these bundles writes, in archive order. */
export async function collectExport(store: Store, bundleIDs: string[], limits: TransferLimits): Promise<{ entries: ExportEntry[]; fileName: string }> {
  const ids = [...new Set(bundleIDs.map((id) => id.toLowerCase()))];
  const bad = ids.filter((id) => !isUuid(id));
  if (bad.length) throw invalid(bad.map((id) => ({ field: 'bundleIDs', message: `'${id}' is not a bundle ID (a UUIDv7)` })));
  if (!ids.length) throw invalid([{ field: 'bundleIDs', message: 'name at least one bundle to export' }]);
  const entries: ExportEntry[] = [];
  const slugs: string[] = [];
  for (const id of ids) {
    // Bring memory up to what is on disk (another process may have written moments ago).
    if (!store.isBuiltinBundle(id)) await store.syncBundle(id);
    const rec = store.reader.bundle(id);
    if (!rec) throw notFound(`bundle ${id}`);
    slugs.push(rec.file.slug);
  }
  // Tools travel with the bundles they call into, named by slug too (pipeline-links.ts, a type's transfer hooks).
  const bundleOf = (bundleID: string) => store.reader.bundle(bundleID)?.file;
  for (const id of exportClosure(store.reader, ids)) {
    if (!ids.includes(id) && !store.isBuiltinBundle(id)) await store.syncBundle(id);
    const rec = store.reader.bundle(id);
    if (!rec) throw notFound(`bundle ${id}`);
    entries.push({ path: bundleJsonPath(id), executable: false, size: 0, data: json({ ...rec.file, isBuiltIn: false }, BUNDLE_KEY_ORDER) });
    for (const tool of store.reader.toolsOf(id)) {
      const { toolID } = tool.file;
      const file = withBundleHints({ ...tool.file, isBuiltIn: false }, bundleOf);
      entries.push({ path: toolJsonPath(id, toolID), executable: false, size: 0, data: json(file, TOOL_KEY_ORDER) });
      for (const f of await toolFolderFiles(tool.dir, limits)) {
        entries.push({ path: toolFilePath(id, toolID, f.rel), executable: f.executable, size: f.size, source: f.abs });
      }
    }
  }
  for (const e of entries) if (e.data) e.size = e.data.length;
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const fileName = slugs.length === 1 ? `${safeFileStem(slugs[0]!)}.zip` : `toolwright-${slugs.length}-bundles.zip`;
  return { entries, fileName };
}

/** A download name: the slug where it is safe in a file name, ASCII-dashed otherwise. */
function safeFileStem(slug: string): string {
  const stem = slug.replace(/[^\p{L}\p{N}-]/gu, '-').slice(0, 64);
  return stem && !pathProblem(stem) ? stem : 'bundle';
}

/** Streams the entries as a ZIP. Progress counts entries whose bytes were handed to the writer. */
export function zipEntries(entries: ExportEntry[], onProgress?: (done: number, total: number) => void): Readable {
  const zip = new yazl.ZipFile();
  const out = new PassThrough();
  let done = 0;
  const total = entries.length;
  const finished = () => {
    done++;
    onProgress?.(done, total);
  };
  zip.on('error', (err: Error) => out.destroy(err));
  for (const e of entries) {
    // Tiny files only grow when deflated; store them.
    const options = { mtime: FIXED_MTIME, mode: e.executable ? 0o100755 : 0o100644, compress: e.size >= 128, forceDosTimestamp: true, size: e.size };
    zip.addReadStreamLazy(e.path, options, (cb) => {
      if (e.data) {
        const stream = Readable.from([e.data]);
        stream.once('end', finished);
        cb(null, stream);
        return;
      }
      // O_NOFOLLOW: a file swapped for a link after it was listed is refused, never followed.
      fsp.open(e.source!, fsc.O_RDONLY | fsc.O_NOFOLLOW).then(
        (fh) => {
          const stream = fh.createReadStream();
          stream.once('end', finished);
          cb(null, stream);
        },
        (err: Error) => out.destroy(new CoreError('INTERNAL', `export failed reading ${e.source}: ${err.message}`)),
      );
    });
  }
  zip.end();
  onProgress?.(0, total);
  zip.outputStream.pipe(out);
  return out;
}

export async function streamToBytes(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}
