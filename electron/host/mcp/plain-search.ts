/**
 * A plain 2026-07-28 `tools/call` of search_tools or describe_tools at a search-mode profile,
 * answered before the SDK (issue 34: p95 ≤ 10 ms at 12,828 tools). Both are lookups the scope
 * answers at once (search-mode.ts); the SDK's server per request, stream conversions and routing
 * cost more than the ranker. The answer is the one the SDK's handler gives, encoded as the SDK
 * encodes a 2026 result (plain-call.ts's encodeModernCallResult);
 * test/electron/host/mcp/plain-search.test.ts holds it byte for byte against the SDK's.
 *
 * call_tool (gates, approvals, tasks) and anything not plain go to the SDK as before.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Implementation } from '@modelcontextprotocol/server';
import { hasTaskClientCapabilityV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { mcpCaller, requestAuth } from '../request-caller.js';
import type { Caller } from '../../../shared/caller.js';
import { encodeModernCallResult } from './plain-call.js';
import { plainModernRequest } from './plain-request.js';
import { isPlainObject } from '../../../shared/plain-object.js';
import { DESCRIBE_TOOLS, SEARCH_TOOLS, searchModeCall } from './search-mode.js';
import type { McpCore, McpScope } from './scope.js';

const CALL_PARAMS: ReadonlySet<string> = new Set(['name', 'arguments']);

export interface PlainSearch {
  id: string | number;
  session: string;
  name: string;
  args: Record<string, unknown>;
}

/** The request, when it is a plain 2026 search_tools or describe_tools call at a search-mode scope; else undefined. */
export function plainModernSearch(req: FastifyRequest, scope: McpScope): PlainSearch | undefined {
  if (scope.mode() !== 'search') return undefined;
  const plain = plainModernRequest(req, 'tools/call', CALL_PARAMS);
  if (!plain) return undefined;
  const { name, arguments: args } = plain.params;
  if ((name !== SEARCH_TOOLS && name !== DESCRIBE_TOOLS) || req.headers['mcp-name'] !== name) return undefined;
  if (args !== undefined && !isPlainObject(args)) return undefined;
  if (hasTaskClientCapabilityV2({ _meta: plain.params['_meta'] as Record<string, unknown> })) return undefined;
  return { id: plain.id, session: searchSession(scope, mcpCaller(plain.client, requestAuth(req), scope.profileID)), name, args: args ?? {} };
}

/** Who searches and then calls, for learning from use: the caller (client and credential) at this address. */
export function searchSession(scope: McpScope, caller: Caller): string {
  return [scope.profileID ?? scope.bundles.join(','), caller.name, caller.subject ?? '', caller.client ?? '', caller.token ?? ''].join('\u0000');
}

export function answerPlainSearch(core: McpCore, scope: McpScope, identity: Implementation, search: PlainSearch, reply: FastifyReply): void {
  let body: string;
  try {
    const answer = searchModeCall(scope, search.name, search.args, { session: search.session, learning: core.search.learning });
    // search_tools and describe_tools always answer a result; call_tool never reaches here.
    if (answer.kind !== 'result') throw new Error(`${search.name} asked to run a tool`);
    body = JSON.stringify({ result: encodeModernCallResult(answer.result, identity), jsonrpc: '2.0', id: search.id });
  } catch (e) {
    core.logger.warn(`mcp: tools/call ${search.name}: ${(e as Error).message}`);
    body = JSON.stringify({ jsonrpc: '2.0', id: search.id, error: { code: -32603, message: (e as Error).message } });
  }
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'application/json' });
  reply.raw.end(body);
}
