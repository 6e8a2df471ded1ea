/** From an indexed archive to raw bundle values ready for validation (validate.ts). */
import { CoreError } from '../errors.js';
import { pool } from '../store/loader.js';
import type { RawBundle, RawTool } from './validate.js';
import { openEntry, readEntryBytes, type ArchiveEntry, type ArchiveIndex } from '../archive/zip-read.js';
import type { TransferLimits } from '../archive/limits.js';

function parseJson(entry: ArchiveEntry, bytes: Buffer): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CoreError('INVALID_INPUT', `The import was refused: '${entry.name}' is not UTF-8 text.`, { entry: entry.name });
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new CoreError('INVALID_INPUT', `The import was refused: '${entry.name}' is not valid JSON (${(e as Error).message}).`, { entry: entry.name });
  }
}

/** Groups the entries by bundle and tool, reads the JSON files, and checks each folder is complete. */
export async function rawBundlesOf(index: ArchiveIndex, limits: TransferLimits): Promise<RawBundle[]> {
  const bundles = new Map<string, { json?: ArchiveEntry; tools: Map<string, { json?: ArchiveEntry; files: ArchiveEntry[] }> }>();
  const bundleOf = (id: string) => {
    let b = bundles.get(id);
    if (!b) bundles.set(id, (b = { tools: new Map() }));
    return b;
  };
  for (const e of index.entries) {
    const b = bundleOf(e.place.bundleID);
    if (e.place.kind === 'bundle') {
      b.json = e;
      continue;
    }
    const toolID = e.place.toolID;
    let t = b.tools.get(toolID);
    if (!t) b.tools.set(toolID, (t = { files: [] }));
    if (e.place.kind === 'tool') t.json = e;
    else t.files.push(e);
  }
  if (bundles.size === 0) {
    throw new CoreError('INVALID_INPUT', 'The archive holds no bundles: a Toolwright export has bundles/<bundleID>/bundle.json at its top level.');
  }

  const out: RawBundle[] = [];
  for (const [bundleID, b] of [...bundles].sort(([a], [c]) => a.localeCompare(c))) {
    if (!b.json)
      throw new CoreError('INVALID_INPUT', `The import was refused: folder 'bundles/${bundleID}/' has no bundle.json.`, { entry: `bundles/${bundleID}/` });
    const folders = [...b.tools].sort(([a], [c]) => a.localeCompare(c));
    for (const [toolID, t] of folders) {
      const folder = `bundles/${bundleID}/tools/${toolID}/`;
      if (!t.json) throw new CoreError('INVALID_INPUT', `The import was refused: folder '${folder}' has no tool.json.`, { entry: folder });
    }
    const tools: RawTool[] = folders.map(([toolID, t]) => ({
      origin: t.json!.name,
      toolID,
      value: undefined,
      files: t.files.map((f) => ({
        rel: f.place.kind === 'file' ? f.place.rel : f.name,
        executable: f.executable,
        open: () => openEntry(index, f, limits.maxFileBytes),
      })),
    }));
    // Inflating is the slow part of reading; a few entries in flight keep the CPU busy.
    await pool(tools, 8, async (tool) => {
      const entry = b.tools.get(tool.toolID)!.json!;
      tool.value = parseJson(entry, await readEntryBytes(index, entry, limits.maxJsonBytes));
    });
    out.push({ origin: b.json.name, bundleID, value: parseJson(b.json, await readEntryBytes(index, b.json, limits.maxJsonBytes)), tools });
  }
  return out;
}
