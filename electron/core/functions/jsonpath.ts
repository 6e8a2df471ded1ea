/**
 * core.jsonpath: a JSONPath query over a JSON document. jsonpath-plus is the maintained,
 * widely used implementation; it runs with eval disabled because its script and filter
 * evaluation (?(...), (...)) has had code-execution CVEs (e.g. CVE-2024-21534). Names,
 * indexes, slices, unions, wildcards and recursive descent all work without it.
 */
import { JSONPath } from 'jsonpath-plus';
import { CoreError } from '../errors.js';
import { defineFunction } from './types.js';
import { clip, preBlock } from './html.js';

export const MAX_JSON_TEXT_LENGTH = 5 * 1024 * 1024;
export const MAX_PATH_LENGTH = 2048;
const DEFAULT_MAX_RESULTS = 1000;

function badArgs(field: string, message: string): CoreError {
  return new CoreError('INVALID_ARGS', `${field}: ${message}`, { issues: [{ field: `args.${field}`, message }] });
}

const SCRIPTS_DISABLED =
  'filter and script expressions (?(...) and (...)) are disabled because they execute code; select with names, indexes, slices, unions, * and .. instead';

/** jsonpath-plus is lenient about broken brackets (it may answer the whole document); check them first. */
function checkPath(path: string): void {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < path.length; i++) {
    const ch = path[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (depth > 0 && (ch === "'" || ch === '"')) quote = ch;
    else if (ch === '[') depth++;
    else if (ch === ']') {
      if (depth === 0) throw badArgs('path', `unexpected ']' at ${i + 1}`);
      depth--;
    }
  }
  if (quote) throw badArgs('path', `unterminated ${quote} quote`);
  if (depth > 0) throw badArgs('path', "missing ']': a '[' is never closed");
}

/** Deeper documents overflow the stack in jsonpath-plus and in JSON.stringify; real data is far shallower. */
export const MAX_JSON_DEPTH = 256;

/** Depth of a JSON value, measured without recursion (stops counting past the limit). */
function depthExceeds(doc: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[doc, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

interface JsonPathArgs {
  path: string;
  json?: unknown;
  jsonText?: string;
  maxResults?: number;
}

interface JsonPathMatch {
  path: string;
  pointer: string;
  value: unknown;
}

export const jsonPathFunction = defineFunction<JsonPathArgs, { count: number; truncated: boolean; results: JsonPathMatch[] }>({
  name: 'core.jsonpath',
  description:
    'Query a JSON document with JSONPath (e.g. $.store.book[*].title, $..price, $.items[0:3]). Filter and script expressions are disabled for safety.',
  argSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, maxLength: MAX_PATH_LENGTH, description: "JSONPath expression, e.g. '$.store.book[*].author' or '$..id'." },
      json: { description: `The document as a JSON value (object, array, …), at most ${MAX_JSON_DEPTH} levels deep. Give either json or jsonText.` },
      jsonText: {
        type: 'string',
        maxLength: MAX_JSON_TEXT_LENGTH,
        description: `The document as JSON text, parsed first (at most ${MAX_JSON_TEXT_LENGTH} characters). Give either json or jsonText.`,
      },
      maxResults: { type: 'integer', minimum: 1, maximum: 10000, default: DEFAULT_MAX_RESULTS, description: 'At most this many matches are returned.' },
    },
    required: ['path'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      count: { type: 'integer', minimum: 0, description: 'Number of matches in the document (before maxResults).' },
      truncated: { type: 'boolean', description: 'True when more matches exist than were returned.' },
      results: {
        type: 'array',
        description: 'The matches in document order.',
        items: {
          type: 'object',
          properties: {
            path: { type: 'string', description: "Normalised JSONPath of the match, e.g. $['a'][0]." },
            pointer: { type: 'string', description: 'JSON Pointer (RFC 6901) of the match, e.g. /a/0.' },
            value: { description: 'The matched value.' },
          },
          required: ['path', 'pointer', 'value'],
          additionalProperties: false,
        },
      },
    },
    required: ['count', 'truncated', 'results'],
    additionalProperties: false,
  },
  safety: 'readOnly',
  run({ path, json, jsonText, maxResults = DEFAULT_MAX_RESULTS }) {
    const hasJson = json !== undefined;
    const hasText = jsonText !== undefined;
    if (hasJson === hasText) {
      throw new CoreError('INVALID_ARGS', 'give exactly one of json (a JSON value) or jsonText (JSON as a string)', {
        issues: [{ field: 'args', message: 'give exactly one of json or jsonText' }],
      });
    }
    let doc: unknown = json;
    if (hasText) {
      try {
        doc = JSON.parse(jsonText!);
      } catch (e) {
        throw badArgs('jsonText', `is not valid JSON: ${(e as Error).message}`);
      }
    }
    if (depthExceeds(doc, MAX_JSON_DEPTH)) {
      throw badArgs(hasText ? 'jsonText' : 'json', `nests deeper than ${MAX_JSON_DEPTH} levels; query a smaller part of the document`);
    }
    checkPath(path);
    let raw: { path: string; pointer: string; value: unknown }[];
    try {
      // jsonpath-plus answers nothing for a falsy document (null, 0, false, ""); only the root selects a scalar.
      if (!doc) raw = path.trim() === '$' ? [{ path: '$', pointer: '', value: doc }] : [];
      else raw = JSONPath({ path, json: doc as object, eval: false, resultType: 'all', wrap: true }) ?? [];
    } catch (e) {
      const message = (e as Error).message;
      if (/prevented/i.test(message)) throw badArgs('path', SCRIPTS_DISABLED);
      throw badArgs('path', `cannot be evaluated: ${message}`);
    }
    const results = raw.slice(0, maxResults).map((r) => ({ path: r.path, pointer: r.pointer, value: r.value }));
    const value = { count: raw.length, truncated: raw.length > results.length, results };
    const preview = clip(
      JSON.stringify(
        results.map((r) => r.value),
        null,
        2,
      ),
      4000,
    );
    return {
      value,
      card: { title: `${value.count} match${value.count === 1 ? '' : 'es'}`, html: preBlock(preview), text: preview },
    };
  },
});
