/**
 * How a schedule's output feeds an agent (docs/contracts.md, "Schedules, pipelines, streaming"): the latest output of each
 * schedule of the tools a connection may see is an MCP resource,
 * `toolwright://schedules/<scheduleID>/latest` (JSON: the value or error, when it ran, its
 * status), which a client may subscribe to: `notifications/resources/updated` follows every new
 * output, also one written by another process (the scheduler's folder is watched). The prompt
 * `schedule-outputs` puts the latest outputs of chosen schedules into a conversation, and the
 * resource list follows the switches like tools/list does.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { AgentScheduleEntry, AgentScheduleLatest } from '../../../../shared/agents/surface.js';
import type { Caller } from '../../../../shared/caller.js';
import { valueText } from '../../../../shared/format.js';
import type { TransportCore } from '../../../core/operations/transport.js';
import type { AudienceWatch } from './audience-watch.js';

const URI = /^toolwright:\/\/schedules\/([0-9a-f-]{36})\/latest$/;
export const scheduleUri = (scheduleID: string) => `toolwright://schedules/${scheduleID}/latest`;
export const SCHEDULE_PROMPT = 'schedule-outputs';

/** The transport's own look for a subscriber (no request of the client's is in flight). */
const WATCHER: Caller = Object.freeze({ transport: 'mcp', name: 'toolwright' });

/** Other resources served beside the schedule outputs (the cards' ui:// apps): `read` answers undefined for an address not its own. */
export interface ResourceSource {
  list(): Promise<Resource[]>;
  read(uri: string): Promise<ReadResourceResult | undefined>;
}

export interface ScheduleResources {
  dispose(): void;
}

/**
 * `live`: a 2025 session or stdio connection, told of new outputs it subscribed to and of list
 * changes on its own stream. A 2026 request's client hears of them through subscriptions/listen.
 */
export function registerScheduleResources(
  server: Server,
  core: TransportCore,
  audience: AudienceWatch,
  callerOf: (ctx: ServerContext) => Caller,
  live: boolean,
  others: readonly ResourceSource[] = [],
): ScheduleResources {
  const visible = async (): Promise<AgentScheduleEntry[]> => (await audience.resources()).schedules;
  /** The latest output of a schedule this audience sees; undefined when it sees none of that id. */
  const latestOf = async (scheduleID: string, caller: Caller): Promise<AgentScheduleLatest | undefined> => {
    const env = await core.dispatch('agents.scheduleLatest', { audience: audience.ref, scheduleID }, { caller });
    return env.ok ? env.data : undefined;
  };
  const notFound = (uri: string) =>
    new ResourceNotFoundError(uri, `Resource not found: ${uri.slice(0, 200)}; resources/list names the schedule outputs you may read`);
  const find = async (uri: string, caller: Caller): Promise<AgentScheduleLatest> => {
    const id = URI.exec(uri)?.[1];
    const found = id ? await latestOf(id, caller) : undefined;
    if (!found) throw notFound(uri);
    return found;
  };

  const describe = (v: AgentScheduleEntry): Resource => ({
    uri: scheduleUri(v.scheduleID),
    name: `${v.tool.name}-schedule-${v.scheduleID.slice(-8)}`,
    title: `${v.tool.displayName || v.tool.slug}: ${v.cadenceText} (${v.timezone})`,
    description: `The latest output of ${v.tool.label}, run on a schedule: ${v.cadenceText} (${v.timezone})${
      v.isEnabled ? '' : ', switched off'
    }. Read it for the newest value; subscribe to hear of each new one.`,
    mimeType: 'application/json',
  });

  server.setRequestHandler('resources/list', async () => {
    const own = (await visible()).map(describe);
    const theirs = await Promise.all(others.map((o) => o.list()));
    return { resources: [...own, ...theirs.flat()] };
  });
  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: [
      {
        uriTemplate: 'toolwright://schedules/{scheduleID}/latest',
        name: 'schedule-latest',
        title: 'Latest output of a schedule',
        description: 'The latest output of a scheduled tool, as JSON: its value or error, when it ran and its status',
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler('resources/read', async (request, ctx) => {
    for (const o of others) {
      const answer = await o.read(request.params.uri);
      if (answer) return answer;
    }
    const { body } = await find(request.params.uri, callerOf(ctx));
    return { contents: [{ uri: request.params.uri, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
  });

  // Subscriptions: the invocation of the output last announced, so a new output is told once.
  const subscribed = new Map<string, string | undefined>();
  server.setRequestHandler('resources/subscribe', async (request, ctx) => {
    const found = await find(request.params.uri, callerOf(ctx));
    subscribed.set(URI.exec(request.params.uri)![1]!, found.output?.invocationID);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    const id = URI.exec(request.params.uri)?.[1];
    if (id) subscribed.delete(id);
    return {};
  });

  const prompt: Prompt = {
    name: SCHEDULE_PROMPT,
    title: 'Latest outputs of scheduled tools',
    description: 'Puts the latest output of chosen scheduled tools into the conversation as context (what the schedules fetched, when, and whether it worked).',
    arguments: [
      {
        name: 'schedules',
        description: 'Which schedules: scheduleIDs or tool names as in tools/list, comma-separated. Left empty: every schedule you may see.',
        required: false,
      },
    ],
  };
  server.setRequestHandler('prompts/list', async () => ({ prompts: [prompt] }));
  server.setRequestHandler('prompts/get', async (request, ctx) => {
    if (request.params.name !== SCHEDULE_PROMPT)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}; prompts/list names ${SCHEDULE_PROMPT}`);
    const all = await visible();
    const caller = callerOf(ctx);
    const wanted = (request.params.arguments?.['schedules'] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = wanted.filter((w) => !all.some((v) => v.scheduleID === w.toLowerCase() || v.tool.name === w));
    if (unknown.length) {
      const names = [...new Set(all.map((v) => v.tool.name))].join(', ') || 'none';
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No schedule you may see is called ${unknown.join(', ')}; scheduled tools: ${names}`);
    }
    const chosen = wanted.length ? all.filter((v) => wanted.some((w) => v.scheduleID === w.toLowerCase() || v.tool.name === w)) : all;
    const sections = await Promise.all(
      chosen.map(async (v) => {
        const latest = await latestOf(v.scheduleID, caller);
        const out = latest?.output;
        const head = `## ${v.tool.label}: ${v.cadenceText} (${v.timezone})`;
        if (!out) {
          const next = latest?.nextFireAt ?? null;
          return `${head}\nNot run yet${next === null ? '' : `; next run ${next}`}.`;
        }
        const what = out.status === 'ok' ? valueText(out.value) : `Failed: ${out.error?.message ?? out.status}`;
        return `${head}\nRan ${out.startedAt} (${out.status}, ${Math.round(out.durationMs)} ms):\n${what}`;
      }),
    );
    const text = chosen.length
      ? `Latest outputs of scheduled tools in Toolwright, as of ${new Date().toISOString()}:\n\n${sections.join('\n\n')}`
      : 'No scheduled tools are visible to this connection, so there are no outputs to show.';
    return {
      description: `Latest outputs of ${chosen.length} scheduled tool${chosen.length === 1 ? '' : 's'}`,
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
    };
  });
  server.setRequestHandler('completion/complete', async (request) => {
    const all = await visible();
    const ref = request.params.ref;
    if (ref.type !== 'ref/prompt' || ref.name !== SCHEDULE_PROMPT || request.params.argument.name !== 'schedules') return { completion: { values: [] } };
    // Completes the last of the comma-separated names.
    const typed = request.params.argument.value;
    const done = typed.includes(',') ? typed.slice(0, typed.lastIndexOf(',') + 1) : '';
    const prefix = typed.slice(done.length).trim();
    const names = [...new Set(all.flatMap((v) => [v.tool.name, v.scheduleID]))].filter((n) => n.startsWith(prefix));
    return { completion: { values: names.slice(0, 100).map((n) => done + n), total: names.length, hasMore: names.length > 100 } };
  });

  const unsubscribe = live
    ? audience.onChange((change) => {
        if (change.kind === 'resources') server.sendResourceListChanged().catch(() => undefined);
        if (change.kind !== 'output' || !subscribed.has(change.scheduleID)) return;
        const id = change.scheduleID;
        void latestOf(id, WATCHER).then((latest) => {
          const out = latest?.output;
          if (!out || !subscribed.has(id) || subscribed.get(id) === out.invocationID) return;
          subscribed.set(id, out.invocationID);
          server.sendResourceUpdated({ uri: scheduleUri(id) }).catch(() => undefined);
        });
      })
    : () => undefined;

  return {
    dispose() {
      unsubscribe();
      subscribed.clear();
    },
  };
}
