/** core.fileWrite, core.fileEdit and core.fileDelete: changes inside config.workspaceRoot (workspace-write.ts). */
import { promises as fsp } from 'node:fs';
import { createHash } from 'node:crypto';
import { CoreError } from '../errors.js';
import { defineFunction } from './types.js';
import { clip, escapeHtml, keyValueTable, preBlock } from './html.js';
import { READ_FLAGS, removeEntry, replaceFile, resolveForWrite, sameFile, type WriteTarget } from './workspace-write.js';
import { needsWorkspace, workspacePathArg } from './workspace-args.js';

/** The most a write or an edit handles: source files and documents, not disk images. */
export const MAX_WRITE_BYTES = 10 * 1024 * 1024;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export interface FileWriteValue {
  path: string;
  created: boolean;
  bytesWritten: number;
  sha256: string;
}

const writtenOutput = {
  path: { type: 'string', description: 'The path as resolved inside the workspace.' },
  bytesWritten: { type: 'integer', minimum: 0, description: 'Size of the file now, in bytes.' },
  sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the file as written (hex).' },
};

export const fileWriteFunction = defineFunction<
  { path: string; content: string; encoding?: 'utf-8' | 'base64'; overwrite?: boolean; createFolders?: boolean },
  FileWriteValue
>({
  name: 'core.fileWrite',
  availability: needsWorkspace,
  description:
    'Write a file inside the workspace folder set in Settings (workspaceRoot), creating it or replacing it whole, atomically (a reader sees the old file or the new one). ' +
    'Missing folders on the way are created. Symbolic links are never written through.',
  argSchema: {
    type: 'object',
    properties: {
      path: { ...workspacePathArg("The file, e.g. 'notes/todo.md'."), minLength: 1 },
      content: { type: 'string', maxLength: MAX_WRITE_BYTES * 2, description: `The whole new content (at most ${MAX_WRITE_BYTES} bytes once encoded).` },
      encoding: { type: 'string', enum: ['utf-8', 'base64'], default: 'utf-8', description: "How content is given: 'utf-8' text, or 'base64' for bytes." },
      overwrite: { type: 'boolean', default: true, description: 'Replace the file when it exists; false refuses instead (CONFLICT).' },
      createFolders: { type: 'boolean', default: true, description: 'Create missing folders on the way.' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: { ...writtenOutput, created: { type: 'boolean', description: 'True when the file did not exist before.' } },
    required: ['path', 'created', 'bytesWritten', 'sha256'],
    additionalProperties: false,
  },
  safety: 'sideEffecting',
  async run({ path: input, content, encoding = 'utf-8', overwrite = true, createFolders = true }, ctx) {
    if (encoding === 'base64' && !/^[A-Za-z0-9+/]*={0,2}$/.test(content.replace(/\s+/g, ''))) {
      throw new CoreError('INVALID_ARGS', 'content is not base64 (A–Z, a–z, 0–9, + and /, = padding)', {
        issues: [{ field: 'args.content', message: 'is not base64' }],
      });
    }
    const bytes = encoding === 'base64' ? Buffer.from(content, 'base64') : Buffer.from(content, 'utf8');
    if (bytes.length > MAX_WRITE_BYTES) {
      throw new CoreError('INVALID_ARGS', `content is ${bytes.length} bytes; at most ${MAX_WRITE_BYTES} can be written at once`, {
        issues: [{ field: 'args.content', message: `must be at most ${MAX_WRITE_BYTES} bytes` }],
      });
    }
    const target = await resolveForWrite(ctx.config.workspaceRoot, input, 'core.fileWrite', { createFolders });
    let created: boolean;
    try {
      if (target.existing?.isDirectory()) throw new CoreError('INVALID_ARGS', `'${target.display}' is a folder; name a file`);
      if (target.existing && !overwrite) throw new CoreError('CONFLICT', `'${target.display}' already exists; pass overwrite: true to replace it`);
      if (target.existing && !target.existing.isFile()) throw new CoreError('INVALID_ARGS', `'${target.display}' is not a regular file; it is left alone`);
      ({ created } = await replaceFile(target, bytes, overwrite ? { kind: 'any' } : { kind: 'absent' }));
    } finally {
      await target.release();
    }
    const value = { path: target.display, created, bytesWritten: bytes.length, sha256: sha256(bytes) };
    return {
      value,
      card: {
        title: `${created ? 'Created' : 'Wrote'} ${target.display}`,
        html: keyValueTable([
          ['Path', target.display],
          ['Bytes', bytes.length],
          ['SHA-256', value.sha256],
        ]),
        text: `${bytes.length} bytes`,
      },
    };
  },
});

/** Positions (1-based line numbers) of every occurrence of `needle` in `text`. */
function occurrences(text: string, needle: string): { index: number; line: number }[] {
  const found: { index: number; line: number }[] = [];
  let line = 1;
  let scanned = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    for (let i = text.indexOf('\n', scanned); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
    scanned = at;
    found.push({ index: at, line });
  }
  return found;
}

export interface FileEditValue {
  path: string;
  replacements: number;
  lines: number[];
  bytesWritten: number;
  sha256: string;
}

export const fileEditFunction = defineFunction<{ path: string; oldString: string; newString: string; replaceAll?: boolean }, FileEditValue>({
  name: 'core.fileEdit',
  availability: needsWorkspace,
  description:
    'Edit a UTF-8 text file inside the workspace folder (workspaceRoot) by exact string replacement: oldString must occur exactly once, ' +
    'or pass replaceAll to replace every occurrence. An ambiguous or missing oldString changes nothing and says where it occurs; ' +
    'a file changed by someone else during the edit is left as they wrote it.',
  argSchema: {
    type: 'object',
    properties: {
      path: { ...workspacePathArg("The file, e.g. 'src/main.ts'."), minLength: 1 },
      oldString: { type: 'string', minLength: 1, maxLength: MAX_WRITE_BYTES, description: 'The exact text to replace, whitespace and line breaks included.' },
      newString: { type: 'string', maxLength: MAX_WRITE_BYTES, description: 'The text to put in its place (may be empty to delete).' },
      replaceAll: { type: 'boolean', default: false, description: 'Replace every occurrence instead of requiring exactly one.' },
    },
    required: ['path', 'oldString', 'newString'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      ...writtenOutput,
      replacements: { type: 'integer', minimum: 1, description: 'How many occurrences were replaced.' },
      lines: {
        type: 'array',
        items: { type: 'integer', minimum: 1 },
        maxItems: 1000,
        description: 'Line numbers (1-based, before the edit) where replacements start; at most 1000.',
      },
    },
    required: ['path', 'replacements', 'lines', 'bytesWritten', 'sha256'],
    additionalProperties: false,
  },
  safety: 'sideEffecting',
  async run({ path: input, oldString, newString, replaceAll = false }, ctx) {
    if (oldString === newString) throw new CoreError('INVALID_ARGS', 'oldString and newString are the same; there is nothing to change');
    const target = await resolveForWrite(ctx.config.workspaceRoot, input, 'core.fileEdit');
    try {
      return await editIn(target, oldString, newString, replaceAll);
    } finally {
      await target.release();
    }
  },
});

async function editIn(target: WriteTarget, oldString: string, newString: string, replaceAll: boolean) {
  const st = target.existing;
  if (!st) throw new CoreError('NOT_FOUND', `'${target.display}' was not found in the workspace; use core.fileWrite to create it`);
  if (st.isDirectory()) throw new CoreError('INVALID_ARGS', `'${target.display}' is a folder; name a file`);
  if (!st.isFile()) throw new CoreError('INVALID_ARGS', `'${target.display}' is not a regular file; it is left alone`);
  if (st.size > MAX_WRITE_BYTES)
    throw new CoreError('INVALID_ARGS', `'${target.display}' is ${st.size} bytes; files over ${MAX_WRITE_BYTES} bytes are not edited`);

  const fh = await fsp.open(target.at(target.name), READ_FLAGS).catch((e: NodeJS.ErrnoException) => {
    throw new CoreError('FORBIDDEN', `'${target.display}' cannot be opened (${e.code ?? e.message})`);
  });
  let raw: Buffer;
  try {
    const opened = await fh.stat();
    if (!sameFile(opened, st)) throw new CoreError('CONFLICT', `'${target.display}' was replaced while it was being opened; retry`);
    raw = await fh.readFile();
  } finally {
    await fh.close();
  }
  let text: string;
  try {
    if (raw.subarray(0, 8192).includes(0)) throw new Error('binary');
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new CoreError('INVALID_ARGS', `'${target.display}' is not UTF-8 text; only text files can be edited (core.fileWrite replaces a file whole)`);
  }
  const found = occurrences(text, oldString);
  if (found.length === 0) {
    throw new CoreError('INVALID_ARGS', `oldString was not found in '${target.display}'; read the file again and copy the text exactly, whitespace included`, {
      issues: [{ field: 'args.oldString', message: 'was not found in the file' }],
    });
  }
  if (found.length > 1 && !replaceAll) {
    const lines = found.slice(0, 20).map((f) => f.line);
    throw new CoreError(
      'INVALID_ARGS',
      `oldString occurs ${found.length} times in '${target.display}' (lines ${lines.join(', ')}${found.length > 20 ? ', …' : ''}); ` +
        'include more of the surrounding text so it occurs once, or pass replaceAll: true',
      { issues: [{ field: 'args.oldString', message: `occurs ${found.length} times` }], occurrences: found.length, lines },
    );
  }
  const next = replaceAll ? text.split(oldString).join(newString) : text.slice(0, found[0]!.index) + newString + text.slice(found[0]!.index + oldString.length);
  const bytes = Buffer.from(next, 'utf8');
  if (bytes.length > MAX_WRITE_BYTES)
    throw new CoreError('INVALID_ARGS', `the edited file would be ${bytes.length} bytes; at most ${MAX_WRITE_BYTES} are written`);
  await replaceFile(target, bytes, { kind: 'unchanged', stat: st });
  const value = {
    path: target.display,
    replacements: found.length,
    lines: found.slice(0, 1000).map((f) => f.line),
    bytesWritten: bytes.length,
    sha256: sha256(bytes),
  };
  return {
    value,
    card: {
      title: `Edited ${target.display}`,
      html: `<p>${found.length} replacement${found.length === 1 ? '' : 's'} at line ${escapeHtml(value.lines.slice(0, 20).join(', '))}</p>${preBlock(clip(newString, 2000))}`,
      text: `${found.length} replacement${found.length === 1 ? '' : 's'}`,
    },
  };
}

export const fileDeleteFunction = defineFunction<{ path: string; recursive?: boolean }, { path: string; deleted: 'file' | 'folder' }>({
  name: 'core.fileDelete',
  availability: needsWorkspace,
  description:
    'Delete a file, or a folder (empty unless recursive), inside the workspace folder (workspaceRoot). Privileged: a person approves each call. ' +
    'Never follows or deletes symbolic links, and never deletes the workspace root.',
  argSchema: {
    type: 'object',
    properties: {
      path: { ...workspacePathArg("The file or folder, e.g. 'build/old.log'."), minLength: 1 },
      recursive: { type: 'boolean', default: false, description: 'Delete a folder with everything in it (links inside are removed, never followed).' },
    },
    required: ['path'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'The path as resolved inside the workspace.' },
      deleted: { type: 'string', enum: ['file', 'folder'], description: 'What was deleted.' },
    },
    required: ['path', 'deleted'],
    additionalProperties: false,
  },
  safety: 'privileged',
  async run({ path: input, recursive = false }, ctx) {
    const target = await resolveForWrite(ctx.config.workspaceRoot, input, 'core.fileDelete');
    const { kind } = await removeEntry(target, recursive).finally(() => target.release());
    return { value: { path: target.display, deleted: kind }, card: { title: `Deleted ${target.display}`, text: kind } };
  },
});
