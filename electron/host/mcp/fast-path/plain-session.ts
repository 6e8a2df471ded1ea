/**
 * Plain requests of a 2025-11-25 / 2025-06-18 session answered before the session's transport:
 * tools/list from a cached body, tools/call of a visible, unprivileged tool. On the SDK's path
 * every POST is converted Node → web Request → Node, zod-parsed, routed through the Protocol and
 * streamed back through a ReadableStream; for a quick function tool that costs more than the run.
 *
 * The answer is what the SDK's NodeStreamableHTTPServerTransport writes for a session without an
 * event store or JSON responses (ours): 200, its SSE headers (in the order a web Headers yields
 * them) with the session's id, and one `event: message` whose data is `{"result":…,"jsonrpc":"2.0","id":…}`;
 * a 2025 result carries neither `resultType` nor a serverInfo stamp. A call that runs longer than the
 * transport's keep-alive interval gets its `: keepalive` comments too.
 * test/electron/host/mcp/plain-session.test.ts holds the bytes against the SDK's, in both versions.
 *
 * Plain: a request (never a batch or notification) with no `_meta` (no progress token), nothing but
 * the params read here, both Accept types, a JSON body and a 2025 protocol-version header, in a
 * session whose initialize the server has handled. Anything else goes to the transport as before.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { specTypeSchemas, type CallToolResult, type Tool } from '@modelcontextprotocol/server';
import type { Caller } from '../../../../shared/caller.js';
import { isPlainObject } from '../../../../shared/plain-object.js';
import type { TransportCore } from '../../../core/operations/transport.js';
import { mcpCaller, requestAuth } from '../../http/request-caller.js';
import { callForAgent } from '../calls/agent-call.js';
import type { McpConnection } from '../server/mcp-server.js';
import type { AudienceWatch } from '../server/audience-watch.js';
import { header, plainEnvelope, streamableHeaders } from './plain-request.js';
import { plainTool } from './plain-call.js';

export const LEGACY_VERSIONS: ReadonlySet<string> = new Set(['2025-11-25', '2025-06-18']);
/** The SDK transport's default keep-alive interval for an open SSE answer (DEFAULT_SSE_KEEP_ALIVE_MS). */
const KEEP_ALIVE_MS = 15_000;
const NO_PARAMS: ReadonlySet<string> = new Set();
const CALL_PARAMS: ReadonlySet<string> = new Set(['name', 'arguments']);

/** What a session keeps for the calls answered before its transport. */
export interface PlainSession {
  id: string;
  connection: McpConnection;
  audience: AudienceWatch;
  /** Calls in flight by request id, for notifications/cancelled and the session's end. */
  calls: Map<string | number, AbortController>;
}

/** The id and params of a plain 2025 `method` request in an initialised session; else undefined. */
function plainSessionRequest(
  req: FastifyRequest,
  session: PlainSession,
  method: string,
  paramKeys: ReadonlySet<string>,
): { id: string | number; params: Record<string, unknown> } | undefined {
  const envelope = plainEnvelope(req, method);
  if (!envelope) return undefined;
  const { id } = envelope;
  const params = envelope.params ?? {};
  if (!isPlainObject(params) || Object.keys(params).some((k) => !paramKeys.has(k))) return undefined;

  if (!streamableHeaders(req)) return undefined;
  if (!LEGACY_VERSIONS.has(header(req, 'mcp-protocol-version') ?? '')) return undefined;
  // The transport knows the session from its initialize; the server, once it handled it.
  if (header(req, 'mcp-session-id') !== session.id || !session.connection.server.getClientVersion()) return undefined;
  // The same id in flight: the transport's bookkeeping decides what that means.
  if (session.calls.has(id)) return undefined;
  return { id, params };
}

/** The SDK transport's headers for a POST's SSE answer, in the order its web Headers iterates them. */
function sseHeaders(sessionID: string, length?: number): Record<string, string | number> {
  return {
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    ...(length === undefined ? {} : { 'content-length': length }),
    'content-type': 'text/event-stream',
    'mcp-session-id': sessionID,
    'x-accel-buffering': 'no',
  };
}

const EVENT_HEAD = 'event: message\ndata: {"result":';
const idTail = (id: string | number) => `,"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n\n`;

/** The head of a 2025 tools/list answer's event (up to the id), or undefined when the SDK would change the list for 2025. */
export function legacyListHead(tools: Tool[]): Buffer | undefined {
  // The 2025 codec wraps an outputSchema whose root is not an object; that list is the SDK's to write.
  if (tools.some((t) => t.outputSchema !== undefined && (t.outputSchema as { type?: unknown }).type !== 'object')) return undefined;
  return Buffer.from(`${EVENT_HEAD}${JSON.stringify({ tools })}`);
}

export interface SessionListCache {
  /** Answers a plain 2025 tools/list of the session from its audience's cached body; false when the request is not one. */
  answer(req: FastifyRequest, reply: FastifyReply, session: PlainSession): Promise<boolean>;
}

/** The caller of a session's request: its client (as it initialised), the profile of the address, the credential of the request. */
export function sessionCaller(req: FastifyRequest, session: PlainSession): Caller {
  return mcpCaller(session.connection.server.getClientVersion()?.name ?? 'unknown', requestAuth(req), session.audience.profileID);
}

/** One per audience: its sessions see the same list, so they share its bytes until the audience's list changes. */
export function createSessionListCache(audience: AudienceWatch): SessionListCache {
  // Keyed by the surface's tools array, which stays the same object until the list changes.
  const heads = new WeakMap<object, Buffer | null>();
  return {
    async answer(req, reply, session) {
      const plain = plainSessionRequest(req, session, 'tools/list', NO_PARAMS);
      if (!plain) return false;
      const described = (await audience.refresh(sessionCaller(req, session), await session.connection.via())).tools as Tool[];
      let head = heads.get(described);
      if (head === undefined) {
        head = legacyListHead(described) ?? null;
        heads.set(described, head);
      }
      if (head === null) return false;
      const tail = Buffer.from(idTail(plain.id));
      reply.hijack();
      reply.raw.writeHead(200, sseHeaders(session.id, head.length + tail.length));
      reply.raw.cork();
      reply.raw.write(head);
      reply.raw.end(tail);
      return true;
    },
  };
}

export interface PlainSessionCall {
  id: string | number;
  name: string;
  args: Record<string, unknown>;
}

/** The call, when the request is a plain 2025 tools/call of a tool the session's scope shows and runs without asking anyone; else undefined. */
export function plainSessionCall(req: FastifyRequest, session: PlainSession): PlainSessionCall | undefined {
  const plain = plainSessionRequest(req, session, 'tools/call', CALL_PARAMS);
  if (!plain) return undefined;
  const { name, arguments: args } = plain.params;
  if (typeof name !== 'string' || (args !== undefined && !isPlainObject(args))) return undefined;
  // At a search-mode profile, search_tools and describe_tools (read-only lookups) pass below; call_tool is listed destructive: the SDK's.
  const view = session.audience.view();
  // A privileged tool asks for approval through the session; an unknown one gets the SDK's error.
  if (!plainTool(view, name)) return undefined;
  // The SDK would send a log message on the answer's stream.
  if (session.connection.logsCalls()) return undefined;
  // A client that can answer an upstream server's questions gets them inside the call (an MCP
  // tool, or a pipeline step of one): the session's round trip, so the transport's.
  const capabilities = session.connection.server.getClientCapabilities();
  if (capabilities?.elicitation || capabilities?.sampling) return undefined;
  return { id: plain.id, name, args: args ?? {} };
}

/** A 2025 tools/call result as the SDK's Server writes it: contentless results get `content: []`, then the spec schema's shape. */
export function encodeLegacyCallResult(result: CallToolResult): CallToolResult {
  const withContent = result.content === undefined ? { ...result, content: [] } : result;
  const checked = specTypeSchemas.CallToolResult['~standard'].validate(withContent);
  if (checked.issues) throw new Error(`invalid tools/call result: ${checked.issues.map((i) => i.message).join('; ')}`);
  return checked.value as CallToolResult;
}

/** Answers the call; false (nothing written) when the core says it needs more than a plain run: the transport's to answer then. */
export async function answerSessionCall(
  core: TransportCore,
  session: PlainSession,
  call: PlainSessionCall,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  const res = reply.raw;
  const stop = new AbortController();
  session.calls.set(call.id, stop);
  // The agent went away: nobody can read the answer (no event store to resume from), so the run is cancelled.
  const onClose = () => {
    if (!res.writableFinished) stop.abort();
  };
  req.raw.socket.once('close', onClose);
  // As the transport does for an SSE answer still open: headers out, then a comment every interval.
  // The reply is taken over only then (or at the answer): until the core has said the call is plain, it may go to the transport.
  let taken = false;
  const take = () => {
    if (!taken) reply.hijack();
    taken = true;
  };
  const keepAlive = setInterval(() => {
    take();
    if (!res.headersSent) res.writeHead(200, sseHeaders(session.id));
    res.write(': keepalive\n\n');
  }, KEEP_ALIVE_MS);
  keepAlive.unref();
  let message: string;
  try {
    const outcome = await callForAgent(
      core,
      { audience: session.audience.ref, name: call.name, arguments: call.args, via: await session.connection.via(), plainOnly: true },
      sessionCaller(req, session),
      { signal: stop.signal, answerers: { person: true } },
    );
    if (outcome.kind !== 'result') {
      if (!taken) return false;
      message = JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32603, message: `tools/call ${call.name} could not be answered here` } });
    } else message = JSON.stringify({ result: encodeLegacyCallResult(outcome.result as CallToolResult), jsonrpc: '2.0', id: call.id });
  } catch (e) {
    // As the SDK answers a handler that threw: a JSON-RPC error with its message.
    core.logger.warn(`mcp: tools/call ${call.name}: ${(e as Error).message}`);
    message = JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32603, message: (e as Error).message } });
  } finally {
    clearInterval(keepAlive);
    req.raw.socket.off('close', onClose);
    session.calls.delete(call.id);
  }
  take();
  if (res.destroyed) return true;
  // A cancelled request gets no answer (the SDK drops it too); the stream ends without one.
  const event = stop.signal.aborted ? '' : `event: message\ndata: ${message}\n\n`;
  if (res.headersSent) {
    res.end(event);
    return true;
  }
  const bytes = Buffer.from(event);
  res.writeHead(200, sseHeaders(session.id, bytes.length));
  res.end(bytes);
  return true;
}

/** A plain-call's cancellation by its client: aborts the run when the notification names a call answered here. */
export function cancelSessionCall(req: FastifyRequest, session: PlainSession): void {
  const body = req.body;
  if (!isPlainObject(body) || body['method'] !== 'notifications/cancelled' || !isPlainObject(body['params'])) return;
  const requestId = body['params']['requestId'];
  if (typeof requestId === 'string' || typeof requestId === 'number') session.calls.get(requestId)?.abort();
}
