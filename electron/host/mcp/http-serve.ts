/**
 * The MCP server behind the `/mcp` routes (http-route.ts), loaded on the first request there.
 *
 * MCP over Streamable HTTP at `/mcp` on the headless host and the desktop app's port, for both
 * protocol eras on one address. The REST guard in front already checked Host/Origin (DNS
 * rebinding) and the bearer token.
 *
 * - 2026-07-28: stateless POSTs (version and capabilities on every request, `server/discover`,
 *   `subscriptions/listen` for list changes and schedule outputs) go to the SDK's handler of the
 *   request's audience, which builds a server per request over the audience's shared scope. A plain
 *   tools/list (list-cache.ts) and a plain tools/call of a quick tool (plain-call.ts) are answered
 *   before it, with the SDK's bytes, without the server, transport and conversions it builds per request.
 * - 2025-11-25 / 2025-06-18: sessions as before — POST (requests), GET (the stream that carries
 *   list_changed and other server messages), DELETE (end of session), one server per session. A
 *   plain tools/list (cached per audience) or tools/call of a quick tool is answered before the
 *   session's transport, with its bytes (plain-session.ts).
 *
 * `/mcp?bundles=slug,slug` limits the audience to some bundles; `/mcp/p/<slug>` serves a profile
 * (its tools, instructions and mode; the guard let in only its tokens or the host's).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { classifyInboundRequest, createMcpHandler, isInitializeRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpServer, serverIdentity, type McpConnection } from './mcp-server.js';
import { answerPlainCall, plainModernCall } from './plain-call.js';
import { answerPlainSearch, plainModernSearch } from './plain-search.js';
import { createMcpScope, scopeKey, type McpCore, type McpScope } from './scope.js';
import { createListCache, plainModernListRequest, type ListCache } from './list-cache.js';
import { answerSessionCall, cancelSessionCall, createSessionListCache, plainSessionCall, type PlainSession, type SessionListCache } from './plain-session.js';

/** Audiences (bundle sets) kept at once; the least recently used one without sessions goes first. */
const MAX_AUDIENCES = 64;

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  connection: McpConnection;
  audience: Audience;
  key: string;
  /** Set once the session has its id: what the requests answered before the transport need. */
  plain?: PlainSession;
}

interface Audience {
  scope: McpScope;
  modern: McpHttpHandler;
  serveModern: ReturnType<typeof toNodeHandler>;
  lists: ListCache;
  sessionLists: SessionListCache;
  sessions: number;
  stop(): Promise<void>;
}

/** Audience keys of profiles; bundle slugs never contain ':'. */
const PROFILE_KEY = 'profile:';

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

export function createMcpHttp(opts: { core: McpCore; version?: string }): McpHttp {
  const sessions = new Map<string, Session>();
  const identity = serverIdentity(opts.version);
  const audiences = new Map<string, Audience>();

  const audienceFor = (key: string): Audience => {
    const known = audiences.get(key);
    if (known) {
      // Most recently used last, so the first without sessions is the one to let go.
      audiences.delete(key);
      audiences.set(key, known);
      return known;
    }
    if (audiences.size >= MAX_AUDIENCES) {
      const idle = [...audiences].find(([, a]) => a.sessions === 0);
      if (idle) {
        audiences.delete(idle[0]);
        void idle[1].stop();
      }
    }
    const scope = createMcpScope(opts.core, key.startsWith(PROFILE_KEY) ? { profileID: key.slice(PROFILE_KEY.length) } : key ? key.split(',') : []);
    const modern = createMcpHandler(
      (ctx) => createMcpServer(opts.core, scope, { era: ctx.era, transport: 'http', ...(opts.version ? { version: opts.version } : {}) }).server,
      { legacy: 'reject', onerror: (e) => opts.core.logger.warn(`mcp: ${e.message}`) },
    );
    const unsubscribe = scope.onChange((change) => {
      if (change.kind === 'tools') modern.notify.toolsChanged();
      else if (change.kind === 'resources') modern.notify.resourcesChanged();
      else modern.notify.resourceUpdated(`toolwright://schedules/${change.scheduleID}/latest`);
    });
    const audience: Audience = {
      scope,
      modern,
      serveModern: toNodeHandler(modern),
      lists: createListCache(scope, modern),
      sessionLists: createSessionListCache(scope),
      sessions: 0,
      async stop() {
        unsubscribe();
        await modern.close?.();
        await scope.dispose();
      },
    };
    audiences.set(key, audience);
    return audience;
  };

  const close = async () => {
    await Promise.all(
      [...sessions.values()].map(async (s) => {
        await s.connection.dispose();
        await s.transport.close().catch(() => undefined);
      }),
    );
    sessions.clear();
    await Promise.all([...audiences.values()].map((a) => a.stop()));
    audiences.clear();
  };

  const serve = async (req: FastifyRequest, reply: FastifyReply, key: string) => {
    const plainList = plainModernListRequest(req);
    if (plainList && (await audienceFor(key).lists.answer(req, reply, plainList))) return reply;
    if (req.method === 'POST' && req.headers['mcp-method'] === 'tools/call') {
      const audience = audienceFor(key);
      const search = plainModernSearch(req, audience.scope);
      if (search) {
        answerPlainSearch(opts.core, audience.scope, identity, search, reply);
        return reply;
      }
      const call = plainModernCall(req, audience.scope);
      if (call) {
        await answerPlainCall(opts.core, audience.scope, identity, call, req, reply);
        return reply;
      }
    }
    if (req.method === 'POST' && !isLegacyPost(req)) {
      const audience = audienceFor(key);
      reply.hijack();
      await audience.serveModern(req.raw, reply.raw, req.body);
      return reply;
    }

    const sessionID = req.headers['mcp-session-id'];
    const id = Array.isArray(sessionID) ? sessionID[0] : sessionID;
    let session = id ? sessions.get(id) : undefined;
    // A session belongs to the address it began at: its ID opens nothing elsewhere.
    if (session && session.key !== key) session = undefined;
    if (id && !session) return jsonRpcError(reply, 404, -32001, `unknown or ended MCP session ${id}; initialize a new one`);
    if (!session) {
      if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
        return jsonRpcError(reply, 400, -32000, 'no MCP session: send an initialize request first (without an Mcp-Session-Id header)');
      }
      const audience = audienceFor(key);
      const connection = createMcpServer(opts.core, audience.scope, {
        era: 'legacy',
        transport: 'http',
        ...(opts.version ? { version: opts.version } : {}),
      });
      const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => {
          created.plain = { id: sid, connection, scope: audience.scope, calls: new Map() };
          sessions.set(sid, created);
          audience.sessions++;
        },
      });
      const created: Session = { transport, connection, audience, key };
      transport.onclose = () => {
        for (const call of created.plain?.calls.values() ?? []) call.abort();
        if (transport.sessionId && sessions.delete(transport.sessionId)) audience.sessions--;
        void connection.dispose();
      };
      await connection.server.connect(transport);
      session = created;
    } else if (req.method === 'POST' && session.plain) {
      // Plain requests of the session are answered before its transport (plain-session.ts).
      if (session.audience.sessionLists.answer(req, reply, session.plain)) return reply;
      const call = plainSessionCall(req, session.plain);
      if (call) {
        await answerSessionCall(opts.core, session.plain, call, req, reply);
        return reply;
      }
      cancelSessionCall(req, session.plain);
    }
    reply.hijack();
    await session.transport.handleRequest(req.raw, reply.raw, req.body);
    return reply;
  };

  return {
    serveBundles: (req, reply) => serve(req, reply, scopeKey(bundlesOf(req))),
    serveProfile: async (req, reply) => {
      const profile = opts.core.profileStore.bySlug((req.params as { slug: string }).slug);
      if (!profile) return jsonRpcError(reply, 404, -32001, `no profile '${(req.params as { slug: string }).slug}'; see GET /tools/profiles`);
      return serve(req, reply, PROFILE_KEY + profile.profileID);
    },
    close,
  };
}
