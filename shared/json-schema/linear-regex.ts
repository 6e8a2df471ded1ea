/**
 * Regular expressions written by tool authors (schema `pattern` and `patternProperties`, http
 * extract expressions) run on RE2 (re2js: pure JavaScript, no native build, no eval), whose
 * matching time is linear in the input. A backtracking engine would let one pattern such as
 * `^(a+)+$` freeze the whole process on a 30-character argument.
 *
 * Patterns are written in JavaScript's syntax (JSON Schema says ECMA-262); the few spellings RE2
 * writes differently are translated (`\uXXXX`, `\u{…}`, `(?<name>…)`). What RE2 cannot express
 * — backreferences (`\1`), lookaround (`(?=…)`, `(?<!…)`) — is refused with a message that says
 * so. Known differences that remain: `\s` is ASCII whitespace, `\b` is ASCII word boundary.
 */
import { RE2JS } from 're2js';

export class LinearRegexError extends Error {
  override readonly name = 'LinearRegexError';
}

export interface LinearRegex {
  readonly source: string;
  readonly flags: string;
  /** Whether the pattern matches anywhere in the text (RegExp.prototype.test). */
  test(text: string): boolean;
  /** The first match: [whole, group1, …] with `index`, or null. */
  exec(text: string): RegExpExecArray | null;
  /** Every non-overlapping match, in order. */
  matchAll(text: string): RegExpMatchArray[];
}

const HEX = /^[0-9a-fA-F]$/;

/** JavaScript pattern syntax → RE2 syntax, keeping the meaning; throws LinearRegexError for what RE2 lacks. */
export function toRe2Syntax(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const n = source[i + 1];
      if (n === undefined) throw new LinearRegexError('ends with a lone backslash');
      if (n === 'u') {
        if (source[i + 2] === '{') {
          const close = source.indexOf('}', i + 3);
          const hex = close > 0 ? source.slice(i + 3, close) : '';
          if (!/^[0-9a-fA-F]{1,6}$/.test(hex)) throw new LinearRegexError(`has an invalid \\u{…} escape at position ${i}`);
          out += `\\x{${hex}}`;
          i = close;
          continue;
        }
        const hex = source.slice(i + 2, i + 6);
        if (hex.length === 4 && [...hex].every((h) => HEX.test(h))) {
          out += `\\x{${hex}}`;
          i += 5;
          continue;
        }
        throw new LinearRegexError(`has an invalid \\u escape at position ${i} (write \\uXXXX with four hex digits)`);
      }
      if (/[1-9]/.test(n) && !inClass)
        throw new LinearRegexError(`uses a backreference (\\${n}), which cannot be matched in linear time; match the text without referring back to a group`);
      if (n === 'k' && source[i + 2] === '<') throw new LinearRegexError('uses a named backreference (\\k<…>), which cannot be matched in linear time');
      if (n === 'c') throw new LinearRegexError('uses a control-character escape (\\cX); write it as \\x01…\\x1A instead');
      if (n === '/') {
        out += '/';
        i++;
        continue;
      }
      out += c + n;
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      if (source.startsWith('[^]', i)) {
        out += '[\\x{0}-\\x{10FFFF}]';
        i += 2;
        continue;
      }
      inClass = true;
      out += c;
      // A ']' right after '[' or '[^' is a literal in RE2 but closes an empty class in JS; JS never means that.
      continue;
    }
    if (c === '(' && source[i + 1] === '?') {
      const look = source.slice(i + 2, i + 4);
      if (look.startsWith('=') || look.startsWith('!') || look === '<=' || look === '<!') {
        throw new LinearRegexError(
          'uses lookahead or lookbehind ((?=…), (?!…), (?<=…), (?<!…)), which cannot be matched in linear time; rewrite the pattern without it',
        );
      }
      if (source[i + 2] === '<') {
        out += '(?P<';
        i += 2;
        continue;
      }
    }
    out += c;
  }
  return out;
}

const FLAG_BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };

/** Compiles a JavaScript-syntax pattern to a linear-time matcher; throws LinearRegexError naming what is wrong. */
export function compileLinear(source: string, flags = ''): LinearRegex {
  let bits = 0;
  for (const f of flags) {
    if (Object.hasOwn(FLAG_BITS, f)) bits |= FLAG_BITS[f]!;
    else if (!'gyudv'.includes(f)) throw new LinearRegexError(`has an unsupported flag '${f}'`);
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(toRe2Syntax(source), bits);
  } catch (e) {
    if (e instanceof LinearRegexError) throw e;
    const why = e instanceof Error ? e.message.replace(/^error parsing regexp: /, '') : String(e);
    throw new LinearRegexError(`cannot be compiled for linear-time matching (${why}); backreferences and lookaround are not available`);
  }
  return {
    source,
    flags,
    test: (text) => re.test(text),
    exec: (text) => re.exec(text) as RegExpExecArray | null,
    matchAll: (text) => [...re.matchAll(text)],
  };
}

const cache = new Map<string, LinearRegex>();

/** compileLinear with a bounded cache: schemas and extract expressions repeat. */
export function linearRegex(source: string, flags = ''): LinearRegex {
  const key = `${flags}/${source}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = compileLinear(source, flags);
    if (cache.size >= 2000) cache.delete(cache.keys().next().value!);
    cache.set(key, hit);
  }
  return hit;
}
