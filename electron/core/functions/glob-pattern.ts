/**
 * Glob patterns (`src/**\/*.ts`, `*.{md,txt}`, `data/[0-9]?.csv`) compiled to a linear-time
 * matcher (RE2, shared/json-schema/linear-regex.ts), never to a backtracking RegExp: picomatch and
 * minimatch emit JavaScript RegExps whose time can explode on a path crafted against a pattern,
 * and the file functions run inside the app's process (docs/decisions.md).
 *
 * Syntax, matched against a path relative to the folder searched, '/' between names:
 * - `*` any run of characters within one name, `?` one character within a name;
 * - `**` as a whole name: any number of folders (zero included);
 * - `[abc]`, `[a-z]`, `[!abc]` / `[^abc]`: one character of (or not of) a set, never '/';
 * - `{a,b,c}`: alternatives, nestable (at most 256 expansions);
 * - `\` escapes the next character.
 * Wildcards match names that start with a dot too.
 */
import { compileLinear, LinearRegexError, type LinearRegex } from '../../../shared/json-schema/linear-regex.js';

export const MAX_GLOB_LENGTH = 1000;
const MAX_EXPANSIONS = 256;

export class GlobError extends Error {
  override readonly name = 'GlobError';
}

/** Brace alternatives expanded: `a{b,c}d` → [abd, acd]. */
export function expandBraces(pattern: string): string[] {
  let out: string[] = [''];
  let i = 0;
  const parseAlternatives = (): string[] => {
    // At the character after '{': read until the matching '}', split on top-level commas.
    const options: string[][] = [];
    let current: string[] = [''];
    while (i < pattern.length) {
      const c = pattern[i]!;
      if (c === '\\' && i + 1 < pattern.length) {
        current = current.map((s) => s + c + pattern[i + 1]);
        i += 2;
      } else if (c === '{') {
        i++;
        const inner = parseAlternatives();
        current = cross(current, inner);
      } else if (c === ',') {
        options.push(current);
        current = [''];
        i++;
      } else if (c === '}') {
        options.push(current);
        i++;
        const all = options.flat();
        if (all.length > MAX_EXPANSIONS) throw new GlobError(`expands to more than ${MAX_EXPANSIONS} alternatives; write fewer braces`);
        return all;
      } else {
        current = current.map((s) => s + c);
        i++;
      }
    }
    throw new GlobError("has a '{' without its '}'");
  };
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      out = out.map((s) => s + c + pattern[i + 1]);
      i += 2;
    } else if (c === '{') {
      i++;
      out = cross(out, parseAlternatives());
    } else if (c === '}') {
      throw new GlobError("has a '}' without its '{'");
    } else {
      out = out.map((s) => s + c);
      i++;
    }
  }
  return out;
}

function cross(left: string[], right: string[]): string[] {
  if (left.length * right.length > MAX_EXPANSIONS) throw new GlobError(`expands to more than ${MAX_EXPANSIONS} alternatives; write fewer braces`);
  return left.flatMap((l) => right.map((r) => l + r));
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

/** One brace-free glob as RE2 syntax (without anchors). */
function translate(glob: string): string {
  const names = glob.split('/');
  let out = '';
  for (let n = 0; n < names.length; n++) {
    const name = names[n]!;
    const last = n === names.length - 1;
    if (name === '**') {
      // Any number of whole names: "a/**/b" matches a/b and a/x/y/b; a trailing "**" everything below.
      out += last ? '.*' : '(?:[^/]*/)*';
      continue;
    }
    out += translateName(name);
    if (!last) out += '/';
  }
  return out;
}

function translateName(name: string): string {
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    if (c === '\\') {
      const next = name[i + 1];
      if (next === undefined) throw new GlobError('ends with a lone backslash');
      out += next.replace(REGEX_SPECIAL, '\\$&');
      i++;
    } else if (c === '*') {
      while (name[i + 1] === '*') i++;
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const close = name.indexOf(']', i + 2);
      if (close === -1) throw new GlobError(`has a '[' at position ${i} without its ']'`);
      let body = name.slice(i + 1, close);
      let negate = false;
      if (body.startsWith('!') || body.startsWith('^')) {
        negate = true;
        body = body.slice(1);
      }
      if (body === '') throw new GlobError(`has an empty character set at position ${i}`);
      const escaped = body.replace(/[\\\]^[]/g, (m) => (m === '\\' ? '\\\\' : '\\' + m)).replace(/\//g, '');
      out += negate ? `[^/${escaped}]` : `[${escaped}]`;
      i = close;
    } else {
      out += c.replace(REGEX_SPECIAL, '\\$&');
    }
  }
  return out;
}

export interface GlobMatcher {
  readonly pattern: string;
  /** Whether a relative path ('/' separators, no leading './') matches. */
  test(relativePath: string): boolean;
  /** The folder the pattern cannot match outside of (its leading literal names), '' for anywhere. */
  readonly base: string;
}

/** Compiles a glob; throws GlobError saying what is wrong with it. */
export function compileGlob(pattern: string): GlobMatcher {
  if (pattern.length === 0) throw new GlobError('is empty');
  if (pattern.length > MAX_GLOB_LENGTH) throw new GlobError(`is ${pattern.length} characters long; at most ${MAX_GLOB_LENGTH} are allowed`);
  if (pattern.includes('\0')) throw new GlobError('contains a NUL byte');
  const cleaned = pattern.replace(/^(\.\/)+/, '');
  if (cleaned.startsWith('/')) throw new GlobError("is absolute; write it relative to the folder searched, e.g. 'src/**/*.ts'");
  if (cleaned.split('/').includes('..')) throw new GlobError("contains '..'; a glob matches only inside the folder searched");
  const alternatives = expandBraces(cleaned);
  let re: LinearRegex;
  try {
    re = compileLinear(`^(?:${alternatives.map(translate).join('|')})$`, 's');
  } catch (e) {
    if (e instanceof LinearRegexError) throw new GlobError(e.message);
    throw e;
  }
  return { pattern, test: (p) => re.test(p), base: literalBase(alternatives) };
}

/** The leading names every alternative shares that hold no wildcard: where a walk may start. */
function literalBase(alternatives: string[]): string {
  const bases = alternatives.map((alt) => {
    const names = alt.split('/');
    const literal: string[] = [];
    for (const name of names.slice(0, -1)) {
      if (/[*?[\\]/.test(name)) break;
      literal.push(name);
    }
    return literal;
  });
  const first = bases[0]!;
  let shared = 0;
  while (shared < first.length && bases.every((b) => b[shared] === first[shared])) shared++;
  return first
    .slice(0, shared)
    .filter((n) => n !== '' && n !== '.')
    .join('/');
}
