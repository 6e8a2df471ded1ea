/**
 * The MCP server behind the `/mcp` routes (http-route.ts), loaded on the first request there.
 *
 * MCP over Streamable HTTP at `/mcp` on the headless host and the desktop app's port, for both
 * protocol eras on one address, beside REST. The guard in front (http/guard.ts) already checked
 * Host/Origin (DNS rebinding) and the bearer token. Everything an agent asks goes to the core's
 * agent door (agents.* operations of the dispatcher), for the caller the request names.
 *
 * - 2026-07-28: stateless POSTs (version and capabilities on every request, `server/discover`,
 *   `subscriptions/listen` for list changes and schedule outputs) go to the SDK's handler of the
 *   request's audience, which builds a server per request over the audience's watch. A plain
 *   tools/list (fast-path/list-cache.ts) and a plain tools/call of a quick tool (fast-path/plain-call.ts) are answered
 *   before it, with the SDK's bytes, without the server, transport and conversions it builds per request.
 * - 2025-11-25 / 2025-06-18: sessions as before — POST (requests), GET (the stream that carries
 *   list_changed and other server messages), DELETE (end of session), one server per session. A
 *   plain tools/list (cached per audience) or tools/call of a quick tool is answered before the
 *   session's transport, with its bytes (fast-path/plain-session.ts). A session answers only the
 *   address and the principal (shared/caller.ts) that began it.
 *
 * `/mcp?bundles=slug,slug` limits the audience to some bundles; `/mcp/p/<slug>` serves a profile
 * (its tools, instructions and mode; the guard let in only its tokens or the host's).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { classifyInboundRequest, createMcpHandler, isInitializeRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { principalKey } from '../../../../shared/caller.js';
import type { TransportCore } from '../../../core/operations/transport.js';
import { credentialOf, requestAuth } from '../../http/request-caller.js';
import { createMcpServer, serverIdentity, type McpConnection } from '../server/mcp-server.js';
import { AudienceGone, watchAudience, type AudienceRef, type AudienceWatch } from '../server/audience-watch.js';
import { answerPlainCall, plainModernCall } from '../fast-path/plain-call.js';
import { createListCache, plainModernListRequest, type ListCache } from '../fast-path/list-cache.js';
import {
  answerSessionCall,
  cancelSessionCall,
  createSessionListCache,
  plainSessionCall,
  type PlainSession,
  type SessionListCache,
} from '../fast-path/plain-session.js';

/** Audiences (addresses) followed at once; the least recently used one without sessions goes first. */
const MAX_AUDIENCES = 64;

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  connection: McpConnection;
  audience: Audience;
  key: string;
  /** The principal that began it (shared/caller.ts): the session answers no other. */
  principal: string;
  /** Set once the session has its id: what the requests answered before the transport need. */
  plain?: PlainSession;
}

interface Audience {
  watch: AudienceWatch;
  modern: McpHttpHandler;
  serveModern: ReturnType<typeof toNodeHandler>;
  lists: ListCache;
  sessionLists: SessionListCache;
  sessions: number;
  stop(): Promise<void>;
}

function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.code(status).type('application/json').send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

function bundlesOf(req: FastifyRequest): string[] {
  const raw = (req.query as Record<string, unknown>)['bundles'];
  return typeof raw === 'string'
    ? raw
        .split(',')
        .map((b) => b.trim())
        .filter(Boolean)
    : [];
}

const headerText = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

const optional = <K extends string>(key: K, value: string | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, string>));

/** The transport's own look at a profile's door, before any client has spoken. */
const DOOR = Object.freeze({ transport: 'mcp' as const, name: 'toolwright' });

/** Whose request this is, as far as binding goes: the credential that opened the door. */
const principalOf = (req: FastifyRequest) => principalKey({ transport: 'mcp', name: '', ...credentialOf(requestAuth(req)) });

/**
 * Whether the SDK's isLegacyRequest would say so, without the web Request it takes: building one
 * per POST (headers copied over) cost more than the classification itself. The SDK's own
 * classifier, on the same headers and the already-parsed body, so the two cannot disagree.
 */
function isLegacyPost(req: FastifyRequest): boolean {
  if (req.body === undefined) return true; // no JSON body: the legacy transport says what was wrong
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    body: req.body,
    ...optional('protocolVersionHeader', headerText(req, 'mcp-protocol-version')),
    ...optional('mcpMethodHeader', headerText(req, 'mcp-method')),
    ...optional('mcpNameHeader', headerText(req, 'mcp-name')),
  });
  return outcome.kind === 'legacy';
}

export interface McpHttp {
  /** `/mcp` (`?bundles=` limits the audience). */
  serveBundles(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
  /** `/mcp/p/<slug>`. */
  serveProfile(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
  /** Ends sessions and audiences: before the server waits for its connections, which open GET and listen streams would hold forever. */
  close(): Promise<void>;
}

export function createMcpHttp(opts: { core: TransportCore; version?: string }): McpHttp {
  const { core } = opts;
  const sessions = new Map<string, Session>();
  const identity = serverIdentity(opts.version);
  const audiences = new Map<string, Promise<Audience>>();

  const open = async (ref: AudienceRef): Promise<Audience> => {
    const watch = await watchAudience(core, ref);
    const modern = createMcpHandler(
      (ctx) => createMcpServer(core, watch, { era: ctx.era, transport: 'http', ...(opts.version ? { version: opts.version } : {}) }).server,
      { legacy: 'reject', onerror: (e) => core.logger.warn(`mcp: ${e.message}`) },
    );
    const unsubscribe = watch.onChange((change) => {
      if (change.kind === 'tools') modern.notify.toolsChanged();
      else if (change.kind === 'resources') modern.notify.resourcesChanged();
      else modern.notify.resourceUpdated(`toolwright://schedules/${change.scheduleID}/latest`);
    });
    return {
      watch,
      modern,
      serveModern: toNodeHandler(modern),
      lists: createListCache(watch, modern),
      sessionLists: createSessionListCache(watch),
      sessions: 0,
      async stop() {
        unsubscribe();
        await modern.close?.();
        watch.dispose();
      },
    };
  };

  /** The address's audience, followed from its first request; AudienceGone for a profile that does not exist. */
  const audienceFor = async (key: string, ref: AudienceRef): Promise<Audience> => {
    const known = audiences.get(key);
    if (known) {
      // Most recently used last, so the first without sessions is the one to let go.
      audiences.delete(key);
      audiences.set(key, known);
      return known;
    }
    if (audiences.size >= MAX_AUDIENCES) {
      for (const [idleKey, idle] of audiences) {
        const a = await idle.catch(() => undefined);
        if (a && a.sessions > 0) continue;
        audiences.delete(idleKey);
        void a?.stop();
        break;
      }
    }
    const opening = open(ref);
    audiences.set(key, opening);
    opening.catch(() => audiences.delete(key));
    return opening;
  };

  const close = async () => {
    await Promise.all(
      [...sessions.values()].map(async (s) => {
        await s.connection.dispose();
        await s.transport.close().catch(() => undefined);
      }),
    );
    sessions.clear();
    const open = await Promise.all([...audiences.values()].map((a) => a.catch(() => undefined)));
    audiences.clear();
    await Promise.all(open.map((a) => a?.stop()));
  };

  const serve = async (req: FastifyRequest, reply: FastifyReply, key: string, ref: AudienceRef) => {
    let audience: Audience;
    try {
      audience = await audienceFor(key, ref);
    } catch (e) {
      if (e instanceof AudienceGone) return jsonRpcError(reply, 404, -32001, e.message);
      throw e;
    }
    const plainList = plainModernListRequest(req);
    if (plainList && (await audience.lists.answer(req, reply, plainList))) return reply;
    if (req.method === 'POST' && req.headers['mcp-method'] === 'tools/call') {
      const call = plainModernCall(req, audience.watch.view());
      if (call && (await answerPlainCall(core, audience.watch, identity, call, req, reply))) return reply;
    }
    const sessionID = req.headers['mcp-session-id'];
    const id = Array.isArray(sessionID) ? sessionID[0] : sessionID;
    let session = id ? sessions.get(id) : undefined;
    // A session belongs to the address it began at and to the principal that began it: its ID opens nothing else.
    if (session && (session.key !== key || session.principal !== principalOf(req))) session = undefined;
    // Plain requests of a session are answered before its transport (fast-path/plain-session.ts),
    // and before the era's classification: a plain one names a 2025 version and carries no
    // envelope, which the SDK's classifier calls legacy every time (its zod checks were ~3 % of a call).
    if (req.method === 'POST' && session?.plain) {
      if (await session.audience.sessionLists.answer(req, reply, session.plain)) return reply;
      const call = plainSessionCall(req, session.plain);
      if (call && (await answerSessionCall(core, session.plain, call, req, reply))) return reply;
    }
    if (req.method === 'POST' && !isLegacyPost(req)) {
      // The server built for this request reads the audience's instructions and mode as they are now.
      await audience.watch.refresh();
      reply.hijack();
      await audience.serveModern(req.raw, reply.raw, req.body);
      return reply;
    }

    if (id && !session) return jsonRpcError(reply, 404, -32001, `unknown or ended MCP session ${id}; initialize a new one`);
    if (!session) {
      if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
        return jsonRpcError(reply, 400, -32000, 'no MCP session: send an initialize request first (without an Mcp-Session-Id header)');
      }
      await audience.watch.refresh();
      const connection = createMcpServer(core, audience.watch, {
        era: 'legacy',
        transport: 'http',
        ...(opts.version ? { version: opts.version } : {}),
      });
      const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => {
          created.plain = { id: sid, connection, audience: audience.watch, calls: new Map() };
          sessions.set(sid, created);
          audience.sessions++;
        },
      });
      const created: Session = { transport, connection, audience, key, principal: principalOf(req) };
      transport.onclose = () => {
        for (const call of created.plain?.calls.values() ?? []) call.abort();
        if (transport.sessionId && sessions.delete(transport.sessionId)) audience.sessions--;
        void connection.dispose();
      };
      await connection.server.connect(transport);
      session = created;
    } else if (req.method === 'POST' && session.plain) {
      cancelSessionCall(req, session.plain);
    }
    reply.hijack();
    await session.transport.handleRequest(req.raw, reply.raw, req.body);
    return reply;
  };

  return {
    serveBundles: (req, reply) => {
      const bundles = [...new Set(bundlesOf(req))].sort();
      return serve(req, reply, `bundles:${bundles.join(',')}`, { bundles });
    },
    serveProfile: async (req, reply) => {
      const slug = (req.params as { slug: string }).slug;
      // A profile removed closes its address at once, whatever its audience still holds.
      const door = await core.dispatch('agents.door', { profile: slug }, { caller: DOOR });
      if (!door.ok || !door.data.exists) return jsonRpcError(reply, 404, -32001, `no profile '${slug}'; see GET /tools/profiles`);
      return serve(req, reply, `profile:${slug}`, { profile: slug });
    },
    close,
  };
}
