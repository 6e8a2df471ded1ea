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
} from '@modelcontextprotocol/server';
import type { Core } from '../../core/app-core.js';
import type { AgentTool } from '../../core/agents/agent-tools.js';
import type { McpScope } from './scope.js';
import type { Schedule } from '../../../shared/schedules/schema.js';
import type { ScheduleOutput } from '../../../shared/types.js';
import { machineTimeZone } from '../../../shared/schedules/cron.js';
import { describeCadence, nextRun } from '../../../shared/schedules/cadence.js';
import { valueText } from '../../../shared/format.js';

export type ScheduleResourcesCore = Pick<Core, 'schedules'>;

const URI = /^toolwright:\/\/schedules\/([0-9a-f-]{36})\/latest$/;
export const scheduleUri = (scheduleID: string) => `toolwright://schedules/${scheduleID}/latest`;
export const SCHEDULE_PROMPT = 'schedule-outputs';

interface Visible {
  schedule: Schedule;
  tool: AgentTool;
  zone: string;
}

function toolLabel(t: AgentTool): string {
  return `${t.file.displayName || t.file.slug} (${t.bundle.slug}/${t.file.slug}@${t.file.version})`;
}

function latestOf(core: ScheduleResourcesCore, scheduleID: string): Promise<ScheduleOutput | undefined> {
  return core.schedules.latest(scheduleID).catch(() => undefined);
}

/** What a read of the resource answers: the schedule, its tool, and its latest output (or null before the first run). */
async function resourceBody(core: ScheduleResourcesCore, v: Visible, output: ScheduleOutput | undefined): Promise<Record<string, unknown>> {
  const [view] = (await core.schedules.list({ toolID: v.tool.file.toolID })).items.filter((s) => s.scheduleID === v.schedule.scheduleID);
  return {
    schedule: {
      scheduleID: v.schedule.scheduleID,
      cron: v.schedule.cron ?? null,
      ...(v.schedule.at !== undefined ? { at: v.schedule.at } : {}),
      ...(v.schedule.everySeconds !== undefined ? { everySeconds: v.schedule.everySeconds } : {}),
      description: describeCadence(v.schedule),
      timezone: v.zone,
      isEnabled: v.schedule.isEnabled,
      nextRunAt: view?.nextRunAt ?? null,
    },
    tool: { name: v.tool.name, displayName: v.tool.file.displayName, bundle: v.tool.bundle.slug, slug: v.tool.file.slug, version: v.tool.file.version },
    latest: output
      ? {
          ranAt: output.startedAt,
          fireAt: output.fireAt,
          status: output.status,
          durationMs: output.durationMs,
          ...(output.value !== undefined ? { value: output.value } : {}),
          ...(output.error ? { error: { code: output.error.code, message: output.error.message } } : {}),
          ...(output.truncated ? { truncated: output.truncated } : {}),
        }
      : null,
    // A later fire that did not run (refused, skipped) is said, so an agent knows the output may be stale.
    ...(view?.lastRun && output && view.lastRun.invocationID !== output.invocationID ? { lastRun: view.lastRun } : {}),
  };
}

/** Other resources served beside the schedule outputs (the cards' ui:// apps): `read` answers undefined for an address not its own. */
export interface ResourceSource {
  list(): Resource[];
  read(uri: string): ReadResourceResult | undefined;
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
  core: ScheduleResourcesCore,
  scope: McpScope,
  live: boolean,
  others: readonly ResourceSource[] = [],
): ScheduleResources {
  const visible = (): Visible[] =>
    scope.visible().flatMap((tool) => (tool.file.schedules ?? []).map((schedule) => ({ schedule, tool, zone: schedule.timezone ?? machineTimeZone() })));
  const find = (uri: string): Visible => {
    const id = URI.exec(uri)?.[1];
    const v = id ? visible().find((x) => x.schedule.scheduleID === id) : undefined;
    if (!v) throw new ResourceNotFoundError(uri, `Resource not found: ${uri.slice(0, 200)}; resources/list names the schedule outputs you may read`);
    return v;
  };

  const describe = (v: Visible): Resource => ({
    uri: scheduleUri(v.schedule.scheduleID),
    name: `${v.tool.name}-schedule-${v.schedule.scheduleID.slice(-8)}`,
    title: `${v.tool.file.displayName || v.tool.file.slug}: ${describeCadence(v.schedule)} (${v.zone})`,
    description: `The latest output of ${toolLabel(v.tool)}, run on a schedule: ${describeCadence(v.schedule)} (${v.zone})${
      v.schedule.isEnabled ? '' : ', switched off'
    }. Read it for the newest value; subscribe to hear of each new one.`,
    mimeType: 'application/json',
  });

  server.setRequestHandler('resources/list', async () => ({ resources: [...visible().map(describe), ...others.flatMap((o) => o.list())] }));
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
  server.setRequestHandler('resources/read', async (request) => {
    for (const o of others) {
      const answer = o.read(request.params.uri);
      if (answer) return answer;
    }
    const v = find(request.params.uri);
    const body = await resourceBody(core, v, await latestOf(core, v.schedule.scheduleID));
    return { contents: [{ uri: request.params.uri, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
  });

  // Subscriptions: the invocation of the output last announced, so a new output is told once.
  const subscribed = new Map<string, string | undefined>();
  server.setRequestHandler('resources/subscribe', async (request) => {
    const v = find(request.params.uri);
    subscribed.set(v.schedule.scheduleID, (await latestOf(core, v.schedule.scheduleID))?.invocationID);
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
  server.setRequestHandler('prompts/get', async (request) => {
    if (request.params.name !== SCHEDULE_PROMPT)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}; prompts/list names ${SCHEDULE_PROMPT}`);
    const all = visible();
    const wanted = (request.params.arguments?.['schedules'] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = wanted.filter((w) => !all.some((v) => v.schedule.scheduleID === w.toLowerCase() || v.tool.name === w));
    if (unknown.length) {
      const names = [...new Set(all.map((v) => v.tool.name))].join(', ') || 'none';
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No schedule you may see is called ${unknown.join(', ')}; scheduled tools: ${names}`);
    }
    const chosen = wanted.length ? all.filter((v) => wanted.some((w) => v.schedule.scheduleID === w.toLowerCase() || v.tool.name === w)) : all;
    const sections = await Promise.all(
      chosen.map(async (v) => {
        const out = await latestOf(core, v.schedule.scheduleID);
        const head = `## ${toolLabel(v.tool)}: ${describeCadence(v.schedule)} (${v.zone})`;
        if (!out) {
          const next = v.schedule.isEnabled ? nextRun(v.schedule, v.zone, Date.now()) : null;
          return `${head}\nNot run yet${next === null ? '' : `; next run ${new Date(next).toISOString()}`}.`;
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
    const ref = request.params.ref;
    if (ref.type !== 'ref/prompt' || ref.name !== SCHEDULE_PROMPT || request.params.argument.name !== 'schedules') return { completion: { values: [] } };
    // Completes the last of the comma-separated names.
    const typed = request.params.argument.value;
    const done = typed.includes(',') ? typed.slice(0, typed.lastIndexOf(',') + 1) : '';
    const prefix = typed.slice(done.length).trim();
    const names = [...new Set(visible().flatMap((v) => [v.tool.name, v.schedule.scheduleID]))].filter((n) => n.startsWith(prefix));
    return { completion: { values: names.slice(0, 100).map((n) => done + n), total: names.length, hasMore: names.length > 100 } };
  });

  const unsubscribe = live
    ? scope.onChange((change) => {
        if (change.kind === 'resources') server.sendResourceListChanged().catch(() => undefined);
        if (change.kind !== 'output' || !subscribed.has(change.scheduleID)) return;
        const id = change.scheduleID;
        void latestOf(core, id).then((out) => {
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
