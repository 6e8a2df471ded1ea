/** core.glob: paths inside config.workspaceRoot that match a glob pattern (glob-pattern.ts), found by a bounded walk (workspace-walk.ts). */
import { promises as fsp } from 'node:fs';
import { CoreError } from '../errors.js';
import { defineFunction } from './types.js';
import { escapeHtml } from './html.js';
import { compileGlob, GlobError, MAX_GLOB_LENGTH, type GlobMatcher } from './glob-pattern.js';
import { DEFAULT_EXCLUDES, MAX_WALK_ENTRIES, walk, type WalkStats } from './workspace-walk.js';
import { resolveInWorkspace } from './workspace.js';
import { needsWorkspace, workspacePathArg } from './workspace-args.js';

export const MAX_GLOB_RESULTS = 10_000;

/** A glob argument compiled, or INVALID_ARGS naming the argument and what is wrong. */
export function globArg(pattern: string, field: string): GlobMatcher {
  try {
    return compileGlob(pattern);
  } catch (e) {
    if (e instanceof GlobError)
      throw new CoreError('INVALID_ARGS', `${field}: the glob '${pattern.slice(0, 200)}' ${e.message}`, { issues: [{ field, message: e.message }] });
    throw e;
  }
}

export const excludeArg = {
  type: 'array',
  maxItems: 100,
  items: { type: 'string', minLength: 1, maxLength: MAX_GLOB_LENGTH, description: "A glob, e.g. '**/dist'." },
  default: DEFAULT_EXCLUDES,
  description: `Globs of paths (relative to path) to leave out, with everything below a folder; default ${DEFAULT_EXCLUDES.join(', ')}. Pass [] to search everything.`,
};

export const globPatternDescription =
  "'*' and '?' within a name, '**' for any folders, [a-z] sets, {a,b} alternatives, '\\' escapes; matched against paths relative to path";

/** Where a search starts: the folder given, resolved inside the workspace (it may be reached through a link that stays inside). */
export async function searchFolder(workspaceRoot: string | null, input: string, functionName: string) {
  const folder = await resolveInWorkspace(workspaceRoot, input, functionName);
  const st = await fsp.stat(folder.real);
  if (!st.isDirectory())
    throw new CoreError('INVALID_ARGS', `'${folder.display}' is not a folder`, { issues: [{ field: 'args.path', message: 'is not a folder' }] });
  return folder;
}

/** A path relative to the search folder, as the workspace root sees it. */
export const fromRoot = (folderDisplay: string, rel: string) => (folderDisplay === '.' ? rel : `${folderDisplay}/${rel}`);

export function truncationNote(stats: WalkStats): string | undefined {
  if (stats.truncated === 'entries') return `the walk stopped after ${MAX_WALK_ENTRIES} entries; narrow path or the pattern`;
  if (stats.truncated === 'depth') return 'folders nested deeper than 64 levels were not entered';
  return undefined;
}

interface GlobMatch {
  path: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  size?: number;
  modifiedAt?: string;
}

export const globFunction = defineFunction<
  { pattern: string; path?: string; exclude?: string[]; includeFolders?: boolean; maxResults?: number },
  { pattern: string; matches: GlobMatch[]; total: number; truncated: boolean; note?: string }
>({
  name: 'core.glob',
  availability: needsWorkspace,
  description:
    "Find files in the workspace folder (workspaceRoot) whose paths match a glob pattern, e.g. 'src/**/*.ts' or '*.{md,txt}'. " +
    'Paths come back relative to the workspace root, sorted, with size and modification time. Symbolic links are listed, never followed.',
  argSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', minLength: 1, maxLength: MAX_GLOB_LENGTH, description: `The glob: ${globPatternDescription}.` },
      path: { ...workspacePathArg("The folder to search, e.g. 'src'; '.' for the workspace root."), default: '.' },
      exclude: excludeArg,
      includeFolders: { type: 'boolean', default: false, description: 'List matching folders too, not only files.' },
      maxResults: { type: 'integer', minimum: 1, maximum: MAX_GLOB_RESULTS, default: 1000, description: 'Return at most this many paths.' },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'The pattern as given.' },
      total: { type: 'integer', minimum: 0, description: 'Paths that matched (counted to the end of the walk).' },
      truncated: { type: 'boolean', description: 'True when not every match was returned, or the walk stopped early (see note).' },
      note: { type: 'string', description: 'Why the walk stopped early, when it did.' },
      matches: {
        type: 'array',
        description: 'Matching paths relative to the workspace root, sorted.',
        items: {
          type: 'object',
          properties: {
            path: { type: 'string', description: 'Relative to the workspace root.' },
            type: { type: 'string', enum: ['file', 'directory', 'symlink', 'other'], description: 'Kind of entry; links are not followed.' },
            size: { type: 'integer', minimum: 0, description: 'Size in bytes (files only).' },
            modifiedAt: { type: 'string', format: 'date-time', description: 'Last modification time (UTC).' },
          },
          required: ['path', 'type'],
          additionalProperties: false,
        },
      },
    },
    required: ['pattern', 'matches', 'total', 'truncated'],
    additionalProperties: false,
  },
  safety: 'readOnly',
  async run({ pattern, path: input = '.', exclude = DEFAULT_EXCLUDES, includeFolders = false, maxResults = 1000 }, ctx) {
    const matcher = globArg(pattern, 'args.pattern');
    const excludes = exclude.map((g, i) => globArg(g, `args.exclude[${i}]`));
    const folder = await searchFolder(ctx.config.workspaceRoot, input, 'core.glob');
    const matches: GlobMatch[] = [];
    let total = 0;
    // Start below the pattern's literal folders when they exist: 'src/**/*.ts' never walks test/.
    let start = folder.real;
    let prefix = '';
    if (matcher.base) {
      const base = await resolveInWorkspace(ctx.config.workspaceRoot, fromRoot(folder.display, matcher.base), 'core.glob').catch(() => undefined);
      const st = base && (await fsp.stat(base.real).catch(() => undefined));
      if (!base || !st?.isDirectory())
        return { value: { pattern, matches, total, truncated: false }, card: { title: `${pattern}: no match`, text: '0 paths' } };
      start = base.real;
      prefix = matcher.base + '/';
    }
    const stats = await walk(start, { signal: ctx.signal, exclude: excludes.length ? excludes.map((m) => shifted(m, prefix)) : [] }, async (e) => {
      if (e.type === 'directory' && !includeFolders) return true;
      const rel = prefix + e.rel;
      if (!matcher.test(rel)) return true;
      total++;
      if (matches.length < maxResults) {
        const m: GlobMatch = { path: fromRoot(folder.display, rel), type: e.type };
        const st = await fsp.lstat(e.full).catch(() => undefined);
        if (st) {
          if (e.type === 'file') m.size = st.size;
          m.modifiedAt = st.mtime.toISOString();
        }
        matches.push(m);
      }
      return true;
    });
    const note = truncationNote(stats);
    const value = { pattern, matches, total, truncated: total > matches.length || stats.truncated !== false, ...(note ? { note } : {}) };
    const items = matches
      .slice(0, 200)
      .map((m) => `<li>${escapeHtml(m.path)}</li>`)
      .join('');
    return {
      value,
      card: {
        title: `${pattern}: ${total} path${total === 1 ? '' : 's'}`,
        html: `<ul>${items}</ul>${total > 200 ? '<p>…more not shown</p>' : ''}`,
        text: `${total} paths`,
      },
    };
  },
});

/** An exclude glob written against the search folder, applied to paths relative to a folder below it. */
function shifted(matcher: GlobMatcher, prefix: string): GlobMatcher {
  return prefix ? { ...matcher, test: (rel) => matcher.test(prefix + rel) } : matcher;
}
