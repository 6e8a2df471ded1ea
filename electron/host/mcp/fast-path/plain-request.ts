/**
 * A plain 2026-07-28 request: one the SDK would serve as asked, with nothing it has to check or
 * negotiate beyond what is read here. Such a request of a few methods (tools/list, tools/call) is
 * answered before the SDK (list-cache.ts, plain-call.ts); anything else goes to the SDK as
 * before, which answers it or says what was wrong.
 *
 * Every header and envelope field the SDK checks must be present and well-formed, and nothing
 * else may be asked: no log level, progress token, task, request state or batch.
 */
import type { FastifyRequest } from 'fastify';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { isPlainObject } from '../../../../shared/plain-object.js';

export const MODERN_VERSION = '2026-07-28';
const REQUEST_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
const CLIENT_INFO_KEYS: ReadonlySet<string> = new Set(['name', 'version', 'title']);

export const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

/** A single JSON-RPC `method` request's id and params, when its envelope is plain (both eras); else undefined. */
export function plainEnvelope(req: FastifyRequest, method: string): { id: string | number; params: unknown } | undefined {
  const body = req.body;
  if (req.method !== 'POST' || !isPlainObject(body)) return undefined;
  if (body['jsonrpc'] !== '2.0' || body['method'] !== method) return undefined;
  const id = body['id'];
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return undefined;
  if (Object.keys(body).some((k) => !REQUEST_KEYS.has(k))) return undefined;
  return { id, params: body['params'] };
}

/** The Accept and Content-Type a Streamable HTTP POST must carry (both eras). */
export function streamableHeaders(req: FastifyRequest): boolean {
  const accept = header(req, 'accept') ?? '';
  return accept.includes('application/json') && accept.includes('text/event-stream') && (header(req, 'content-type') ?? '').startsWith('application/json');
}

export interface PlainModernRequest {
  id: string | number;
  /** The client's name from its envelope, for the connected-agents list. */
  client: string;
  /** The request's params, `_meta` (the envelope) among them. */
  params: Record<string, unknown>;
}

/** The request, when it is a plain 2026 `method` request whose params hold only `paramKeys` (and `_meta`); else undefined. */
export function plainModernRequest(req: FastifyRequest, method: string, paramKeys: ReadonlySet<string>): PlainModernRequest | undefined {
  const envelope = plainEnvelope(req, method);
  if (!envelope) return undefined;
  const { id, params } = envelope;
  if (!isPlainObject(params) || !isPlainObject(params['_meta'])) return undefined;
  if (Object.keys(params).some((k) => k !== '_meta' && !paramKeys.has(k))) return undefined;
  const meta = params['_meta'];
  if (Object.keys(meta).length !== 3 || meta[PROTOCOL_VERSION_META_KEY] !== MODERN_VERSION) return undefined;
  const clientInfo = meta[CLIENT_INFO_META_KEY];
  if (!isPlainObject(clientInfo) || typeof clientInfo['name'] !== 'string' || typeof clientInfo['version'] !== 'string') return undefined;
  if (Object.entries(clientInfo).some(([k, v]) => !CLIENT_INFO_KEYS.has(k) || typeof v !== 'string')) return undefined;
  if (!isPlainObject(meta[CLIENT_CAPABILITIES_META_KEY])) return undefined;

  if (!streamableHeaders(req)) return undefined;
  if (header(req, 'mcp-protocol-version') !== MODERN_VERSION || header(req, 'mcp-method') !== method) return undefined;
  return { id, client: clientInfo['name'], params };
}
