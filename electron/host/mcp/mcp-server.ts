/**
 * The MCP server over the core (docs/contracts.md, "Agents: MCP server and CLI"), one per connection,
 * on the official SDK's low-level Server: tool schemas are the JSON Schemas of tool.json, so
 * nothing goes through zod. The switches decide, live, what each connection sees: any change to
 * the store or the config that changes the visible list sends notifications/tools/list_changed.
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  SetLevelRequestSchema,
  type LoggingLevel,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Core } from '../../core/app-core.js';
import { agentTools, announcedOutputSchema, parametersOf, safetyAnnotations, type AgentTool } from '../../core/agents/agent-tools.js';
import { maskMarked } from '../../core/invoke/post-process.js';
import type { ConnectionHandle } from '../../core/agents/connections.js';
import { toApiError } from '../../core/errors.js';
import type { InvokeResult } from '../../../shared/types.js';
import type { StoreEvent } from '../../../shared/operations.js';
import { valueText } from '../../../shared/format.js';
import { outputProgress, progressOf, type Extra } from './progress.js';
import { registerScheduleResources } from './schedule-resources.js';
import { toolEtag } from '../../core/store/preconditions.js';

export type McpCore = Pick<Core, 'store' | 'tools' | 'invocations' | 'config' | 'approvals' | 'agents' | 'events' | 'logger' | 'schedules'>;

export interface McpServerOptions {
  /** Bundle slugs this connection is limited to (`--bundles`, `/mcp?bundles=`); all when absent. */
  bundles?: readonly string[];
  version?: string;
  /** How the agent reached us, for the app's list of connected agents. */
  transport?: 'stdio' | 'http';
}

const META = 'dev.toolwright';
const LOG_LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
/** Changes arrive in bursts (an import, a bundle switch): one notification per burst. */
const LIST_CHANGED_DEBOUNCE_MS = 50;

export interface McpConnection {
  server: Server;
  /** Stops listening to the core and leaves the connected-agents list (the transport's close does the rest). */
  dispose(): Promise<void>;
}

export function createMcpServer(core: McpCore, opts: McpServerOptions = {}): McpConnection {
  const server = new Server(
    { name: 'toolwright', title: 'Toolwright', version: opts.version ?? '0.1.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        logging: {},
        resources: { subscribe: true, listChanged: true },
        prompts: {},
        completions: {},
      },
      instructions:
        'Tools managed in Toolwright. The list follows the switches a person flips in the app: expect notifications/tools/list_changed. Privileged tools run only after a person approves. Scheduled tools publish their latest output as resources (toolwright://schedules/<scheduleID>/latest, subscribable); the prompt schedule-outputs gathers them.',
    },
  );

  const scope = () => {
    if (!opts.bundles?.length) return {};
    const wanted = new Set(opts.bundles);
    const ids = new Set<string>();
    for (const b of core.store.reader.bundles()) if (wanted.has(b.file.slug)) ids.add(b.file.bundleID);
    return { bundleIDs: ids };
  };
  // Computed once per change of the store or config, not per request: 10,000 tools list in a few ms.
  let cached: AgentTool[] | undefined;
  const visible = (): AgentTool[] => (cached ??= core.config.get().toolsEnabled ? agentTools(core.store.reader, core.tools, scope()) : []);
  // By content (the file's ETag), not modifiedAt: a hand edit or a git pull may leave modifiedAt alone.
  const contentTag = (t: AgentTool) => {
    const rec = core.store.reader.tool(t.file.toolID);
    return rec ? toolEtag(rec) : t.file.modifiedAt;
  };
  const signature = (tools: AgentTool[]) => tools.map((t) => `${t.name}\u0000${t.file.toolID}\u0000${contentTag(t)}\u0000${t.safety}`).join('\n');

  let lastSignature = signature(visible());
  let timer: NodeJS.Timeout | undefined;
  const scheduleResources = registerScheduleResources(server, core, visible);
  const onEvent = (e: StoreEvent) => {
    if (e.type === 'schedule.changed') return scheduleResources.onEvent(e);
    if (
      e.type === 'metrics.changed' ||
      e.type === 'approvals.changed' ||
      e.type === 'problems.changed' ||
      e.type === 'secrets.changed' ||
      e.type === 'build.log' ||
      e.type === 'build.finished'
    )
      return;
    cached = undefined;
    scheduleResources.onEvent(e);
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      const now = signature(visible());
      if (now === lastSignature) return;
      lastSignature = now;
      server.sendToolListChanged().catch(() => undefined); // not connected yet, or gone
    }, LIST_CHANGED_DEBOUNCE_MS);
  };
  core.events.on('event', onEvent);

  // Listed in the app's "connected agents" from its initialisation until it goes away.
  let handle: Promise<ConnectionHandle | undefined> | undefined;
  server.oninitialized = () => {
    handle = core.agents.open(server.getClientVersion()?.name ?? 'unknown', opts.transport ?? 'stdio').catch(() => undefined);
  };
  const recordCall = () => void handle?.then((h) => h?.recordCall());

  // Log messages go only to a client that asked for them (logging/setLevel), at its level or above.
  let logLevel: LoggingLevel | undefined;
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    logLevel = request.params.level;
    return {};
  });
  const log = (level: LoggingLevel, data: string, sessionId?: string) => {
    if (logLevel === undefined || LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(logLevel)) return;
    server.sendLoggingMessage({ level, logger: 'toolwright', data }, sessionId).catch(() => undefined);
  };

  let described: { from: AgentTool[]; tools: Tool[] } | undefined;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = visible();
    lastSignature = signature(tools);
    if (described?.from !== tools) described = { from: tools, tools: tools.map(describeTool) };
    return { tools: described.tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tools = visible();
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) {
      const off = core.config.get().toolsEnabled ? '' : ' (tools are switched off in Toolwright: the kill switch is on)';
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}${off}; call tools/list for the tools you may use`);
    }
    recordCall();
    return callTool(core, server, tool, request.params.arguments ?? {}, extra, log);
  });

  return {
    server,
    async dispose() {
      core.events.off('event', onEvent);
      if (timer) clearTimeout(timer);
      scheduleResources.dispose();
      await (await handle)?.close();
    },
  };
}

export function describeTool(t: AgentTool): Tool {
  const f = t.file;
  const tool: Tool = {
    name: t.name,
    title: f.displayName || f.slug,
    description: f.description || f.displayName || f.slug,
    inputSchema: parametersOf(f.argSchema) as Tool['inputSchema'],
    annotations: { title: f.displayName || f.slug, ...safetyAnnotations(t.safety) },
    _meta: {
      [`${META}/bundleID`]: f.bundleID,
      [`${META}/toolID`]: f.toolID,
      [`${META}/slug`]: f.slug,
      [`${META}/version`]: f.version,
    },
  };
  const output = announcedOutputSchema(f.outputSchema);
  if (output) tool.outputSchema = output as Tool['outputSchema'];
  return tool;
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** A person's yes for a privileged tool: elicitation when the client can ask, else an approval in the app. */
async function approve(
  core: McpCore,
  server: Server,
  tool: AgentTool,
  args: Record<string, unknown>,
  caller: string,
  extra: Extra,
): Promise<string | undefined> {
  const f = tool.file;
  const what = `${f.displayName || f.slug} (${tool.bundle.slug}/${f.slug}@${f.version})`;
  if (server.getClientCapabilities()?.elicitation) {
    const answer = await server.elicitInput(
      {
        message: `Toolwright: ${what} is privileged. Run it with these arguments?\n${JSON.stringify(maskMarked(args, f.argSchema), null, 2)}`,
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', title: 'Run it', description: `Run ${what} now` } },
          required: ['confirm'],
        },
      },
      { signal: extra.signal },
    );
    if (answer.action !== 'accept' || answer.content?.['confirm'] !== true) {
      return `The person ${answer.action === 'cancel' ? 'dismissed' : 'declined'} the request to run ${what}; it did not run.`;
    }
    return undefined;
  }
  const timeoutSeconds = core.config.get().approvalTimeoutSeconds;
  const report = progressOf(extra);
  const { outcome } = await core.approvals.ask({
    tool: { bundleID: f.bundleID, toolID: f.toolID, bundleSlug: tool.bundle.slug, slug: f.slug, version: f.version, displayName: f.displayName },
    args: maskMarked(args, f.argSchema),
    caller,
    timeoutMs: timeoutSeconds * 1000,
    signal: extra.signal,
    // Progress keeps clients' request timeouts from ending a call that waits for a person.
    ...(report ? { onWait: (leftMs: number) => void report(`waiting for approval in Toolwright (${Math.ceil(leftMs / 1000)} s left)`) } : {}),
  });
  if (outcome === 'approve') return undefined;
  if (outcome === 'expired') return `Nobody approved ${what} within ${timeoutSeconds} s, so it counts as denied; it did not run.`;
  if (outcome === 'cancelled') return `The call to ${what} was cancelled while it waited for approval; it did not run.`;
  return `A person denied the request to run ${what} in Toolwright; it did not run.`;
}

async function callTool(
  core: McpCore,
  server: Server,
  tool: AgentTool,
  rawArgs: Record<string, unknown>,
  extra: Extra,
  log: (level: LoggingLevel, data: string, sessionId?: string) => void,
): Promise<CallToolResult> {
  const f = tool.file;
  const caller = `mcp:${server.getClientVersion()?.name ?? 'unknown'}`;
  const ref = { bundleID: f.bundleID, slug: f.slug, version: f.version };
  if (tool.safety === 'privileged') {
    const refusal = await approve(core, server, tool, rawArgs, caller, extra);
    if (refusal) return errorResult(refusal);
  }
  const invocationID = randomUUID();
  const onAbort = () => void core.invocations.cancel(invocationID);
  extra.signal.addEventListener('abort', onAbort, { once: true });
  const report = progressOf(extra);
  // The tool's output as it arrives, as the text of progress notifications.
  const output = report && outputProgress(report);
  let result: InvokeResult;
  try {
    result = await core.invocations.invoke(ref, {
      args: rawArgs,
      confirm: tool.safety === 'privileged',
      invocationID,
      caller,
      ...(report ? { onProgress: (line: string) => void report(line) } : {}),
      ...(output ? { onEvent: output.onEvent } : {}),
    });
  } catch (e) {
    // Gates (kill switch, switches, rate limit, arguments) refuse before a run: a result the model can read.
    return errorResult(toApiError(e, { unexpected: 'the call failed' }).message);
  } finally {
    extra.signal.removeEventListener('abort', onAbort);
    await output?.flush();
  }
  log(result.ok ? 'info' : 'warning', `${tool.name}: ${result.ok ? 'ok' : result.error?.code} in ${result.durationMs} ms`, extra.sessionId);
  return toCallResult(tool, result);
}

export function toCallResult(tool: AgentTool, r: InvokeResult): CallToolResult {
  if (!r.ok) return errorResult(r.error?.message ?? 'the tool failed');
  const content: CallToolResult['content'] = [{ type: 'text', text: valueText(r.value) }];
  if (r.card?.html) {
    content.push({ type: 'resource', resource: { uri: `toolwright://invocations/${r.invocationID}/card`, mimeType: 'text/html', text: r.card.html } });
  }
  const result: CallToolResult = { content };
  if (announcedOutputSchema(tool.file.outputSchema)) {
    if (r.truncated || typeof r.value !== 'object' || r.value === null || Array.isArray(r.value)) {
      return errorResult(
        `the result of ${tool.name} was cut at ${tool.file.limits?.maxOutputBytes ?? 'the output limit'} bytes, so it no longer matches its outputSchema`,
      );
    }
    result.structuredContent = r.value as Record<string, unknown>;
  }
  return result;
}
