/**
 * impl.extractExpr: a JSONPath (`$…`) over the parsed JSON response, or `/regex/flags` over the
 * response text.
 *
 * JSONPath: a definite path (`$.a.b[0]`) gives the one value it names and "matches nothing"
 * when it is absent; an indefinite path (`*`, `..`, unions `[0,1]`, slices `[1:3]`) always
 * gives an array, possibly empty. Filter and script expressions (`[?(…)]`, `[(…)]`) are
 * refused: jsonpath-plus runs them through an evaluator that has had code-execution CVEs, so
 * it is called with `eval: false`.
 *
 * Regex: the first capture group of the first match (the whole match when the pattern has no
 * group); with the `g` flag, an array of that for every match; `y` anchors it at the start. The
 * response text is untrusted and matching runs on the main thread, so patterns run on RE2
 * (linear time, shared/json-schema/linear-regex.ts); backreferences and lookaround are refused at save.
 */
import { JSONPath } from 'jsonpath-plus';
import { compileLinear, LinearRegexError, type LinearRegex } from '../../../../shared/json-schema/linear-regex.js';
import { CoreError } from '../../errors.js';

export type ExtractResult = { found: true; value: unknown } | { found: false };

export interface Extractor {
  readonly kind: 'jsonpath' | 'regex';
  readonly expr: string;
  /** JSONPath works on `json`, regex on `text`. */
  apply(json: unknown, text: string): ExtractResult;
}

function invalidExpr(expr: string, why: string): CoreError {
  return new CoreError('INVALID_INPUT', `impl.extractExpr '${expr}' ${why}`, {
    issues: [{ field: 'impl.extractExpr', message: why }],
  });
}

const INDEFINITE_COMPONENT = /^(\*|\.\.)$|[,:]/;

function compileJsonPath(expr: string): Extractor {
  let components: string[];
  try {
    components = JSONPath.toPathArray(expr);
  } catch (e) {
    throw invalidExpr(expr, `is not a valid JSONPath: ${(e as Error).message}`);
  }
  if (components.some((c) => c.startsWith('?(') || c.startsWith('('))) {
    throw invalidExpr(expr, 'uses a filter or script expression ([?(…)] or [(…)]), which is disabled for safety; select by names, indexes, * or .. instead');
  }
  const definite = !components.slice(1).some((c) => INDEFINITE_COMPONENT.test(c));
  return {
    kind: 'jsonpath',
    expr,
    apply(json) {
      const matches = JSONPath({ path: expr, json: json as object, eval: false, wrap: true }) as unknown[];
      if (!definite) return { found: true, value: matches };
      return matches.length === 0 ? { found: false } : { found: true, value: matches[0] };
    },
  };
}

function compileRegex(expr: string): Extractor {
  const close = expr.lastIndexOf('/');
  if (close <= 0) throw invalidExpr(expr, 'must be /pattern/flags (a closing slash is missing)');
  const source = expr.slice(1, close);
  const flags = expr.slice(close + 1);
  if (!/^[dgimsuvy]*$/.test(flags)) throw invalidExpr(expr, `has unsupported regex flags '${flags}' (use d, g, i, m, s, u, v or y)`);
  let re: LinearRegex;
  try {
    // Sticky (y) means "at the start"; RE2 has no lastIndex, so the pattern is anchored instead.
    re = compileLinear(flags.includes('y') ? `\\A(?:${source})` : source, flags.replace(/[gy]/g, ''));
  } catch (e) {
    throw invalidExpr(expr, e instanceof LinearRegexError ? e.message : `is not a valid regular expression: ${(e as Error).message}`);
  }
  const global = flags.includes('g');
  const pick = (m: RegExpMatchArray): string | undefined => (m.length > 1 ? m[1] : m[0]);
  return {
    kind: 'regex',
    expr,
    apply(_json, text) {
      if (global) return { found: true, value: re.matchAll(text).map(pick) };
      const m = re.exec(text);
      return m ? { found: true, value: pick(m) ?? null } : { found: false };
    },
  };
}

const cache = new Map<string, Extractor>();
const CACHE_LIMIT = 500;

/** Compiles (and caches) an extractExpr; throws INVALID_INPUT naming what is wrong. */
export function compileExtractExpr(expr: string): Extractor {
  const hit = cache.get(expr);
  if (hit) return hit;
  const trimmed = expr.trim();
  let extractor: Extractor;
  if (trimmed.startsWith('$')) extractor = compileJsonPath(trimmed);
  else if (trimmed.startsWith('/')) extractor = compileRegex(trimmed);
  else throw invalidExpr(expr, 'must be a JSONPath starting with $ (e.g. $.current.temp) or a /regex/ with a capture group');
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(expr, extractor);
  return extractor;
}
