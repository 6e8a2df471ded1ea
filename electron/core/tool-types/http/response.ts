/** Turning an HTTP answer into the tool's value, and the exchange record shown to people. */
import type { HttpImpl, ToolFile } from '../../../../shared/schemas.js';
import type { HttpExchange } from '../../../../shared/types.js';
import { CoreError } from '../../errors.js';
import type { Extractor } from './extract.js';

/** Longest body kept in an exchange record (the value itself is bounded by the size cap). */
export const EXCHANGE_BODY_LIMIT = 64 * 1024;

export function clip(text: string, limit = EXCHANGE_BODY_LIMIT): { text: string; truncated: boolean } {
  return text.length > limit ? { text: text.slice(0, limit), truncated: true } : { text, truncated: false };
}

/** A short, single-line excerpt of a response body for an error message. */
export function excerpt(text: string, limit = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit)}…` : flat;
}

export function parseValue(impl: HttpImpl, extractor: Extractor | undefined, text: string, host: string): unknown {
  let value: unknown = text;
  if ((impl.responseEncoding ?? 'json') === 'json') {
    if (text.trim() === '') value = null;
    else {
      try {
        value = JSON.parse(text);
      } catch {
        throw new CoreError(
          'UPSTREAM_ERROR',
          `the response from ${host} is not valid JSON (${excerpt(text, 80)}); set responseEncoding to "text" if this API answers plain text`,
          {
            host,
            reason: 'invalid-json',
          },
        );
      }
    }
  }
  if (!extractor) return value;
  const result = extractor.apply(value, text);
  if (!result.found) {
    throw new CoreError('UPSTREAM_ERROR', `extractExpr ${extractor.expr} matched nothing in the response from ${host}`, { host, reason: 'no-match' });
  }
  return result.value;
}

/**
 * errorMode "empty": the value a failed call gives instead of an error. Chosen by the tool's
 * outputSchema type so that it still validates: [] for arrays, {} for objects, "" for strings,
 * null otherwise (and when the schema allows null).
 */
export function emptyValue(tool: Pick<ToolFile, 'outputSchema'>, impl: HttpImpl): unknown {
  const schema = tool.outputSchema as { type?: unknown } | boolean;
  const type = typeof schema === 'object' && schema !== null ? schema.type : undefined;
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  if (types.includes('null')) return null;
  if (types.includes('array')) return [];
  if (types.includes('object')) return {};
  if (types.includes('string')) return '';
  if (types.length === 0 && impl.responseEncoding === 'text') return '';
  return null;
}

export function newExchange(method: string, url: URL): HttpExchange {
  return { request: { method, url: url.href, headers: {} }, attempts: 0 };
}
