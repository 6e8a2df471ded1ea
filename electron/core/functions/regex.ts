/** core.regexTest: JavaScript regular expressions against a text, matched in a sandboxed worker with a time budget. */
import { defineFunction, type FunctionDef } from './types.js';
import { escapeHtml, clip } from './html.js';
import { RegexSandbox, type RegexMatch } from './regex-sandbox.js';

export const MAX_PATTERN_LENGTH = 1000;
export const MAX_REGEX_TEXT_LENGTH = 1_000_000;
export const MAX_MATCHES = 1000;
const DEFAULT_MAX_MATCHES = 100;
const DEFAULT_TIMEOUT_MS = 1000;

interface RegexArgs {
  pattern: string;
  text: string;
  flags?: string;
  maxMatches?: number;
  timeoutMs?: number;
}

export interface RegexTestValue {
  pattern: string;
  flags: string;
  matched: boolean;
  count: number;
  truncated: boolean;
  matches: RegexMatch[];
}

function cardHtml(text: string, matches: RegexMatch[]): string {
  // Highlight the first matches within a clipped preview of the text.
  const limit = 2000;
  let html = '';
  let at = 0;
  for (const m of matches) {
    if (m.index >= limit) break;
    if (m.index < at) continue;
    html += escapeHtml(text.slice(at, m.index)) + `<mark>${escapeHtml(text.slice(m.index, Math.min(m.end, limit)))}</mark>`;
    at = Math.min(m.end, limit);
  }
  html += escapeHtml(text.slice(at, limit)) + (text.length > limit ? '…' : '');
  return `<pre>${html}</pre>`;
}

export function createRegexTestFunction(sandbox: RegexSandbox): FunctionDef<RegexArgs, RegexTestValue> {
  return defineFunction<RegexArgs, RegexTestValue>({
    name: 'core.regexTest',
    description:
      'Test a JavaScript regular expression against a text and list the matches with their capture groups and positions. ' +
      'Runs with a time budget, so a catastrophically backtracking pattern is stopped instead of hanging.',
    argSchema: {
      type: 'object',
      properties: {
        pattern: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_PATTERN_LENGTH,
          description: 'The pattern without slashes, e.g. (\\d{4})-(\\d{2}) for a year and month.',
        },
        text: { type: 'string', maxLength: MAX_REGEX_TEXT_LENGTH, description: `The text to search (at most ${MAX_REGEX_TEXT_LENGTH} characters).` },
        flags: {
          type: 'string',
          pattern: '^[gimsuvy]*$',
          maxLength: 7,
          default: 'g',
          description: "JavaScript flags: g (all matches; without it only the first), i, m, s, u, v, y. Default 'g'.",
        },
        maxMatches: { type: 'integer', minimum: 1, maximum: MAX_MATCHES, default: DEFAULT_MAX_MATCHES, description: 'Stop after this many matches.' },
        timeoutMs: { type: 'integer', minimum: 10, maximum: 5000, default: DEFAULT_TIMEOUT_MS, description: 'Time budget for the match in milliseconds.' },
      },
      required: ['pattern', 'text'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'The pattern as given.' },
        flags: { type: 'string', description: 'The flags used.' },
        matched: { type: 'boolean', description: 'Whether the pattern matched at least once.' },
        count: { type: 'integer', minimum: 0, description: 'Number of matches returned.' },
        truncated: { type: 'boolean', description: 'True when there were more than maxMatches matches.' },
        matches: {
          type: 'array',
          description: 'Matches in order. Positions are UTF-16 code-unit offsets, as in JavaScript.',
          items: {
            type: 'object',
            properties: {
              match: { type: 'string', description: 'The matched text.' },
              index: { type: 'integer', minimum: 0, description: 'Start offset of the match.' },
              end: { type: 'integer', minimum: 0, description: 'End offset (exclusive).' },
              groups: { type: 'array', items: { type: ['string', 'null'] }, description: 'Capture groups 1..n; null when a group did not take part.' },
              groupIndices: {
                type: 'array',
                items: { anyOf: [{ type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 }, { type: 'null' }] },
                description: '[start, end] of each capture group, or null.',
              },
              namedGroups: { type: 'object', additionalProperties: { type: ['string', 'null'] }, description: 'Named groups (?<name>…) by name.' },
            },
            required: ['match', 'index', 'end', 'groups', 'groupIndices', 'namedGroups'],
            additionalProperties: false,
          },
        },
      },
      required: ['pattern', 'flags', 'matched', 'count', 'truncated', 'matches'],
      additionalProperties: false,
    },
    safety: 'readOnly',
    async run({ pattern, text, flags = 'g', maxMatches = DEFAULT_MAX_MATCHES, timeoutMs = DEFAULT_TIMEOUT_MS }, ctx) {
      const outcome = await sandbox.run({ pattern, flags, text, maxMatches }, timeoutMs, ctx.signal);
      const value: RegexTestValue = {
        pattern,
        flags,
        matched: outcome.matches.length > 0,
        count: outcome.matches.length,
        truncated: outcome.truncated,
        matches: outcome.matches,
      };
      const title = value.matched ? `${value.count}${value.truncated ? '+' : ''} match${value.count === 1 ? '' : 'es'}` : 'No match';
      return { value, card: { title: `/${clip(pattern, 60)}/${flags}: ${title}`, html: cardHtml(text, outcome.matches), text: title } };
    },
  });
}

/** The process-wide sandbox behind the registered core.regexTest. */
export const defaultRegexSandbox = new RegexSandbox();
export const regexTestFunction = createRegexTestFunction(defaultRegexSandbox);
