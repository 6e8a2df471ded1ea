/** Turns an HTTP request into an operation's input, as the shared route table says. */
import type { FastifyRequest } from 'fastify';
import { LIST_QUERY_KEYS, BOOLEAN_QUERY_KEYS, INTEGER_QUERY_KEYS, STREAM_QUERY, type RestRoute } from '../../../shared/rest.js';

export function coerceQuery(route: RestRoute, query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of route.query ?? []) {
    let v = query[key];
    if (v === undefined) continue;
    if (LIST_QUERY_KEYS.has(key)) {
      const parts = (Array.isArray(v) ? v : [v])
        .flatMap((x) => String(x).split(','))
        .map((x) => x.trim())
        .filter(Boolean);
      out[key] = key === 'bundleIDs' || key === 'toolIDs' ? parts.map((p) => p.toLowerCase()) : parts;
      continue;
    }
    if (Array.isArray(v)) v = v[v.length - 1];
    if (BOOLEAN_QUERY_KEYS.has(key)) {
      // `?includeDisabled` alone, `True`, `1` and `yes` all mean true; anything unknown is left for the contract to refuse.
      const b = String(v).trim().toLowerCase();
      out[key] = b === '' || b === 'true' || b === '1' || b === 'yes' ? true : b === 'false' || b === '0' || b === 'no' ? false : v;
    } else if (INTEGER_QUERY_KEYS.has(key)) out[key] = /^\d{1,9}$/.test(String(v)) ? Number(v) : v;
    else out[key] = v;
  }
  return out;
}

/** Whether `?stream` asks for server-sent events (booleans as every query boolean is read). */
export function streamRequested(query: Record<string, unknown>): boolean | 'invalid' {
  let v = query[STREAM_QUERY];
  if (v === undefined) return false;
  if (Array.isArray(v)) v = v[v.length - 1];
  const b = String(v).trim().toLowerCase();
  if (b === '' || b === 'true' || b === '1' || b === 'yes') return true;
  if (b === 'false' || b === '0' || b === 'no') return false;
  return 'invalid';
}

export const BODY_NOT_OBJECT = Symbol('body is not a JSON object');

export function inputFor(route: RestRoute, req: FastifyRequest): Record<string, unknown> | typeof BODY_NOT_OBJECT {
  const params = (req.params ?? {}) as Record<string, string>;
  const input: Record<string, unknown> = {};
  if (route.body === '*') {
    if (req.body !== undefined && req.body !== null) {
      if (typeof req.body !== 'object' || Array.isArray(req.body)) return BODY_NOT_OBJECT;
      Object.assign(input, req.body as object);
    }
  } else if (route.body) input[route.body] = req.body ?? {};
  // The URL names the resource: a body key of the same name (bundleID, slug, a file's path…) never redirects the call.
  Object.assign(input, coerceQuery(route, (req.query ?? {}) as Record<string, unknown>));
  for (const p of route.params ?? []) input[p] = p === 'bundleID' ? String(params[p]).toLowerCase() : params[p];
  return input;
}
