/**
 * The layout of a Toolwright bundle archive, and the rules every path in it must pass.
 *
 *   bundles/<bundleID>/bundle.json
 *   bundles/<bundleID>/tools/<toolID>/tool.json
 *   bundles/<bundleID>/tools/<toolID>/<build files: Dockerfile, runner scripts, sub-folders…>
 *
 * IDs are lower-case UUIDs (the app makes v7), as on disk. Nothing else is allowed, except the litter macOS
 * Finder adds when it re-zips a folder (`__MACOSX/…`, `.DS_Store`), which is ignored. Entries
 * are stored in byte order of their paths, with fixed timestamps and modes (0644, or 0755 for
 * executables), so the same content always gives the same archive. No secrets values, metrics,
 * history, claims or locks are ever written: only what the layout above names.
 */
import { isUuid } from '../../../shared/ids.js';

export const BUNDLES_PREFIX = 'bundles/';
export const BUNDLE_JSON = 'bundle.json';
export const TOOL_JSON = 'tool.json';

export function bundleJsonPath(bundleID: string): string {
  return `${BUNDLES_PREFIX}${bundleID}/${BUNDLE_JSON}`;
}
export function toolJsonPath(bundleID: string, toolID: string): string {
  return `${BUNDLES_PREFIX}${bundleID}/tools/${toolID}/${TOOL_JSON}`;
}
export function toolFilePath(bundleID: string, toolID: string, rel: string): string {
  return `${BUNDLES_PREFIX}${bundleID}/tools/${toolID}/${rel}`;
}

export type Place =
  | { kind: 'bundle'; bundleID: string }
  | { kind: 'tool'; bundleID: string; toolID: string }
  | { kind: 'file'; bundleID: string; toolID: string; rel: string; depth: number }
  /** A directory entry inside the layout: nothing to do, folders are created as needed. */
  | { kind: 'dir' }
  | { kind: 'junk' }
  | { kind: 'error'; reason: string };

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;

/**
 * Why a path may not be used inside the data folder, or undefined when it is fine. Checked on
 * every import entry and on every file an export would write, so an export always imports.
 */
export function pathProblem(name: string): string | undefined {
  if (name.length === 0) return 'has an empty name';
  if (name.length > 1024) return 'is longer than 1024 characters';
  if (/\p{Cc}/u.test(name)) return 'contains a control character';
  if (name.includes('\\')) return "contains a backslash; paths inside the archive use '/' (a backslash can act as a folder separator on Windows)";
  if (name.startsWith('/')) return 'is an absolute path; paths inside the archive must be relative';
  if (/^[A-Za-z]:/.test(name)) return 'starts with a drive letter; paths inside the archive must be relative';
  const segments = name.replace(/\/$/, '').split('/');
  for (const s of segments) {
    if (s === '') return "has an empty folder name ('//')";
    if (s === '..' || s === '.') return `contains a '${s}' segment, which could reach outside its folder`;
    if (Buffer.byteLength(s, 'utf8') > 255) return 'has a name longer than 255 bytes';
    if (WINDOWS_FORBIDDEN.test(s)) return `has '${s}', which uses a character Windows does not allow in file names (< > : " | ? *)`;
    if (/[. ]$/.test(s)) return `has '${s}', which ends with a dot or space (Windows would silently drop it)`;
    if (WINDOWS_RESERVED.test(s)) return `has '${s}', a device name on Windows`;
  }
  return undefined;
}

function isJunk(name: string): boolean {
  return name.startsWith('__MACOSX/') || name === '__MACOSX' || name === '.DS_Store' || name.endsWith('/.DS_Store');
}

function folderID(s: string | undefined, what: string): string | { error: string } {
  if (s === undefined) return { error: `is not inside a ${what} folder` };
  if (isUuid(s)) return s;
  if (isUuid(s.toLowerCase())) return { error: `uses an upper-case ${what} ID '${s}'; folder names are lower-case UUIDs` };
  return { error: `has '${s}' where a ${what} ID (a lower-case UUID) belongs` };
}

/** Where an entry belongs in the layout. `name` has already passed pathProblem(). */
export function placeOf(name: string, isDirectory: boolean): Place {
  if (isJunk(name)) return { kind: 'junk' };
  const layoutHint = 'only bundles/<bundleID>/bundle.json and bundles/<bundleID>/tools/<toolID>/… are allowed';
  const parts = name.replace(/\/$/, '').split('/');
  if (parts[0] !== 'bundles') return { kind: 'error', reason: `is outside the archive layout (${layoutHint})` };
  if (parts.length === 1) return isDirectory ? { kind: 'dir' } : { kind: 'error', reason: `is outside the archive layout (${layoutHint})` };
  const bundleID = folderID(parts[1], 'bundle');
  if (typeof bundleID !== 'string') return { kind: 'error', reason: bundleID.error };
  if (parts.length === 2) return isDirectory ? { kind: 'dir' } : { kind: 'error', reason: `is a file where a bundle folder belongs (${layoutHint})` };
  if (parts.length === 3) {
    if (parts[2] === BUNDLE_JSON && !isDirectory) return { kind: 'bundle', bundleID };
    if (parts[2] === 'tools' && isDirectory) return { kind: 'dir' };
    return { kind: 'error', reason: `is outside the archive layout (${layoutHint})` };
  }
  if (parts[2] !== 'tools') return { kind: 'error', reason: `is outside the archive layout (${layoutHint})` };
  const toolID = folderID(parts[3], 'tool');
  if (typeof toolID !== 'string') return { kind: 'error', reason: toolID.error };
  if (parts.length === 4) return isDirectory ? { kind: 'dir' } : { kind: 'error', reason: `is a file where a tool folder belongs (${layoutHint})` };
  const rel = parts.slice(4).join('/');
  if (isDirectory) return { kind: 'dir' };
  if (rel === TOOL_JSON) return { kind: 'tool', bundleID, toolID };
  return { kind: 'file', bundleID, toolID, rel, depth: parts.length - 5 };
}

/** The key under which two names collide on a case-insensitive, normalising file system (macOS, Windows). */
export function foldKey(name: string): string {
  return name.replace(/\/$/, '').normalize('NFC').toLowerCase();
}
