/**
 * Reading JSON files the person may have broken, or that may not be ours at all. What can go
 * wrong is said with the file's line and column, never with its content: a tool.json that is a
 * link to /etc/passwd must not have its first line quoted back in a problem report. A file that
 * is a symbolic link leading out of the data folder is not read at all.
 */
import { promises as fsp } from 'node:fs';
import { relative, isAbsolute, sep } from 'node:path';
import { parseTree, type ParseError } from 'jsonc-parser';
import { depthExceeded, MAX_INPUT_DEPTH } from '../../../shared/limits.js';
import { etagOf } from './etag.js';

export type JsonText = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * Where the first syntax error of a JSON text is. V8's message quotes the text around the fault,
 * so the offset comes from jsonc-parser (VS Code's scanner) in strict mode instead.
 */
export function jsonErrorOffset(text: string): number {
  const errors: ParseError[] = [];
  parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return errors[0]?.offset ?? text.length;
}

function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return `line ${line}, column ${offset - last}`;
}

/** Parses JSON; a failure says where (line and column), never what the text holds. */
export function parseJsonText(text: string): JsonText {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (text.trim() === '') return { ok: false, reason: 'is empty, not JSON' };
    return { ok: false, reason: `is not valid JSON (syntax error at ${lineAndColumn(text, jsonErrorOffset(text))})` };
  }
  // JSON.stringify and validators recurse: a file nested 100,000 deep is refused here.
  const deep = depthExceeded(value, MAX_INPUT_DEPTH);
  if (deep !== undefined) return { ok: false, reason: `nests deeper than ${MAX_INPUT_DEPTH} levels (at ${deep || 'the top'})` };
  return { ok: true, value };
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Whether `path` (a file or folder) leads out of `root` through a symbolic link: the link itself
 * or a folder on the way. Such a path is never followed; links that stay inside are fine.
 */
export async function leavesRoot(root: string, path: string): Promise<boolean> {
  let real: string;
  try {
    real = await fsp.realpath(path);
  } catch {
    return false; // missing: nothing to follow
  }
  const realRoot = await fsp.realpath(root).catch(() => root);
  return !inside(realRoot, real);
}

/** `etag` hashes the bytes read (fs/etag.ts). */
export type JsonFileRead = { kind: 'missing' } | { kind: 'ok'; value: unknown; etag: string } | { kind: 'bad'; reason: string };

/** Reads a JSON file: missing, parsed, or bad with a content-free reason. */
export async function readJsonPath(path: string): Promise<JsonFileRead> {
  let bytes: Buffer;
  try {
    bytes = await fsp.readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'EISDIR') return { kind: 'bad', reason: 'is a folder, not a file' };
    return { kind: 'bad', reason: `cannot be read (${code ?? 'error'})` };
  }
  const parsed = parseJsonText(bytes.toString('utf8'));
  return parsed.ok ? { kind: 'ok', value: parsed.value, etag: etagOf(bytes) } : { kind: 'bad', reason: parsed.reason };
}

/** Reads a JSON file of the data folder, never through a symbolic link that leads out of `root`. */
export async function readJsonIn(root: string, path: string): Promise<JsonFileRead> {
  if (await leavesRoot(root, path))
    return { kind: 'bad', reason: 'is a symbolic link to outside the data folder; it is not read. Replace it with a real file' };
  return readJsonPath(path);
}
