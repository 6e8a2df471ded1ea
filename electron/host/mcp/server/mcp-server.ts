/**
 * The MCP server over the agent door (docs/contracts.md, "Agents: MCP server and CLI"), on the
 * official SDK's low-level Server (2.x): tool schemas are the JSON Schemas of tool.json, so
 * nothing goes through zod. One instance serves a 2025 session or stdio connection for its life,
 * or one stateless 2026 request; everything it answers comes from the dispatcher's agent-door
 * operations (agents.surface, agents.call, agents.tasks.*, agents.resources…) for the caller the
 * request names, so the switches decide, live, what every connection sees.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type ElicitRequestFormParams,
  type Implementation,
  type InputRequiredResult,
  type LoggingLevel,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { hasTaskClientCapabilityV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import type { Caller } from '../../../../shared/caller.js';
import type { TransportCore } from '../../../core/operations/transport.js';
import type { InvokeStreamHooks } from '../../../core/operations/dispatch.js';
import { mcpCaller } from '../../http/request-caller.js';
import { callForAgent, type AgentCallRequest } from '../calls/agent-call.js';
import { requestStateCodec, type ApprovalState } from '../calls/approval-state.js';
import { outputProgress, progressOf } from './progress.js';
import { registerScheduleResources } from './schedule-resources.js';
import { APPS_EXTENSION, cardAppResources } from './card-apps.js';
import { registerTasks } from './tasks.js';
import type { AudienceWatch, Via } from './audience-watch.js';

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
  /** Stops listening to the audience and leaves the connected-agents list (the transport's close does the rest). */
  dispose(): Promise<void>;
  /** Where this connection's requests come from: its channel, and its connection once it initialised. */
  via(): Promise<Via>;
  /** Whether a call on this connection sends a log message (a 2025 client asked for its level): then the SDK answers it. */
  logsCalls(): boolean;
}

/** Who answers, as every result's `_meta` says on 2026 requests. */
export function serverIdentity(version?: string): Implementation {
  return { name: 'toolwright', title: 'Toolwright', version: version ?? '0.1.0' };
}

export function createMcpServer(core: TransportCore, audience: AudienceWatch, opts: McpServerOptions): McpConnection {
  const instructions = audience.view().instructions;
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
    instructions: instructions ? `${instructions}\n\n${INSTRUCTIONS}` : INSTRUCTIONS,
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
  /** The caller of a request: its client, the profile of the address, and the credential that opened the door. */
  const callerOf = (ctx: ServerContext): Caller => mcpCaller(clientName(ctx), ctx.http?.authInfo, audience.profileID);

  // Listed in the app's "connected agents": a 2025 session from its initialisation until it goes
  // away; a 2026 client, which has no session, while it keeps making requests.
  let connection: Promise<string | undefined> | undefined;
  server.oninitialized = () => {
    connection = core
      .dispatch('agents.connect', { channel: transport }, { caller: mcpCaller(clientName(), undefined, audience.profileID) })
      .then((env) => (env.ok ? env.data.connectionID : undefined));
  };
  const via = async (): Promise<Via> => {
    const connectionID = live ? await connection : undefined;
    return { channel: transport, ...(connectionID ? { connectionID } : {}) };
  };

  const unsubscribe = live
    ? audience.onChange((change) => {
        if (change.kind === 'tools') server.sendToolListChanged().catch(() => undefined); // not connected yet, or gone
      })
    : () => undefined;
  const scheduleResources = registerScheduleResources(server, core, audience, callerOf, live, [cardAppResources(audience)]);
  registerTasks(server, core, audience, callerOf, opts.era);

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
    const view = await audience.refresh(callerOf(ctx), await via());
    return { tools: view.tools as Tool[] };
  });

  const clientCapabilities = (ctx: ServerContext): ClientCapabilities | undefined => {
    // RequestMetaEnvelope is published as `{}`: index it by the key. A 2025 session has no envelope.
    const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
    return (envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.getClientCapabilities();
  };

  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const state = ctx.mcpReq.requestState<ApprovalState>();
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'approve');
    const asTask = opts.era === 'modern' && hasTaskClientCapabilityV2({ _meta: ctx.mcpReq.envelope ?? {} });
    const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
    const call: AgentCallRequest = {
      audience: audience.ref,
      name: request.params.name,
      arguments: request.params.arguments ?? {},
      via: await via(),
      // A task asks its client through tasks/update only when the client said, on this request, that it can.
      canAsk: asTask
        ? Boolean((envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)?.elicitation)
        : Boolean(clientCapabilities(ctx)?.elicitation),
      ...(asTask ? { task: true } : {}),
      ...(state
        ? {
            approval: {
              approvalID: state.approvalID,
              callDigest: state.call,
              action: answer.kind === 'elicit' ? answer.action : 'none',
              confirm: answer.kind === 'elicit' && answer.content?.['confirm'] === true,
            },
          }
        : {}),
    };
    const report = progressOf(ctx);
    // The tool's output as it arrives, as the text of progress notifications.
    const output = report && outputProgress(report);
    const outcome = await callForAgent(core, call, callerOf(ctx), {
      signal: ctx.mcpReq.signal,
      answerers: agentAnswerers(server, ctx, opts.era),
      ...(report ? { onProgress: (line: string) => void report(line) } : {}),
      ...(output ? { onEvent: output.onEvent } : {}),
    }).finally(() => output?.flush());
    switch (outcome.kind) {
      case 'result':
        if (outcome.ran)
          log(ctx, outcome.ran.ok ? 'info' : 'warning', `${outcome.ran.tool}: ${outcome.ran.ok ? 'ok' : outcome.ran.code} in ${outcome.ran.durationMs} ms`);
        return outcome.result as CallToolResult;
      case 'ask':
        return inputRequired({
          inputRequests: { approve: inputRequired.elicit(outcome.form as unknown as ElicitRequestFormParams) },
          requestState: await requestStateCodec.mint({ approvalID: outcome.approvalID, call: outcome.callDigest }, ctx),
        });
      case 'task':
        return { resultType: 'task', ...outcome.task } as never;
      case 'unknown':
      case 'not-plain':
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, outcome.kind === 'unknown' ? outcome.message : `Unknown tool: ${request.params.name}`);
    }
  });

  let disposed: Promise<void> | undefined;
  const dispose = () =>
    (disposed ??= (async () => {
      unsubscribe();
      scheduleResources.dispose();
      const id = await connection;
      if (id) await core.dispatch('agents.disconnect', { connectionID: id }, { caller: mcpCaller(clientName(), undefined, audience.profileID) });
    })());
  // serveStdio also builds an instance for a discovery probe and drops it: closing is the one sure end.
  if (live) server.onclose = () => void dispose();
  return {
    server,
    dispose,
    via,
    // A call logs at info (ok) or warning (failed).
    logsCalls: () => opts.era === 'legacy' && logLevel !== undefined && LOG_LEVELS.indexOf(logLevel) <= LOG_LEVELS.indexOf('warning'),
  };
}

/**
 * Who answers an upstream server's questions during this agent's call: a 2025 session's client
 * that declared elicitation (or sampling) gets the server's request as is, inside this call; any
 * other agent waits for a person in the app's approvals panel, as for a privileged tool.
 */
function agentAnswerers(server: Server, ctx: ServerContext, era: McpServerOptions['era']): NonNullable<InvokeStreamHooks['answerers']> {
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
