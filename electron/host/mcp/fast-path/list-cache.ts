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
 * The cache is keyed by the surface's tools array (agents.surface), which the core keeps the same
 * object until the list changes, so a change makes the old body unreachable at once. Each request
 * still asks the core (the list may have changed; its client is listed among the connected agents).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { mcpCaller, requestAuth } from '../../http/request-caller.js';
import type { AudienceWatch } from '../server/audience-watch.js';
import { plainModernRequest } from './plain-request.js';

const NO_PARAMS: ReadonlySet<string> = new Set();
/** An id no client sends: it marks where a cached body's id goes. */
const SENTINEL_ID = 'toolwright-list-cache\u0000';
const SENTINEL_TAIL = `,"jsonrpc":"2.0","id":${JSON.stringify(SENTINEL_ID)}}`;

interface CachedList {
  /** The answer's bytes up to (not including) `,"jsonrpc":"2.0","id":…}`, written as they are to every answer. */
  head: Buffer;
}

export interface PlainListRequest {
  id: string | number;
  client: string;
}

/** The id and client of a plain 2026 tools/list (no cursor, no name header), one the SDK would answer with the list; else undefined. */
export function plainModernListRequest(req: FastifyRequest): PlainListRequest | undefined {
  const plain = plainModernRequest(req, 'tools/list', NO_PARAMS);
  if (!plain || plain.id === SENTINEL_ID || req.headers['mcp-name'] !== undefined) return undefined;
  return { id: plain.id, client: plain.client };
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

export function createListCache(audience: AudienceWatch, handler: McpHttpHandler): ListCache {
  const bodies = new WeakMap<object, CachedList>();

  const fill = async (req: FastifyRequest, key: object): Promise<CachedList | undefined> => {
    const res = await handler.fetch(sentinelRequest(req));
    if (res.status !== 200 || !(res.headers.get('content-type') ?? '').startsWith('application/json')) {
      await res.body?.cancel();
      return undefined;
    }
    const text = await res.text();
    if (!text.endsWith(SENTINEL_TAIL)) return undefined;
    const cached = { head: Buffer.from(text.slice(0, -SENTINEL_TAIL.length)) };
    bodies.set(key, cached);
    return cached;
  };

  return {
    async answer(req, reply, plain) {
      const key = (await audience.refresh(mcpCaller(plain.client, requestAuth(req), audience.profileID), { channel: 'http' })).tools;
      const cached = bodies.get(key) ?? (await fill(req, key));
      if (!cached) return false;
      // Written as the SDK's answer is written (its content type exactly, no charset added), the
      // shared head as it is: no per-request copy or encoding of megabytes.
      const tail = Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(plain.id)}}`);
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'application/json', 'content-length': cached.head.length + tail.length });
      reply.raw.cork();
      reply.raw.write(cached.head);
      reply.raw.end(tail);
      return true;
    },
  };
}
