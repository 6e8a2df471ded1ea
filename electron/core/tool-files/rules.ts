/**
 * Which paths a person may write inside a container tool's folder, and how much. Every path
 * comes from a client, so it is hostile until it passes here: relative, '/'-separated, no '.' or
 * '..' segment, no name Windows or macOS would mangle (the archive rules of archive/layout.ts, so
 * a folder written here always exports and imports again), not tool.json (the form edits that),
 * not a name the store uses for its own files, and no .env (secrets live in the secrets store).
 */
import { isTempName } from '../fs/atomic.js';
import { MAX_CONTEXT_BYTES, MAX_CONTEXT_ENTRIES } from '../tool-types/container/context-limits.js';
import { foldKey, pathProblem, TOOL_JSON } from '../archive/layout.js';

export const BUILD_FILE_LIMITS = {
  /** One file written or read through the API (a Dockerfile, a runner, a small data file). */
  maxFileBytes: 16 * 1024 * 1024,
  /** The whole folder, tool.json aside: what a build context may hold. */
  maxFolderBytes: MAX_CONTEXT_BYTES,
  maxEntries: MAX_CONTEXT_ENTRIES,
  /** Folders below the tool folder. */
  maxDepth: 32,
} as const;

/** Names inside a data folder that belong to the store (locks, claims, staging and temp files). */
function storeName(segment: string): boolean {
  return isTempName(segment) || segment === '.lock' || segment === '.claims' || segment.startsWith('.staging') || segment.startsWith('.deleted-');
}

/** Why `rel` may not name a build file, or undefined when it may. */
export function buildFilePathProblem(rel: string): string | undefined {
  const general = pathProblem(rel);
  if (general) return general.replace(/inside the archive/g, 'inside a tool folder');
  if (rel.endsWith('/')) return "ends with '/'; name a file (folders are made by the paths of their files)";
  const segments = rel.split('/');
  if (segments.length - 1 > BUILD_FILE_LIMITS.maxDepth) return `is nested deeper than ${BUILD_FILE_LIMITS.maxDepth} folders`;
  if (foldKey(rel) === TOOL_JSON) return "is the tool's own definition; change it with the tool form (or tools.update), not as a build file";
  for (const s of segments) {
    if (storeName(s)) return `has '${s}', a name Toolwright uses for its own files`;
    if (/^\.env(\..*)?$/i.test(s))
      return `has '${s}': credentials do not belong in a tool folder (it travels in every export); set a secret and name it in the tool instead`;
  }
  return undefined;
}

/** True for entries a listing leaves out: the tool's definition and the store's own files. */
export function hiddenFromListing(rel: string): boolean {
  return rel === TOOL_JSON || rel.split('/').some(storeName);
}
