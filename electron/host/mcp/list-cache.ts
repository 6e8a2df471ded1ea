/**
 * `tools/list` of a 2026-07-28 request answered from a cached body, before the SDK. With 10,000
 * tools the answer is 3.4 MB of JSON; the SDK builds a server per request, serialises the list
 * and converts the answer between web and Node streams each time, which costs several times the
 * serialisation alone. Here the SDK answers the first request after a change (so the bytes are
 * its own: `resultType`, `ttlMs`, `cacheScope`, `_meta` serverInfo stamped as it stamps them),
 * and the next ones get those bytes with their own id spliced in.
 *
 * Only a plain request takes this path: every header and envelope field the SDK checks must be
 * present and well-formed, nothing else may be asked (no cursor, no log level, no batch).
 * Anything else goes to the SDK as before, which answers it or says what was wrong.
 *
 * The cache is keyed by the scope's described list, which the scope builds anew on every change
 * it sees, so a change makes the old body unreachable at once.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { McpScope } from './scope.js';

const MODERN_VERSION = '2026-07-28';
const REQUEST_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
const CLIENT_INFO_KEYS: ReadonlySet<string> = new Set(['name', 'version', 'title']);
/** An id no client sends: it marks where a cached body's id goes. */
const SENTINEL_ID = 'toolwright-list-cache\u0000';
const SENTINEL_TAIL = `,"jsonrpc":"2.0","id":${JSON.stringify(SENTINEL_ID)}}`;

interface CachedList {
  /** The answer up to (not including) `,"jsonrpc":"2.0","id":…}`. */
  head: string;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

export interface PlainListRequest {
  id: string | number;
  client: string;
}

/** The id and client of a plain 2026 tools/list, one the SDK would answer with the list; else undefined. */
export function plainModernListRequest(req: FastifyRequest): PlainListRequest | undefined {
  const body = req.body;
  if (req.method !== 'POST' || !isPlainObject(body)) return undefined;
  if (body['jsonrpc'] !== '2.0' || body['method'] !== 'tools/list') return undefined;
  const id = body['id'];
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))) || id === SENTINEL_ID) return undefined;
  if (Object.keys(body).some((k) => !REQUEST_KEYS.has(k))) return undefined;
  const params = body['params'];
  if (!isPlainObject(params) || Object.keys(params).length !== 1 || !isPlainObject(params['_meta'])) return undefined;
  const meta = params['_meta'];
  if (Object.keys(meta).length !== 3 || meta[PROTOCOL_VERSION_META_KEY] !== MODERN_VERSION) return undefined;
  const clientInfo = meta[CLIENT_INFO_META_KEY];
  if (!isPlainObject(clientInfo) || typeof clientInfo['name'] !== 'string' || typeof clientInfo['version'] !== 'string') return undefined;
  if (Object.entries(clientInfo).some(([k, v]) => !CLIENT_INFO_KEYS.has(k) || typeof v !== 'string')) return undefined;
  if (!isPlainObject(meta[CLIENT_CAPABILITIES_META_KEY])) return undefined;

  const accept = header(req, 'accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (!(header(req, 'content-type') ?? '').startsWith('application/json')) return undefined;
  if (header(req, 'mcp-protocol-version') !== MODERN_VERSION || header(req, 'mcp-method') !== 'tools/list') return undefined;
  if (req.headers['mcp-name'] !== undefined) return undefined;
  return { id, client: clientInfo['name'] };
}

/** The request as the SDK's handler takes it, with the sentinel for its id. */
function sentinelRequest(req: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string' && name !== 'content-length') headers.set(name, value);
  }
  const body = JSON.stringify({ ...(req.body as Record<string, unknown>), id: SENTINEL_ID });
  return new Request(`http://localhost${req.url}`, { method: 'POST', headers, body });
}

export interface ListCache {
  /** Answers a plain 2026 tools/list from the cache (asking the SDK once per change); false when the request is not one. */
  answer(req: FastifyRequest, reply: FastifyReply, plain: PlainListRequest): Promise<boolean>;
}

export function createListCache(scope: McpScope, handler: McpHttpHandler): ListCache {
  const bodies = new WeakMap<object, CachedList>();

  const fill = async (req: FastifyRequest, key: object): Promise<CachedList | undefined> => {
    const res = await handler.fetch(sentinelRequest(req));
    if (res.status !== 200 || !(res.headers.get('content-type') ?? '').startsWith('application/json')) {
      await res.body?.cancel();
      return undefined;
    }
    const text = await res.text();
    if (!text.endsWith(SENTINEL_TAIL)) return undefined;
    const cached = { head: text.slice(0, -SENTINEL_TAIL.length) };
    bodies.set(key, cached);
    return cached;
  };

  return {
    async answer(req, reply, plain) {
      const key = scope.described();
      let cached = bodies.get(key);
      if (cached) void scope.agent(plain.client, 'http');
      else cached = await fill(req, key);
      if (!cached) return false;
      // Written as the SDK's answer is written: its content type exactly, no charset added.
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'application/json' });
      reply.raw.end(`${cached.head},"jsonrpc":"2.0","id":${JSON.stringify(plain.id)}}`);
      return true;
    },
  };
}
