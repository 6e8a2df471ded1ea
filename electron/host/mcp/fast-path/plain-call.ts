/**
 * A plain 2026-07-28 `tools/call` answered before the SDK. The SDK builds a server per request,
 * converts the request and the answer between Node and web streams, and classifies, validates and
 * routes the message through its transport: several times the cost of the run of a quick function
 * tool. A plain call (plain-request.ts) of a visible, unprivileged tool needs none of what that
 * machinery is for (no progress, log level, task extension or approval round), so here it
 * is the same operation the SDK's handler calls — agents.call, here with `plainOnly`, so the core
 * hands anything more back to the SDK — encoded as the SDK encodes a 2026 result: validated by the spec's
 * CallToolResult schema (which also fixes its key order), `resultType: "complete"` and the
 * server's identity in `_meta` stamped. test/electron/host/mcp/plain-call.test.ts holds the
 * answers byte for byte against the SDK's.
 *
 * At a search-mode profile, search_tools and describe_tools are answered here too (issue 34: p95 ≤ 10
 * ms at 12,828 tools; they are lookups in the audience's index); call_tool goes to the SDK.
 *
 * Anything else, an unknown tool among it (the SDK's error says what to do), goes to the SDK.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SERVER_INFO_META_KEY, specTypeSchemas, type CallToolResult, type Implementation } from '@modelcontextprotocol/server';
import { hasTaskClientCapabilityV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import type { AgentSurfaceView, AgentToolJson } from '../../../../shared/agents/surface.js';
import { isPlainObject } from '../../../../shared/plain-object.js';
import type { TransportCore } from '../../../core/operations/transport.js';
import { mcpCaller, requestAuth } from '../../http/request-caller.js';
import { callForAgent } from '../calls/agent-call.js';
import type { AudienceWatch } from '../server/audience-watch.js';
import { plainModernRequest } from './plain-request.js';

const CALL_PARAMS: ReadonlySet<string> = new Set(['name', 'arguments']);

export interface PlainCall {
  id: string | number;
  client: string;
  name: string;
  args: Record<string, unknown>;
}

const byName = new WeakMap<object, Map<string, AgentToolJson>>();

/**
 * Whether a tool of the surface runs without asking anyone, as far as its list says: listed, and
 * not privileged (a privileged tool is the one listed destructive). The core has the last word
 * (agents.call `plainOnly`); this only spares the SDK's path a question.
 */
export function plainTool(view: AgentSurfaceView, name: string): AgentToolJson | undefined {
  let tools = byName.get(view.tools);
  if (!tools) byName.set(view.tools, (tools = new Map(view.tools.map((t) => [t.name, t]))));
  const tool = tools.get(name);
  const annotations = tool?.['annotations'] as { destructiveHint?: boolean } | undefined;
  return tool && annotations?.destructiveHint !== true ? tool : undefined;
}

/** The call, when the request is a plain 2026 tools/call of a tool this audience shows and runs without asking anyone; else undefined. */
export function plainModernCall(req: FastifyRequest, view: AgentSurfaceView): PlainCall | undefined {
  const plain = plainModernRequest(req, 'tools/call', CALL_PARAMS);
  if (!plain) return undefined;
  const { name, arguments: args } = plain.params;
  if (typeof name !== 'string' || req.headers['mcp-name'] !== name) return undefined;
  if (args !== undefined && !isPlainObject(args)) return undefined;
  // A client that declares the tasks extension gets its call as a task (server/tasks.ts).
  if (hasTaskClientCapabilityV2({ _meta: plain.params['_meta'] as Record<string, unknown> })) return undefined;
  // At a search-mode profile, search_tools and describe_tools (read-only lookups) pass below; call_tool is listed destructive: the SDK's.
  // A privileged tool may answer input_required: the SDK's round. An unknown one: the SDK's error names the way out.
  if (!plainTool(view, name)) return undefined;
  return { id: plain.id, client: plain.client, name, args: args ?? {} };
}

/** The result as the SDK's 2026 encoding writes it. */
export function encodeModernCallResult(result: CallToolResult, identity: Implementation): Record<string, unknown> {
  const checked = specTypeSchemas.CallToolResult['~standard'].validate(result);
  if (checked.issues) throw new Error(`invalid tools/call result: ${checked.issues.map((i) => i.message).join('; ')}`);
  const stamped: Record<string, unknown> = { ...checked.value };
  if (stamped['resultType'] === undefined) stamped['resultType'] = 'complete';
  const meta = stamped['_meta'];
  if (meta === undefined) stamped['_meta'] = { [SERVER_INFO_META_KEY]: identity };
  else if (isPlainObject(meta) && meta[SERVER_INFO_META_KEY] === undefined) stamped['_meta'] = { ...meta, [SERVER_INFO_META_KEY]: identity };
  return stamped;
}

/** Answers the call; false (nothing written) when the core says it needs more than a plain run: the SDK's to answer then. */
export async function answerPlainCall(
  core: TransportCore,
  audience: AudienceWatch,
  identity: Implementation,
  call: PlainCall,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  // The agent went away before its answer: the run is cancelled, as the SDK's request signal does.
  const gone = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) gone.abort();
  };
  req.raw.socket.once('close', onClose);
  let body: string;
  try {
    const outcome = await callForAgent(
      core,
      { audience: audience.ref, name: call.name, arguments: call.args, via: { channel: 'http' }, plainOnly: true },
      mcpCaller(call.client, requestAuth(req), audience.profileID),
      { signal: gone.signal, answerers: { person: true } },
    );
    if (outcome.kind !== 'result') return false;
    body = JSON.stringify({ result: encodeModernCallResult(outcome.result as CallToolResult, identity), jsonrpc: '2.0', id: call.id });
  } catch (e) {
    // As the SDK answers a handler that threw: a JSON-RPC internal error with its message.
    core.logger.warn(`mcp: tools/call ${call.name}: ${(e as Error).message}`);
    body = JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32603, message: (e as Error).message } });
  } finally {
    req.raw.socket.off('close', onClose);
  }
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'application/json' });
  reply.raw.end(body);
  return true;
}
