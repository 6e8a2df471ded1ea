/**
 * The MCP server over the core (docs/contracts.md, "Agents: MCP server and CLI"), on the official
 * SDK's low-level Server (2.x): tool schemas are the JSON Schemas of tool.json, so nothing goes
 * through zod. One instance serves a 2025 session or stdio connection for its life, or one
 * stateless 2026 request; what it lists comes from its audience's shared scope (scope.ts), so the
 * switches decide, live, what every connection sees.
 */
import {
  CLIENT_INFO_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type CreateMessageRequestParams,
  type ElicitRequestFormParams,
  type Implementation,
  type InputRequiredResult,
  type LoggingLevel,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { AgentTool } from '../../core/agents/agent-tools.js';
import type { ConnectionHandle } from '../../core/agents/connections.js';
import { outputProgress, progressOf } from './progress.js';
import { registerScheduleResources } from './schedule-resources.js';
import { APPS_EXTENSION, cardAppResources } from './card-apps.js';
import { approvalGate, requestStateCodec } from './approval.js';
import { errorResult, toCallResult } from './describe.js';
import { invokeForAgent } from './call.js';
import { registerTasks } from './tasks.js';
import { isSearchModeTool, searchModeCall } from './search-mode.js';
import { searchSession } from './plain-search.js';
import type { McpCore, McpScope } from './scope.js';
import type { RunAnswerers } from '../../core/invoke/types.js';
import { mcpCaller } from '../request-caller.js';
import type { Caller } from '../../../shared/caller.js';

export type { McpCore } from './scope.js';
export { describeTool, toCallResult } from './describe.js';

export interface McpServerOptions {
  version?: string;
  /** How the agent reached us, for the app's list of connected agents. */
  transport?: 'stdio' | 'http';
  /**
   * `legacy`: a 2025 session. `modern`: a 2026 client. Over HTTP a modern instance serves one
   * request (changes travel on `subscriptions/listen`, published by the handler that serves it);
   * every other instance lives with its connection and is told of changes on its own stream.
   */
  era: 'legacy' | 'modern';
}

const LOG_LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export const INSTRUCTIONS =
  'Tools managed in Toolwright. The list follows the switches a person flips in the app: expect notifications/tools/list_changed. Privileged tools run only after a person approves. Scheduled tools publish their latest output as resources (toolwright://schedules/<scheduleID>/latest, subscribable); the prompt schedule-outputs gathers them.';

/** A list answer stays good until the store changes; a client may keep it this long before asking again. */
const LIST_TTL_MS = 60_000;

export interface McpConnection {
  server: Server;
  /** Stops listening to the scope and leaves the connected-agents list (the transport's close does the rest). */
  dispose(): Promise<void>;
  /** Counts a call of this connection's agent that was answered before the SDK (plain-session.ts). */
  recordCall(): void;
  /** Whether a call on this connection sends a log message (a 2025 client asked for its level): then the SDK answers it. */
  logsCalls(): boolean;
}

/** Who answers, as every result's `_meta` says on 2026 requests. */
export function serverIdentity(version?: string): Implementation {
  return { name: 'toolwright', title: 'Toolwright', version: version ?? '0.1.0' };
}

export function createMcpServer(core: McpCore, scope: McpScope, opts: McpServerOptions): McpConnection {
  const server = new Server(serverIdentity(opts.version), {
    capabilities: {
      tools: { listChanged: true },
      logging: {},
      resources: { subscribe: true, listChanged: true },
      prompts: {},
      completions: {},
      extensions: APPS_EXTENSION,
    },
    // A profile's own instructions come first: its person wrote them for this address's agents.
    instructions: scope.instructions() ? `${scope.instructions()}\n\n${INSTRUCTIONS}` : INSTRUCTIONS,
    requestState: { verify: requestStateCodec.verify },
    // Lists change when a person flips a switch; the list_changed notifications say when.
    cacheHints: {
      'tools/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
      'resources/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
      'prompts/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
      'resources/templates/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
    },
  });
  const transport = opts.transport ?? 'stdio';
  const live = opts.era === 'legacy' || transport === 'stdio';

  const clientName = (ctx?: ServerContext): string => {
    const envelope = (ctx?.mcpReq.envelope ?? {}) as Record<string, unknown>;
    return (envelope[CLIENT_INFO_META_KEY] as { name?: string } | undefined)?.name ?? server.getClientVersion()?.name ?? 'unknown';
  };

  // Listed in the app's "connected agents": a 2025 session from its initialisation until it goes
  // away; a 2026 client, which has no session, while it keeps making requests.
  let handle: Promise<ConnectionHandle | undefined> | undefined;
  server.oninitialized = () => {
    handle = core.agents.open(clientName(), transport).catch(() => undefined);
  };
  const agentOf = (ctx: ServerContext) => (live && handle ? handle : scope.agent(clientName(ctx), transport));

  const unsubscribe = live
    ? scope.onChange((change) => {
        if (change.kind === 'tools') server.sendToolListChanged().catch(() => undefined); // not connected yet, or gone
      })
    : () => undefined;
  const scheduleResources = registerScheduleResources(server, core, scope, live, [cardAppResources(scope)]);
  const tasks = registerTasks(server, core, scope, opts.era);

  // Log messages: a 2025 client gets them once it asked (logging/setLevel), at its level or above;
  // a 2026 client names its level on each request.
  let logLevel: LoggingLevel | undefined;
  server.setRequestHandler('logging/setLevel', async (request) => {
    logLevel = request.params.level;
    return {};
  });
  const log = (ctx: ServerContext, level: LoggingLevel, data: string) => {
    if (opts.era === 'legacy' && (logLevel === undefined || LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(logLevel))) return;
    ctx.mcpReq.log(level, data, 'toolwright').catch(() => undefined);
  };

  server.setRequestHandler('tools/list', async (_request, ctx) => {
    if (!handle) void agentOf(ctx);
    return { tools: scope.described() };
  });

  const run = async (tool: AgentTool, args: Record<string, unknown>, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> => {
    // An OAuth caller is named by its token too, so the audit log and approvals bind the person or client.
    const caller = mcpCaller(clientName(ctx), ctx.http?.authInfo, scope.profileID);
    // A retry that carries an answer is the same call, counted once.
    if (!ctx.mcpReq.requestState()) {
      void agentOf(ctx).then((h) => h?.recordCall());
      core.search.learning.called(searchSession(scope, caller), tool.file.toolID);
    }
    if (tasks.asked(ctx)) return tasks.start(tool, args, caller, ctx);
    if (tool.safety === 'privileged') {
      const gate = await approvalGate(core, server, tool, args, caller, ctx);
      if (gate.kind === 'ask') return gate.result;
      if (gate.kind === 'refused') return errorResult(gate.message);
    }
    return callTool(core, tool, args, caller, ctx, log, agentAnswerers(server, ctx, opts.era));
  };

  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const args = request.params.arguments ?? {};
    if (scope.mode() === 'search' && isSearchModeTool(request.params.name)) {
      const session = searchSession(scope, mcpCaller(clientName(ctx), ctx.http?.authInfo, scope.profileID));
      const answer = searchModeCall(scope, request.params.name, args, { session, learning: core.search.learning });
      return answer.kind === 'result' ? answer.result : run(answer.tool, answer.args, ctx);
    }
    const tool = scope.byName(request.params.name);
    if (!tool) {
      // A name it was offered answers why it is withheld (a result the model reads), not "unknown".
      const withheld = scope.withheld(request.params.name);
      if (withheld) return errorResult(withheld);
      const off = core.config.get().toolsEnabled ? '' : ' (tools are switched off in Toolwright: the kill switch is on)';
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}${off}; call tools/list for the tools you may use`);
    }
    return run(tool, args, ctx);
  });

  let disposed: Promise<void> | undefined;
  const dispose = () =>
    (disposed ??= (async () => {
      unsubscribe();
      scheduleResources.dispose();
      await (await handle)?.close();
    })());
  // serveStdio also builds an instance for a discovery probe and drops it: closing is the one sure end.
  if (live) server.onclose = () => void dispose();
  return {
    server,
    dispose,
    recordCall: () => void (live && handle ? handle : scope.agent(clientName(), transport)).then((h) => h?.recordCall()),
    // callTool logs at info (ok) or warning (failed).
    logsCalls: () => opts.era === 'legacy' && logLevel !== undefined && LOG_LEVELS.indexOf(logLevel) <= LOG_LEVELS.indexOf('warning'),
  };
}

/**
 * Who answers an upstream server's questions during this agent's call: a 2025 session's client
 * that declared elicitation (or sampling) gets the server's request as is, inside this call; any
 * other agent waits for a person in the app's approvals panel, as for a privileged tool.
 */
function agentAnswerers(server: Server, ctx: ServerContext, era: McpServerOptions['era']): RunAnswerers {
  const capabilities = era === 'legacy' ? server.getClientCapabilities() : undefined;
  return {
    person: true,
    ...(capabilities?.elicitation
      ? {
          elicit: async (params, o) =>
            (await ctx.mcpReq.elicitInput(params as unknown as ElicitRequestFormParams, { signal: o.signal, timeout: o.timeoutMs })) as Record<string, unknown>,
        }
      : {}),
    ...(capabilities?.sampling
      ? {
          sample: async (params, o) =>
            (await ctx.mcpReq.requestSampling(params as unknown as CreateMessageRequestParams, { signal: o.signal, timeout: o.timeoutMs })) as Record<
              string,
              unknown
            >,
        }
      : {}),
  };
}

async function callTool(
  core: McpCore,
  tool: AgentTool,
  args: Record<string, unknown>,
  caller: Caller,
  ctx: ServerContext,
  log: (ctx: ServerContext, level: LoggingLevel, data: string) => void,
  answerers: RunAnswerers,
): Promise<CallToolResult> {
  const report = progressOf(ctx);
  // The tool's output as it arrives, as the text of progress notifications.
  const output = report && outputProgress(report);
  const outcome = await invokeForAgent(core, tool, args, caller, {
    signal: ctx.mcpReq.signal,
    answerers,
    ...(report ? { onProgress: (line: string) => void report(line) } : {}),
    ...(output ? { onEvent: output.onEvent } : {}),
  }).finally(() => output?.flush());
  // Gates (kill switch, switches, rate limit, arguments) refuse before a run: a result the model can read.
  if ('refused' in outcome) return errorResult(outcome.refused);
  const result = outcome.run;
  log(ctx, result.ok ? 'info' : 'warning', `${tool.name}: ${result.ok ? 'ok' : result.error?.code} in ${result.durationMs} ms`);
  return toCallResult(tool, result);
}
