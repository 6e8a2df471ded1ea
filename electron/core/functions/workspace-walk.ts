/**
 * A walk of a folder inside the workspace, for glob and file_search: names in code-unit order,
 * folders depth-first, symbolic links never followed (listed as links, so nothing outside the
 * workspace is reached and no loop is possible), bounded in entries and depth, cancellable.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { cancelledError } from '../errors.js';
import type { GlobMatcher } from './glob-pattern.js';

export const MAX_WALK_ENTRIES = 200_000;
export const MAX_WALK_DEPTH = 64;
/** Folders a search leaves out unless the caller says otherwise: version control and installed packages. */
export const DEFAULT_EXCLUDES = ['**/.git', '**/.hg', '**/.svn', '**/node_modules'];

export interface WalkEntry {
  /** Path relative to the folder walked ('/' separators). */
  rel: string;
  /** Absolute path. */
  full: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
}

export interface WalkOptions {
  signal: AbortSignal;
  /** Paths (relative to the folder walked) to leave out, with everything below a folder left out. */
  exclude: readonly GlobMatcher[];
  maxEntries?: number;
}

export interface WalkStats {
  /** Entries seen. */
  visited: number;
  /** The walk stopped early: too many entries, or too deep. */
  truncated: false | 'entries' | 'depth';
  /** Folders that could not be read (permissions, removed meanwhile). */
  unreadable: number;
}

/** Walks `dir`, calling `visit` for each entry; `visit` returns false to stop. */
export async function walk(dir: string, opts: WalkOptions, visit: (entry: WalkEntry) => boolean | Promise<boolean>): Promise<WalkStats> {
  const stats: WalkStats = { visited: 0, truncated: false, unreadable: 0 };
  const max = opts.maxEntries ?? MAX_WALK_ENTRIES;
  const excluded = (rel: string) => opts.exclude.some((m) => m.test(rel));
  const recurse = async (abs: string, relDir: string, depth: number): Promise<boolean> => {
    if (opts.signal.aborted) throw cancelledError();
    if (depth > MAX_WALK_DEPTH) {
      stats.truncated ||= 'depth';
      return true;
    }
    let names: import('node:fs').Dirent[];
    try {
      names = await fsp.readdir(abs, { withFileTypes: true });
    } catch {
      stats.unreadable++;
      return true;
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of names) {
      if (stats.visited >= max) {
        stats.truncated = 'entries';
        return false;
      }
      stats.visited++;
      const rel = relDir ? `${relDir}/${d.name}` : d.name;
      if (excluded(rel)) continue;
      const type = d.isFile() ? 'file' : d.isDirectory() ? 'directory' : d.isSymbolicLink() ? 'symlink' : 'other';
      const full = path.join(abs, d.name);
      if (!(await visit({ rel, full, type }))) return false;
      if (type === 'directory' && !(await recurse(full, rel, depth + 1))) return false;
    }
    return true;
  };
  await recurse(dir, '', 0);
  return stats;
}
