/**
 * What an audience may read beside its tools: the latest output of each schedule of its visible
 * tools (`toolwright://schedules/<scheduleID>/latest`, how a schedule's output feeds an agent), and
 * the card app of each visible tool with a card (`ui://toolwright/<toolID>/card`). The MCP
 * transport lists, reads and subscribes to them; which exist for whom, and what a read holds, is
 * decided here.
 */
import type { ScheduleOutput, ScheduleView } from '../../../shared/types.js';
import type { AgentCardApp, AgentResources, AgentScheduleEntry, AgentScheduleLatest } from '../../../shared/agents/surface.js';
import { machineTimeZone } from '../../../shared/schedules/cron.js';
import { describeCadence, nextRun } from '../../../shared/schedules/cadence.js';
import type { AgentTool } from '../agents/agent-tools.js';
import { hasCardApp } from '../agents/mcp-tool.js';
import { CoreError } from '../errors.js';
import type { Audience } from './audience.js';

export interface ScheduleReader {
  list(filter: { toolID?: string }): Promise<{ items: ScheduleView[] }>;
  latest(scheduleID: string): Promise<ScheduleOutput>;
}

const toolLabel = (t: AgentTool) => `${t.file.displayName || t.file.slug} (${t.bundle.slug}/${t.file.slug}@${t.file.version})`;

export function cardAppOf(t: AgentTool): AgentCardApp {
  const card = t.file.card;
  return {
    toolID: t.file.toolID,
    name: t.name,
    title: t.file.displayName || t.file.slug,
    ...(card?.accentColor ? { accentColor: card.accentColor } : {}),
    ...(card?.backgroundColor ? { backgroundColor: card.backgroundColor } : {}),
  };
}

function scheduleEntries(audience: Audience): { entry: AgentScheduleEntry; toolID: string }[] {
  return audience.visible().flatMap((t) =>
    (t.file.schedules ?? []).map((s) => ({
      toolID: t.file.toolID,
      entry: {
        scheduleID: s.scheduleID,
        ...(s.cron !== undefined ? { cron: s.cron } : {}),
        ...(s.at !== undefined ? { at: s.at } : {}),
        ...(s.everySeconds !== undefined ? { everySeconds: s.everySeconds } : {}),
        cadenceText: describeCadence(s),
        timezone: s.timezone ?? machineTimeZone(),
        isEnabled: s.isEnabled,
        tool: { name: t.name, displayName: t.file.displayName, bundle: t.bundle.slug, slug: t.file.slug, version: t.file.version, label: toolLabel(t) },
      },
    })),
  );
}

export function audienceResources(audience: Audience): AgentResources {
  return {
    revision: audience.resourcesRevision(),
    schedules: scheduleEntries(audience).map((s) => s.entry),
    cards: audience.visible().filter(hasCardApp).map(cardAppOf),
  };
}

export async function scheduleLatest(schedules: ScheduleReader, audience: Audience, scheduleID: string): Promise<AgentScheduleLatest> {
  const found = scheduleEntries(audience).find((s) => s.entry.scheduleID === scheduleID);
  if (!found) throw new CoreError('NOT_FOUND', `no schedule ${scheduleID} among the tools this agent may see`);
  const { entry } = found;
  const output = await schedules.latest(scheduleID).catch(() => undefined);
  const [view] = (await schedules.list({ toolID: found.toolID })).items.filter((s) => s.scheduleID === scheduleID);
  const next = entry.isEnabled ? nextRun(entry, entry.timezone, Date.now()) : null;
  const body = {
    schedule: {
      scheduleID,
      cron: entry.cron ?? null,
      ...(entry.at !== undefined ? { at: entry.at } : {}),
      ...(entry.everySeconds !== undefined ? { everySeconds: entry.everySeconds } : {}),
      description: entry.cadenceText,
      timezone: entry.timezone,
      isEnabled: entry.isEnabled,
      nextRunAt: view?.nextRunAt ?? null,
    },
    tool: { name: entry.tool.name, displayName: entry.tool.displayName, bundle: entry.tool.bundle, slug: entry.tool.slug, version: entry.tool.version },
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
  return { body, output: output ?? null, nextFireAt: next === null ? null : new Date(next).toISOString() };
}
