/**
 * Confinement of file tools to config.workspaceRoot.
 *
 * A path from a caller must be relative, use '/' as separator, and contain no '..' segment, no
 * NUL and no backslash (on Windows a separator, on POSIX a legal name character: refused
 * either way so a path means the same on every OS). The result is canonicalised with
 * realpath and must still lie inside the canonical root, which catches symlinks that lead
 * out. Callers then open the file without following a final symlink and compare the opened
 * file's identity with the checked one, which narrows the window for a swap between check and use.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { CoreError } from '../errors.js';

export const MAX_PATH_LENGTH = 4096;

export interface WorkspacePath {
  /** Canonical workspace root. */
  root: string;
  /** Canonical absolute path of the target, inside root. */
  real: string;
  /** The caller's path, normalised to '/' separators ('.' for the root). */
  display: string;
}

function refused(display: string, why: string): CoreError {
  return new CoreError('FORBIDDEN', `path '${display}' is refused: ${why}`, { issues: [{ field: 'args.path', message: why }] });
}

function invalidPath(why: string): CoreError {
  return new CoreError('INVALID_ARGS', `path ${why}`, { issues: [{ field: 'args.path', message: why }] });
}

/** The canonical root, or TOOL_UNAVAILABLE saying how to configure it. */
export async function workspaceRootOf(configured: string | null, functionName: string): Promise<string> {
  if (configured === null || configured.trim() === '') {
    throw new CoreError('TOOL_UNAVAILABLE', `${functionName} needs a workspace folder: set workspaceRoot in Settings to the folder that file tools may read`);
  }
  if (!path.isAbsolute(configured)) {
    throw new CoreError('TOOL_UNAVAILABLE', `workspaceRoot '${configured}' is not an absolute path; fix it in Settings`);
  }
  let root: string;
  try {
    root = await fsp.realpath(configured);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CoreError(
      'TOOL_UNAVAILABLE',
      code === 'ENOENT'
        ? `workspaceRoot '${configured}' does not exist; create it or fix it in Settings`
        : `workspaceRoot '${configured}' cannot be used (${code ?? 'error'})`,
    );
  }
  const st = await fsp.stat(root);
  if (!st.isDirectory()) throw new CoreError('TOOL_UNAVAILABLE', `workspaceRoot '${configured}' is not a folder; fix it in Settings`);
  return root;
}

/** Checks the shape of a caller's path and splits it into segments (empty for the root). */
export function pathSegments(input: string): string[] {
  if (input.length > MAX_PATH_LENGTH) throw invalidPath(`is ${input.length} characters long; at most ${MAX_PATH_LENGTH} are allowed`);
  if (input.includes('\0')) throw invalidPath('contains a NUL byte');
  const shown = JSON.stringify(input).slice(1, -1);
  if (input.includes('\\')) throw refused(shown, "backslashes are not accepted; use '/' between folder names");
  if (path.posix.isAbsolute(input) || path.win32.isAbsolute(input) || /^[A-Za-z]:/.test(input)) {
    throw refused(shown, "absolute paths are not accepted; give a path relative to the workspace root, e.g. 'docs/readme.md'");
  }
  const segments = input.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw refused(shown, "'..' is not accepted; paths must stay inside the workspace root");
  return segments;
}

function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel));
}

/** Resolves a caller's path inside the workspace, following symlinks only while they stay inside. */
export async function resolveInWorkspace(configuredRoot: string | null, input: string, functionName: string): Promise<WorkspacePath> {
  const root = await workspaceRootOf(configuredRoot, functionName);
  const segments = pathSegments(input);
  const display = segments.length ? segments.join('/') : '.';
  let real: string;
  try {
    real = await fsp.realpath(path.join(root, ...segments));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new CoreError('NOT_FOUND', `'${display}' was not found in the workspace (paths are case-sensitive on most systems)`);
    }
    if (code === 'ELOOP') throw refused(display, 'it is a symbolic link loop');
    if (code === 'EACCES' || code === 'EPERM') throw refused(display, 'permission denied by the operating system');
    throw new CoreError('INTERNAL', `'${display}' cannot be resolved (${code ?? (e as Error).message})`);
  }
  if (!isInside(root, real)) throw refused(display, 'it leads outside the workspace root through a symbolic link');
  return { root, real, display };
}

/** Where a symlink inside the workspace points, without following it out. */
export async function classifyLink(root: string, linkPath: string): Promise<'file' | 'directory' | 'other' | 'outside' | 'broken'> {
  let real: string;
  try {
    real = await fsp.realpath(linkPath);
  } catch {
    return 'broken';
  }
  if (!isInside(root, real)) return 'outside';
  const st = await fsp.stat(real).catch(() => undefined);
  if (!st) return 'broken';
  return st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other';
}
