/** core.readFile and core.listDir: read-only access to files under config.workspaceRoot. */
import { promises as fsp, constants as fsConstants, type Stats } from 'node:fs';
import path from 'node:path';
import { CoreError, cancelledError } from '../errors.js';
import { defineFunction } from './types.js';
import { clip, escapeHtml, preBlock } from './html.js';
import { classifyLink, resolveInWorkspace } from './workspace.js';
import { needsWorkspace, workspacePathArg } from './workspace-args.js';

/** Reads stop at 1 MiB: enough for source files and documents, small enough for a model's context and the UI. */
export const MAX_READ_BYTES = 1024 * 1024;
export const MAX_LIST_ENTRIES = 5000;
/** Entries read from one folder before sorting; a folder bigger than this is listed partially. */
const MAX_SCANNED_ENTRIES = 100_000;

// O_NOFOLLOW and O_NONBLOCK do not exist on Windows; there the realpath check alone applies.
const OPEN_FLAGS = fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0);

const SIGNATURES: { type: string; bytes: number[] }[] = [
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { type: 'application/zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { type: 'application/gzip', bytes: [0x1f, 0x8b] },
  { type: 'application/x-elf', bytes: [0x7f, 0x45, 0x4c, 0x46] },
  { type: 'application/wasm', bytes: [0x00, 0x61, 0x73, 0x6d] },
  { type: 'text (UTF-16LE with BOM)', bytes: [0xff, 0xfe] },
  { type: 'text (UTF-16BE with BOM)', bytes: [0xfe, 0xff] },
];

function detectType(head: Uint8Array): string | undefined {
  return SIGNATURES.find((s) => s.bytes.length <= head.length && s.bytes.every((b, i) => head[i] === b))?.type;
}

/** UTF-8 text, or undefined for binary (a NUL byte in the first 8 KB, or invalid UTF-8). */
function decodeText(bytes: Uint8Array, truncated: boolean): string | undefined {
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  try {
    // When the read stopped early, stream mode drops a character cut in half at the end instead of failing.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: truncated });
  } catch {
    return undefined;
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

export interface ReadFileValue {
  path: string;
  size: number;
  modifiedAt: string;
  bytesRead: number;
  truncated: boolean;
  binary: boolean;
  encoding: 'utf-8' | null;
  content: string | null;
  detectedType?: string;
}

export const readFileFunction = defineFunction<{ path: string; maxBytes?: number }, ReadFileValue>({
  name: 'core.readFile',
  availability: needsWorkspace,
  description:
    `Read a UTF-8 text file inside the workspace folder set in Settings (workspaceRoot). At most ${MAX_READ_BYTES} bytes (1 MiB) are returned; ` +
    'larger files come back truncated, and binary files are reported with their size and type instead of their bytes.',
  argSchema: {
    type: 'object',
    properties: {
      path: { ...workspacePathArg("The file, e.g. 'docs/notes.md'."), minLength: 1 },
      maxBytes: { type: 'integer', minimum: 1, maximum: MAX_READ_BYTES, default: MAX_READ_BYTES, description: 'Read at most this many bytes from the start.' },
    },
    required: ['path'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'The path as resolved inside the workspace.' },
      size: { type: 'integer', minimum: 0, description: 'File size in bytes.' },
      modifiedAt: { type: 'string', format: 'date-time', description: 'Last modification time (UTC).' },
      bytesRead: { type: 'integer', minimum: 0, description: 'Bytes read from the start of the file.' },
      truncated: { type: 'boolean', description: 'True when the file is larger than what was read.' },
      binary: { type: 'boolean', description: 'True when the file is not UTF-8 text; content is then null.' },
      encoding: { type: ['string', 'null'], enum: ['utf-8', null], description: "'utf-8' for text, null for binary." },
      content: { type: ['string', 'null'], description: 'The text, or null for a binary file.' },
      detectedType: { type: 'string', description: 'Type recognised from the first bytes (e.g. image/png), when known.' },
    },
    required: ['path', 'size', 'modifiedAt', 'bytesRead', 'truncated', 'binary', 'encoding', 'content'],
    additionalProperties: false,
  },
  safety: 'readOnly',
  async run({ path: input, maxBytes = MAX_READ_BYTES }, ctx) {
    const target = await resolveInWorkspace(ctx.config.workspaceRoot, input, 'core.readFile');
    const checked = await fsp.stat(target.real);
    if (checked.isDirectory()) throw new CoreError('INVALID_ARGS', `'${target.display}' is a folder; use core.listDir to see what it holds`);
    if (!checked.isFile())
      throw new CoreError('INVALID_ARGS', `'${target.display}' is not a regular file (a device, pipe or socket); only regular files can be read`);

    const handle = await fsp.open(target.real, OPEN_FLAGS).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ELOOP') throw new CoreError('FORBIDDEN', `'${target.display}' changed into a symbolic link while it was being opened; refused`);
      throw new CoreError('FORBIDDEN', `'${target.display}' cannot be opened (${e.code ?? e.message})`);
    });
    try {
      const opened = await handle.stat();
      if (!sameFile(opened, checked) || !opened.isFile()) {
        throw new CoreError('FORBIDDEN', `'${target.display}' was replaced while it was being opened; refused`);
      }
      const want = Math.min(opened.size, maxBytes);
      const buffer = new Uint8Array(want);
      let bytesRead = 0;
      while (bytesRead < want) {
        if (ctx.signal.aborted) throw cancelledError();
        const { bytesRead: n } = await handle.read(buffer, bytesRead, want - bytesRead, bytesRead);
        if (n === 0) break;
        bytesRead += n;
      }
      const bytes = buffer.subarray(0, bytesRead);
      const truncated = opened.size > bytesRead;
      const text = decodeText(bytes, truncated);
      const value: ReadFileValue = {
        path: target.display,
        size: opened.size,
        modifiedAt: opened.mtime.toISOString(),
        bytesRead,
        truncated,
        binary: text === undefined,
        encoding: text === undefined ? null : 'utf-8',
        content: text ?? null,
      };
      const detected = detectType(bytes.subarray(0, 16));
      if (detected) value.detectedType = detected;
      const note = truncated ? ` (first ${bytesRead} of ${opened.size} bytes)` : '';
      const card =
        text === undefined
          ? {
              title: target.display,
              html: `<p>Binary file${detected ? ` (${escapeHtml(detected)})` : ''}, ${opened.size} bytes: not shown.</p>`,
              text: 'binary file',
            }
          : { title: target.display + note, html: preBlock(clip(text, 4000)), text: clip(text, 200) };
      return { value, card };
    } finally {
      await handle.close();
    }
  },
});

export interface DirEntry {
  name: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  size?: number;
  modifiedAt?: string;
  linkTarget?: 'file' | 'directory' | 'other' | 'outside' | 'broken';
}

export const listDirFunction = defineFunction<{ path?: string; maxEntries?: number }, { path: string; total: number; truncated: boolean; entries: DirEntry[] }>(
  {
    name: 'core.listDir',
    availability: needsWorkspace,
    description:
      'List a folder inside the workspace folder set in Settings (workspaceRoot): names, types, sizes and modification times, sorted by name. ' +
      'Symbolic links are not followed; linkTarget says where they lead.',
    argSchema: {
      type: 'object',
      properties: {
        path: { ...workspacePathArg("The folder, e.g. 'src'; '.' or empty for the workspace root."), default: '.' },
        maxEntries: { type: 'integer', minimum: 1, maximum: MAX_LIST_ENTRIES, default: 1000, description: 'Return at most this many entries.' },
      },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The folder as resolved inside the workspace.' },
        total: { type: 'integer', minimum: 0, description: 'Entries in the folder (counted up to 100000).' },
        truncated: { type: 'boolean', description: 'True when not every entry was returned.' },
        entries: {
          type: 'array',
          description: 'Entries sorted by name (code-unit order).',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'Entry name.' },
              type: { type: 'string', enum: ['file', 'directory', 'symlink', 'other'], description: 'Kind of entry; symlinks are not followed.' },
              size: { type: 'integer', minimum: 0, description: 'Size in bytes (files only).' },
              modifiedAt: { type: 'string', format: 'date-time', description: 'Last modification time (UTC).' },
              linkTarget: {
                type: 'string',
                enum: ['file', 'directory', 'other', 'outside', 'broken'],
                description: "For symlinks: what they lead to; 'outside' ones are refused by the file tools.",
              },
            },
            required: ['name', 'type'],
            additionalProperties: false,
          },
        },
      },
      required: ['path', 'total', 'truncated', 'entries'],
      additionalProperties: false,
    },
    safety: 'readOnly',
    async run({ path: input = '.', maxEntries = 1000 }, ctx) {
      const target = await resolveInWorkspace(ctx.config.workspaceRoot, input, 'core.listDir');
      const st = await fsp.stat(target.real);
      if (!st.isDirectory()) throw new CoreError('INVALID_ARGS', `'${target.display}' is not a folder; use core.readFile to read a file`);

      const dir = await fsp.opendir(target.real);
      const names: { name: string; type: DirEntry['type'] }[] = [];
      let scanTruncated = false;
      for await (const d of dir) {
        if (names.length >= MAX_SCANNED_ENTRIES) {
          scanTruncated = true;
          break; // leaving the loop closes the handle
        }
        names.push({ name: d.name, type: d.isFile() ? 'file' : d.isDirectory() ? 'directory' : d.isSymbolicLink() ? 'symlink' : 'other' });
      }
      names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const entries: DirEntry[] = [];
      for (const n of names.slice(0, maxEntries)) {
        if (ctx.signal.aborted) throw cancelledError();
        const full = path.join(target.real, n.name);
        const entry: DirEntry = { name: n.name, type: n.type };
        const lst = await fsp.lstat(full).catch(() => undefined); // an entry may vanish while listing
        if (lst) {
          if (n.type === 'file') entry.size = lst.size;
          entry.modifiedAt = lst.mtime.toISOString();
        }
        if (n.type === 'symlink') entry.linkTarget = await classifyLink(target.root, full);
        entries.push(entry);
      }
      const value = { path: target.display, total: names.length, truncated: scanTruncated || names.length > entries.length, entries };
      const items = entries
        .slice(0, 200)
        .map((e) => `<li>${escapeHtml(e.name)}${e.type === 'directory' ? '/' : e.type === 'symlink' ? ' →' : ''}</li>`)
        .join('');
      const more = value.truncated || entries.length > 200 ? '<p>…more entries not shown</p>' : '';
      return {
        value,
        card: { title: `${target.display} (${value.total} entries)`, html: `<ul>${items}</ul>${more}`, text: `${value.total} entries` },
      };
    },
  },
);
