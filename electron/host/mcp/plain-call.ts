/**
 * A plain 2026-07-28 `tools/call` answered before the SDK. The SDK builds a server per request,
 * converts the request and the answer between Node and web streams, and classifies, validates and
 * routes the message through its transport: several times the cost of the run of a quick function
 * tool. A plain call (plain-request.ts) of a visible, unprivileged tool needs none of what that
 * machinery is for (no progress, log level, task extension, approval round or search-mode tool), so here it
 * is the same mapping the SDK's handler makes — `tools.invoke` through invokeForAgent, the result
 * through toCallResult — encoded as the SDK encodes a 2026 result: validated by the spec's
 * CallToolResult schema (which also fixes its key order), `resultType: "complete"` and the
 * server's identity in `_meta` stamped. test/electron/host/mcp/plain-call.test.ts holds the
 * answers byte for byte against the SDK's.
 *
 * Anything else, an unknown tool among it (the SDK's error says what to do), goes to the SDK.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SERVER_INFO_META_KEY, specTypeSchemas, type CallToolResult, type Implementation } from '@modelcontextprotocol/server';
import type { AgentTool } from '../../core/agents/agent-tools.js';
import { hasTaskClientCapabilityV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { invokeForAgent } from './call.js';
import { mcpCaller, requestAuth } from '../request-caller.js';
import { errorResult, toCallResult } from './describe.js';
import { plainModernRequest } from './plain-request.js';
import type { McpCore, McpScope } from './scope.js';
import { isPlainObject } from '../../../shared/plain-object.js';

const CALL_PARAMS: ReadonlySet<string> = new Set(['name', 'arguments']);

export interface PlainCall {
  id: string | number;
  client: string;
  tool: AgentTool;
  args: Record<string, unknown>;
}

/** The call, when the request is a plain 2026 tools/call of a tool this scope shows and runs without asking anyone; else undefined. */
export function plainModernCall(req: FastifyRequest, scope: McpScope): PlainCall | undefined {
  const plain = plainModernRequest(req, 'tools/call', CALL_PARAMS);
  if (!plain) return undefined;
  const { name, arguments: args } = plain.params;
  if (typeof name !== 'string' || req.headers['mcp-name'] !== name) return undefined;
  if (args !== undefined && !isPlainObject(args)) return undefined;
  // A client that declares the tasks extension gets its call as a task (tasks.ts), as tasks.ts decides it.
  if (hasTaskClientCapabilityV2({ _meta: plain.params['_meta'] as Record<string, unknown> })) return undefined;
  // A search-mode profile's three tools live in the SDK server (search-mode.ts).
  if (scope.mode() === 'search') return undefined;
  const tool = scope.byName(name);
  // A privileged tool may answer input_required (approval.ts): the SDK's round.
  if (!tool || tool.safety === 'privileged') return undefined;
  return { id: plain.id, client: plain.client, tool, args: args ?? {} };
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

export async function answerPlainCall(
  core: McpCore,
  scope: McpScope,
  identity: Implementation,
  call: PlainCall,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  reply.hijack();
  // The agent went away before its answer: the run is cancelled, as the SDK's request signal does.
  const gone = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) gone.abort();
  };
  req.raw.socket.once('close', onClose);
  try {
    void scope.agent(call.client, 'http').then((h) => h?.recordCall());
    const outcome = await invokeForAgent(core, call.tool, call.args, mcpCaller(call.client, requestAuth(req), scope.profileID), {
      signal: gone.signal,
      answerers: { person: true },
    });
    const result = 'refused' in outcome ? errorResult(outcome.refused) : toCallResult(call.tool, outcome.run);
    const body = JSON.stringify({ result: encodeModernCallResult(result, identity), jsonrpc: '2.0', id: call.id });
    reply.raw.writeHead(200, { 'content-type': 'application/json' });
    reply.raw.end(body);
  } catch (e) {
    // As the SDK answers a handler that threw: a JSON-RPC internal error with its message.
    core.logger.warn(`mcp: tools/call ${call.tool.name}: ${(e as Error).message}`);
    if (!reply.raw.headersSent) reply.raw.writeHead(200, { 'content-type': 'application/json' });
    reply.raw.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32603, message: (e as Error).message } }));
  } finally {
    req.raw.socket.off('close', onClose);
  }
}
