/**
 * core.fileSearch: grep inside config.workspaceRoot. The pattern runs on RE2 (linear time in the
 * text, as every pattern in the product), line by line; a file is first tested whole, so files
 * without a match cost one pass. Output is bounded: matches, characters per line, context lines
 * and the answer's total size.
 */
import { promises as fsp } from 'node:fs';
import { CoreError, cancelledError } from '../errors.js';
import { compileLinear, LinearRegexError, type LinearRegex } from '../../../shared/json-schema/linear-regex.js';
import { defineFunction } from './types.js';
import { escapeHtml } from './html.js';
import { DEFAULT_EXCLUDES, walk } from './workspace-walk.js';
import { excludeArg, fromRoot, globArg, globPatternDescription, searchFolder, truncationNote } from './glob.js';
import { needsWorkspace, workspacePathArg } from './workspace-args.js';
import { READ_FLAGS, sameFile } from './workspace-write.js';

export const MAX_SEARCH_PATTERN = 1000;
export const MAX_SEARCH_MATCHES = 2000;
/** Files larger than this are skipped (counted in skipped.tooLarge). */
export const MAX_SEARCH_FILE_BYTES = 4 * 1024 * 1024;
/** A line longer than this is cut around its match. */
export const MAX_LINE_CHARS = 400;
/** The answer stops growing past this many characters of line text (matches and context). */
export const MAX_SEARCH_OUTPUT_CHARS = 256 * 1024;

interface SearchArgs {
  pattern: string;
  path?: string;
  glob?: string;
  exclude?: string[];
  caseInsensitive?: boolean;
  literal?: boolean;
  contextLines?: number;
  maxMatches?: number;
}

export interface SearchMatch {
  path: string;
  line: number;
  column: number;
  text: string;
  before?: string[];
  after?: string[];
}

export interface FileSearchValue {
  pattern: string;
  matches: SearchMatch[];
  filesSearched: number;
  filesMatched: number;
  truncated: boolean;
  skipped: { binary: number; tooLarge: number; unreadable: number };
  note?: string;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A line cut to MAX_LINE_CHARS, keeping the match in view. */
function clipLine(line: string, column = 0): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const start = Math.max(0, Math.min(column - 100, line.length - MAX_LINE_CHARS));
  return (start > 0 ? '…' : '') + line.slice(start, start + MAX_LINE_CHARS) + (start + MAX_LINE_CHARS < line.length ? '…' : '');
}

function compilePattern(pattern: string, literal: boolean, flags: string): LinearRegex {
  try {
    return compileLinear(literal ? escapeRegex(pattern) : pattern, flags);
  } catch (e) {
    if (e instanceof LinearRegexError) {
      throw new CoreError('INVALID_ARGS', `pattern ${e.message}`, { issues: [{ field: 'args.pattern', message: e.message }] });
    }
    throw e;
  }
}

/** The text of a regular file read whole without following a link, or why it is skipped. */
async function readText(full: string): Promise<string | 'binary' | 'tooLarge' | 'unreadable'> {
  const before = await fsp.lstat(full).catch(() => undefined);
  if (!before?.isFile()) return 'unreadable';
  if (before.size > MAX_SEARCH_FILE_BYTES) return 'tooLarge';
  const fh = await fsp.open(full, READ_FLAGS).catch(() => undefined);
  if (!fh) return 'unreadable';
  try {
    const opened = await fh.stat();
    if (!sameFile(opened, before) || !opened.isFile()) return 'unreadable';
    const bytes = await fh.readFile();
    if (bytes.length > MAX_SEARCH_FILE_BYTES) return 'tooLarge';
    if (bytes.subarray(0, 8192).includes(0)) return 'binary';
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return 'binary';
    }
  } catch {
    return 'unreadable';
  } finally {
    await fh.close();
  }
}

export const fileSearchFunction = defineFunction<SearchArgs, FileSearchValue>({
  name: 'core.fileSearch',
  availability: needsWorkspace,
  description:
    'Search the contents of text files in the workspace folder (workspaceRoot) for a regular expression, like grep: each match with its file, line, column ' +
    'and optional context lines. The pattern runs in linear time (no backreferences or lookaround). Binary files and files over 4 MiB are skipped and counted.',
  argSchema: {
    type: 'object',
    properties: {
      pattern: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_SEARCH_PATTERN,
        description: "A regular expression in JavaScript syntax, matched against each line, e.g. 'TODO|FIXME' or 'function\\s+\\w+'.",
      },
      path: { ...workspacePathArg("The folder to search, e.g. 'src'; '.' for the workspace root."), default: '.' },
      glob: {
        type: 'string',
        minLength: 1,
        maxLength: 1000,
        description: `Search only files whose path matches this glob, e.g. '**/*.ts' (${globPatternDescription}).`,
      },
      exclude: excludeArg,
      caseInsensitive: { type: 'boolean', default: false, description: 'Ignore case.' },
      literal: { type: 'boolean', default: false, description: 'Treat the pattern as plain text, not a regular expression.' },
      contextLines: { type: 'integer', minimum: 0, maximum: 10, default: 0, description: 'Lines of context to return before and after each match.' },
      maxMatches: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_MATCHES, default: 100, description: 'Stop after this many matching lines.' },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'The pattern as given.' },
      matches: {
        type: 'array',
        description: 'Matching lines in path order, then line order.',
        items: {
          type: 'object',
          properties: {
            path: { type: 'string', description: 'The file, relative to the workspace root.' },
            line: { type: 'integer', minimum: 1, description: 'Line number (1-based).' },
            column: { type: 'integer', minimum: 1, description: 'Where the first match on the line starts (1-based, UTF-16 units).' },
            text: { type: 'string', description: `The line (cut to ${MAX_LINE_CHARS} characters around the match).` },
            before: { type: 'array', items: { type: 'string' }, description: 'Context lines before it.' },
            after: { type: 'array', items: { type: 'string' }, description: 'Context lines after it.' },
          },
          required: ['path', 'line', 'column', 'text'],
          additionalProperties: false,
        },
      },
      filesSearched: { type: 'integer', minimum: 0, description: 'Text files whose content was searched.' },
      filesMatched: { type: 'integer', minimum: 0, description: 'Files with at least one match returned.' },
      truncated: {
        type: 'boolean',
        description: 'True when the search stopped before the end: maxMatches reached, the answer grew too large, or the walk stopped (see note).',
      },
      skipped: {
        type: 'object',
        description: 'Files not searched, by reason.',
        properties: {
          binary: { type: 'integer', minimum: 0, description: 'Not UTF-8 text.' },
          tooLarge: { type: 'integer', minimum: 0, description: 'Over 4 MiB.' },
          unreadable: { type: 'integer', minimum: 0, description: 'Could not be read (permissions, removed meanwhile).' },
        },
        required: ['binary', 'tooLarge', 'unreadable'],
        additionalProperties: false,
      },
      note: { type: 'string', description: 'Why the search stopped early, when it did.' },
    },
    required: ['pattern', 'matches', 'filesSearched', 'filesMatched', 'truncated', 'skipped'],
    additionalProperties: false,
  },
  safety: 'readOnly',
  async run(args, ctx) {
    const { pattern, path: input = '.', exclude = DEFAULT_EXCLUDES, caseInsensitive = false, literal = false, contextLines = 0, maxMatches = 100 } = args;
    const re = compilePattern(pattern, literal, caseInsensitive ? 'i' : '');
    // The same pattern over a whole file, '^' and '$' at each line: a file without a match costs one pass.
    const anyLine = compilePattern(pattern, literal, caseInsensitive ? 'im' : 'm');
    const only = args.glob === undefined ? undefined : globArg(args.glob, 'args.glob');
    const excludes = exclude.map((g, i) => globArg(g, `args.exclude[${i}]`));
    const folder = await searchFolder(ctx.config.workspaceRoot, input, 'core.fileSearch');

    const value: FileSearchValue = {
      pattern,
      matches: [],
      filesSearched: 0,
      filesMatched: 0,
      truncated: false,
      skipped: { binary: 0, tooLarge: 0, unreadable: 0 },
    };
    let chars = 0;
    let stopped: string | undefined;
    const stats = await walk(folder.real, { signal: ctx.signal, exclude: excludes }, async (e) => {
      if (e.type !== 'file' || (only && !only.test(e.rel))) return true;
      const text = await readText(e.full);
      if (typeof text !== 'string' || text === 'binary' || text === 'tooLarge' || text === 'unreadable') {
        value.skipped[text as keyof FileSearchValue['skipped']]++;
        return true;
      }
      value.filesSearched++;
      const normalised = text.includes('\r') ? text.replace(/\r\n/g, '\n') : text;
      if (!anyLine.test(normalised)) return true;
      const lines = normalised.split('\n');
      if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
      let matchedHere = false;
      for (let i = 0; i < lines.length; i++) {
        if (ctx.signal.aborted) throw cancelledError();
        const m = re.exec(lines[i]!);
        if (!m) continue;
        if (value.matches.length >= maxMatches) {
          stopped = `stopped at maxMatches (${maxMatches})`;
          return false;
        }
        const match: SearchMatch = { path: fromRoot(folder.display, e.rel), line: i + 1, column: m.index + 1, text: clipLine(lines[i]!, m.index) };
        if (contextLines > 0) {
          match.before = lines.slice(Math.max(0, i - contextLines), i).map((l) => clipLine(l));
          match.after = lines.slice(i + 1, i + 1 + contextLines).map((l) => clipLine(l));
        }
        chars += match.text.length + (match.before?.join('').length ?? 0) + (match.after?.join('').length ?? 0);
        if (chars > MAX_SEARCH_OUTPUT_CHARS) {
          stopped = `stopped once the answer reached ${MAX_SEARCH_OUTPUT_CHARS} characters; narrow the pattern or lower contextLines`;
          return false;
        }
        value.matches.push(match);
        matchedHere = true;
      }
      if (matchedHere) value.filesMatched++;
      return true;
    });
    const note = stopped ?? truncationNote(stats);
    if (note) {
      value.truncated = true;
      value.note = note;
    }
    const rows = value.matches
      .slice(0, 100)
      .map((m) => `<tr><td>${escapeHtml(`${m.path}:${m.line}`)}</td><td><code>${escapeHtml(m.text.slice(0, 200))}</code></td></tr>`)
      .join('');
    return {
      value,
      card: {
        title: `${pattern}: ${value.matches.length}${value.truncated ? '+' : ''} match${value.matches.length === 1 ? '' : 'es'} in ${value.filesMatched} file${value.filesMatched === 1 ? '' : 's'}`,
        html: `<table>${rows}</table>`,
        text: `${value.matches.length} matches`,
      },
    };
  },
});
