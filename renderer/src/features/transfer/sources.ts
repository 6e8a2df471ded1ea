/**
 * What a person hands the app to import — picked files, a picked folder, or a drop — sorted into
 * the kinds the core reads: a Toolwright ZIP, a container-tool folder, a SKILL.md, an OpenAPI
 * document. Content only; the renderer never passes a path for the core to open.
 */
import type { OpInput } from '../../../../shared/operations.js';
import { isPlainObject } from '../../../../shared/plain-object.js';

export type FolderFile = OpInput<'tools.importContainer'>['files'][number];

export type ImportSource =
  | { kind: 'zip'; name: string; bytes: Uint8Array }
  | { kind: 'folder'; name: string; files: FolderFile[]; notes: string[] }
  | { kind: 'skill'; name: string; text: string }
  | { kind: 'openapi'; name: string; text: string }
  /** An MCP client configuration (JSON text) or an .mcpb package (base64). */
  | { kind: 'mcp'; name: string; content: string; encoding: 'utf8' | 'base64' }
  | { kind: 'unsupported'; name: string; reason: string };

/** The largest file read into memory at all; the core applies its own, finer limits. */
export const MAX_READ_BYTES = 512 * 1024 * 1024;
/** tools.importContainer accepts at most this many files (shared/operations.ts). */
export const MAX_FOLDER_FILES = 5000;

const WHAT_WORKS =
  'Toolwright imports its own ZIP exports, container-tool folders (manifest.json + Dockerfile), SKILL.md files, OpenAPI 3 documents (.json, .yaml) and the MCP servers of a claude_desktop_config.json, an mcp.json (Cursor, Windsurf, VS Code), a registry server.json or an .mcpb.';

/** A claude_desktop_config.json, an mcp.json (Cursor, Windsurf, VS Code) or an MCP registry server.json. */
export function looksLikeMcpConfig(text: string): boolean {
  try {
    const doc = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return false;
    const o = doc as Record<string, unknown>;
    if ('openapi' in o || 'swagger' in o) return false;
    return 'mcpServers' in o || 'servers' in o || (typeof o['name'] === 'string' && ('packages' in o || 'remotes' in o));
  } catch {
    return false;
  }
}
/** Operating-system litter that is never part of a tool. */
const LITTER = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);
const SKIPPED_DIRS = new Set(['.git', '__MACOSX', 'node_modules']);

export function extensionOf(name: string): string {
  const m = /\.([^./\\]+)$/.exec(name);
  return m ? m[1]!.toLowerCase() : '';
}

/** ZIP local-file header, or the end record of an empty archive (the core then says it holds no bundles). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06));
}

/** Whether a JSON or YAML text is an OpenAPI (or Swagger, which the core refuses with a clear message) document. */
export function looksLikeOpenApi(text: string, ext: string): boolean {
  const body = text.replace(/^\uFEFF/, '');
  if (ext === 'json' || body.trimStart().startsWith('{')) {
    try {
      const doc = JSON.parse(body) as unknown;
      return isPlainObject(doc) && ('openapi' in doc || 'swagger' in doc);
    } catch {
      // Not valid JSON: let the core say where, if it claims to be an OpenAPI document.
      return /"(openapi|swagger)"\s*:/.test(body);
    }
  }
  return /^["']?(openapi|swagger)["']?\s*:/m.test(body);
}

/** A file's bytes; FileReader where Blob.arrayBuffer is missing (older engines, jsdom). */
export function bytesOf(blob: Blob): Promise<Uint8Array> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer().then((b) => new Uint8Array(b));
  return new Promise((ok, fail) => {
    const reader = new FileReader();
    reader.onload = () => ok(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => fail(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Sorts one file by its first bytes and its name. */
export function classify(name: string, bytes: Uint8Array): ImportSource {
  const ext = extensionOf(name);
  if (ext === 'mcpb' && isZip(bytes)) return { kind: 'mcp', name, content: toBase64(bytes), encoding: 'base64' };
  if (isZip(bytes)) return { kind: 'zip', name, bytes };
  if (ext === 'zip')
    return { kind: 'unsupported', name, reason: 'is not a ZIP archive (it does not start with the ZIP signature PK\\x03\\x04); was it renamed or cut short?' };
  if (!['md', 'markdown', 'json', 'yaml', 'yml'].includes(ext))
    return { kind: 'unsupported', name, reason: `is not a file Toolwright can import. ${WHAT_WORKS}` };
  const text = decodeUtf8(bytes);
  if (text === null) return { kind: 'unsupported', name, reason: 'is not UTF-8 text' };
  if (ext === 'md' || ext === 'markdown') return { kind: 'skill', name, text };
  if (ext === 'json' && looksLikeMcpConfig(text)) return { kind: 'mcp', name, content: text, encoding: 'utf8' };
  if (looksLikeOpenApi(text, ext)) return { kind: 'openapi', name, text };
  return {
    kind: 'unsupported',
    name,
    reason: `is ${ext === 'json' ? 'JSON' : 'YAML'} but not an OpenAPI 3 document (it has no top-level "openapi" field). ${WHAT_WORKS}`,
  };
}

export async function readFileSource(file: File): Promise<ImportSource> {
  if (file.size > MAX_READ_BYTES)
    return { kind: 'unsupported', name: file.name, reason: `is ${Math.round(file.size / 1048576)} MB; at most ${MAX_READ_BYTES / 1048576} MB can be imported` };
  return classify(file.name, await bytesOf(file));
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * One file of a container folder: text as utf8, anything else as base64. Browsers do not
 * reveal the executable bit, so a script that starts with `#!` is marked executable (runners
 * are scripts; a Dockerfile that needs more can chmod).
 */
export function folderFile(path: string, bytes: Uint8Array): FolderFile {
  const text = decodeUtf8(bytes);
  const executable = bytes[0] === 0x23 && bytes[1] === 0x21;
  return text !== null
    ? { path, content: text, encoding: 'utf8', ...(executable ? { executable } : {}) }
    : { path, content: toBase64(bytes), encoding: 'base64', ...(executable ? { executable } : {}) };
}

export interface PathedFile {
  path: string;
  file: File;
}

/** Reads a folder's files (paths relative to the folder), leaving out OS litter and VCS folders with a note. */
export async function folderSource(name: string, entries: PathedFile[], skippedFolders: string[] = []): Promise<ImportSource> {
  const notes = skippedFolders.map((dir) => `left out ${dir}/`);
  const skippedDirs = new Map<string, number>();
  const kept: PathedFile[] = [];
  for (const e of entries) {
    const parts = e.path.split('/');
    const dir = parts.slice(0, -1).find((p) => SKIPPED_DIRS.has(p));
    if (dir) skippedDirs.set(dir, (skippedDirs.get(dir) ?? 0) + 1);
    else if (!LITTER.has(parts[parts.length - 1]!)) kept.push(e);
  }
  for (const [dir, n] of skippedDirs) notes.push(`left out ${dir}/ (${n} file${n === 1 ? '' : 's'})`);
  if (kept.length === 0) return { kind: 'unsupported', name, reason: 'is an empty folder' };
  if (kept.length > MAX_FOLDER_FILES)
    return { kind: 'unsupported', name, reason: `holds ${kept.length} files; a container-tool folder may hold at most ${MAX_FOLDER_FILES}` };
  const total = kept.reduce((n, e) => n + e.file.size, 0);
  if (total > MAX_READ_BYTES)
    return { kind: 'unsupported', name, reason: `holds ${Math.round(total / 1048576)} MB; at most ${MAX_READ_BYTES / 1048576} MB can be imported` };
  kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const files = await Promise.all(kept.map(async (e) => folderFile(e.path, await bytesOf(e.file))));
  return { kind: 'folder', name, files, notes };
}

/**
 * Files from `<input type="file" webkitdirectory>`: each carries `webkitRelativePath`
 * ("folder/sub/file"); the picked folder's own name is dropped from the paths.
 */
export async function sourcesFromDirectoryPick(files: readonly File[]): Promise<ImportSource[]> {
  const byTop = new Map<string, PathedFile[]>();
  for (const file of files) {
    const rel = file.webkitRelativePath || file.name;
    const [top, ...rest] = rel.split('/');
    const list = byTop.get(top!) ?? [];
    list.push({ path: rest.length ? rest.join('/') : top!, file });
    byTop.set(top!, list);
  }
  return Promise.all([...byTop].map(([top, list]) => folderSource(top, list)));
}

export async function sourcesFromFiles(files: readonly File[]): Promise<ImportSource[]> {
  return Promise.all(files.map(readFileSource));
}

// ---- drag and drop -----------------------------------------------------------------------------

/** The subset of the File and Directory Entries API that a drop hands over. */
export interface DropEntry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?(ok: (f: File) => void, fail: (e: unknown) => void): void;
  createReader?(): { readEntries(ok: (entries: DropEntry[]) => void, fail: (e: unknown) => void): void };
}

interface Walked {
  files: PathedFile[];
  /** Folders left out (VCS, OS litter), relative paths. */
  skipped: string[];
}

/** Every file under a dropped directory, with '/'-separated paths relative to it. */
export async function walkDirectory(dir: DropEntry, prefix = '', out: Walked = { files: [], skipped: [] }): Promise<Walked> {
  const reader = dir.createReader!();
  // readEntries answers in batches (100 in Chromium) until it answers an empty list.
  for (;;) {
    const batch = await new Promise<DropEntry[]>((ok, fail) => reader.readEntries(ok, fail));
    if (batch.length === 0) break;
    for (const entry of batch) {
      // One past the limit is enough for folderSource to refuse with the count.
      if (out.files.length > MAX_FOLDER_FILES) return out;
      const path = prefix + entry.name;
      if (entry.isDirectory) {
        if (SKIPPED_DIRS.has(entry.name)) out.skipped.push(path);
        else await walkDirectory(entry, `${path}/`, out);
      } else if (entry.isFile) {
        out.files.push({ path, file: await new Promise<File>((ok, fail) => entry.file!(ok, fail)) });
      }
    }
  }
  return out;
}

/**
 * What a drop holds. Entries and files must be taken while the drop event runs (the
 * DataTransfer empties afterwards); reading them can wait.
 */
export function captureDrop(dt: DataTransfer): () => Promise<ImportSource[]> {
  const dropped: { entry: DropEntry | null; file: File | null }[] = [];
  for (let i = 0; i < dt.items.length; i++) {
    const item = dt.items[i]!;
    if (item.kind !== 'file') continue;
    dropped.push({ entry: (item.webkitGetAsEntry?.() ?? null) as DropEntry | null, file: item.getAsFile() });
  }
  // Some drags carry only dt.files.
  if (dropped.length === 0) for (const file of Array.from(dt.files)) dropped.push({ entry: null, file });
  return async () => {
    const out: ImportSource[] = [];
    for (const { entry, file } of dropped) {
      if (entry?.isDirectory) {
        const walked = await walkDirectory(entry);
        out.push(await folderSource(entry.name, walked.files, walked.skipped));
      } else if (file) {
        out.push(await readFileSource(file));
      }
    }
    return out;
  };
}
