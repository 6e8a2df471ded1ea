/**
 * What one MCP audience sees — every enabled tool, or the bundles a `?bundles=` / `--bundles`
 * names — built once per audience and shared by every 2025 session and every stateless 2026
 * request of it, so a request costs a lookup, not a walk over 10,000 tools. It follows the store
 * and the config, and tells its listeners when the visible tools, the schedule resources or a
 * schedule's latest output changed (each 2025 session forwards that on its own stream; the 2026
 * handler publishes it to its `subscriptions/listen` streams).
 */
import { cadenceKey } from '../../../shared/schedules/cadence.js';
import type { Tool } from '@modelcontextprotocol/server';
import type { Core } from '../../core/app-core.js';
import { agentTools, type AgentTool } from '../../core/agents/agent-tools.js';
import type { ConnectionHandle } from '../../core/agents/connections.js';
import { toolEtag } from '../../core/store/preconditions.js';
import type { StoreEvent } from '../../../shared/operations.js';
import { describeTool } from './describe.js';
import { profileTools } from '../../core/profiles/profile-view.js';
import { createToolSearcher, type ToolSearcher } from '../../core/agents/tool-search.js';
import { searchModeTools, searchEntryOf } from './search-mode.js';

export type McpCore = Pick<
  Core,
  | 'store'
  | 'tools'
  | 'invocations'
  | 'config'
  | 'approvals'
  | 'agents'
  | 'events'
  | 'logger'
  | 'schedules'
  | 'paths'
  | 'dispatch'
  | 'profileStore'
  | 'profiles'
  | 'metrics'
  | 'search'
>;

/** Who a scope serves: some bundles (all when none), or one profile. */
export type ScopeAudience = readonly string[] | { profileID: string };

export type ScopeChange = { kind: 'tools' } | { kind: 'resources' } | { kind: 'output'; scheduleID: string };

/** Changes arrive in bursts (an import, a bundle switch): one notification per burst. */
const CHANGE_DEBOUNCE_MS = 50;
/** A 2026 client has no connection to end: it leaves the connected-agents list after this long without a request. */
const AGENT_IDLE_MS = 5 * 60 * 1000;

export interface McpScope {
  /** Bundle slugs this audience is limited to; all when empty. */
  readonly bundles: readonly string[];
  visible(): AgentTool[];
  byName(name: string): AgentTool | undefined;
  /**
   * Why a name this audience was offered is withheld now (its upstream definition changed, the
   * server no longer offers it, a secret it needs is gone), as the answer an agent reads; undefined
   * for a name never offered, or a tool a person switched off or deleted (those stay unknown).
   */
  withheld(name: string): string | undefined;
  /** The tools/list answer, described once per change (a search-mode profile: its three tools). */
  described(): Tool[];
  /** The profile served, when the audience is one. */
  readonly profileID?: string;
  /** The profile's instructions for the MCP server, when it has some. */
  instructions(): string | undefined;
  /** `search`: tools/list holds search_tools, describe_tools and call_tool (search-mode.ts). */
  mode(): 'all' | 'search';
  /** Ranks the visible tools; built once per change of what is visible. */
  searcher(): ToolSearcher;
  onChange(listener: (change: ScopeChange) => void): () => void;
  /** The connected-agents record of a client that speaks without a session (2026), kept while it keeps calling. */
  agent(client: string, transport: 'stdio' | 'http'): Promise<ConnectionHandle | undefined>;
  dispose(): Promise<void>;
}

const IGNORED: ReadonlySet<StoreEvent['type']> = new Set([
  'metrics.changed',
  'approvals.changed',
  'problems.changed',
  'secrets.changed',
  'build.log',
  'build.finished',
  'upstream.changed',
  // Counting tokens changes nothing an agent sees.
  'context.counted',
  // Who is connected changes with every 2026 client's first request: it changes nothing an agent sees.
  'agents.changed',
] as StoreEvent['type'][]);

export function scopeKey(bundles: readonly string[] | undefined): string {
  return [...new Set(bundles ?? [])].sort().join(',');
}

export function createMcpScope(core: McpCore, audience: ScopeAudience = []): McpScope {
  const profileID = Array.isArray(audience) ? undefined : (audience as { profileID: string }).profileID;
  const bundles: readonly string[] = Array.isArray(audience) ? audience : [];
  const profile = () => (profileID ? core.profileStore.get(profileID) : undefined);
  const visibleNow = (): AgentTool[] => {
    if (!core.config.get().toolsEnabled) return [];
    if (!profileID) return agentTools(core.store.reader, core.tools, bundleIDs());
    const p = profile();
    return p ? profileTools(core.store.reader, core.tools, p) : [];
  };
  const bundleIDs = (): { bundleIDs?: Set<string> } => {
    if (!bundles.length) return {};
    const wanted = new Set(bundles);
    const ids = new Set<string>();
    for (const b of core.store.reader.bundles()) if (wanted.has(b.file.slug)) ids.add(b.file.bundleID);
    return { bundleIDs: ids };
  };
  let cached: { tools: AgentTool[]; byName: Map<string, AgentTool>; described?: Tool[]; searcher?: ToolSearcher; learnedVersion?: number } | undefined;
  // Every name this audience was offered, with its tool: an agent keeps calling a name it listed.
  const offered = new Map<string, string>();
  const current = () => {
    if (cached) return cached;
    const tools = visibleNow();
    cached = { tools, byName: new Map(tools.map((t) => [t.name, t])) };
    for (const t of tools) offered.set(t.name, t.file.toolID);
    return cached;
  };
  const withheld = (name: string): string | undefined => {
    current();
    const toolID = offered.get(name);
    const rec = toolID ? core.store.reader.tool(toolID) : undefined;
    if (!rec || !core.config.get().toolsEnabled || !core.tools.isVisible(rec)) return undefined;
    const availability = core.tools.view(rec).availability;
    if (availability.ok) return undefined;
    return `Tool ${name} is withheld from agents now: ${availability.reason ?? 'it is unavailable'}. A person must review it in Toolwright before an agent may call it again; ask the user to.`;
  };
  // By content (the file's ETag), not modifiedAt: a hand edit or a git pull may leave modifiedAt alone.
  const contentTag = (t: AgentTool) => {
    const rec = core.store.reader.tool(t.file.toolID);
    return rec ? toolEtag(rec) : t.file.modifiedAt;
  };
  const toolSignature = () =>
    current()
      .tools.map((t) => `${t.name}\u0000${t.file.toolID}\u0000${contentTag(t)}\u0000${t.safety}\u0000${t.description ?? ''}`)
      .join('\n') + `\u0000${profile()?.mode ?? ''}`;
  // The resources: schedule outputs, and the ui:// apps of the tools with a card (card-apps.ts).
  const scheduleSignature = () =>
    current()
      .tools.flatMap((t) => [
        ...(t.file.schedules ?? []).map((s) => `${s.scheduleID}\u0000${cadenceKey(s)}\u0000${s.isEnabled}\u0000${s.timezone ?? ''}`),
        ...(t.file.card?.enabled ? [`ui\u0000${t.file.toolID}`] : []),
      ])
      .join('\n');

  const listeners = new Set<(change: ScopeChange) => void>();
  const tell = (change: ScopeChange) => {
    for (const l of listeners) l(change);
  };
  let lastTools = toolSignature();
  let lastSchedules = scheduleSignature();
  let timer: NodeJS.Timeout | undefined;
  const onEvent = (e: StoreEvent) => {
    if (e.type === 'schedule.changed') {
      if (current().tools.some((t) => t.file.schedules?.some((s) => s.scheduleID === e.scheduleID))) tell({ kind: 'output', scheduleID: e.scheduleID });
      return;
    }
    if (IGNORED.has(e.type)) return;
    // Another profile's change changes nothing this audience sees.
    if ((e.type === 'profile.changed' || e.type === 'profile.removed') && e.profileID !== profileID) return;
    cached = undefined;
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      const tools = toolSignature();
      if (tools !== lastTools) {
        lastTools = tools;
        tell({ kind: 'tools' });
      }
      const schedules = scheduleSignature();
      if (schedules !== lastSchedules) {
        lastSchedules = schedules;
        tell({ kind: 'resources' });
      }
    }, CHANGE_DEBOUNCE_MS);
  };
  core.events.on('event', onEvent);

  const agents = new Map<string, { handle: Promise<ConnectionHandle | undefined>; idle: NodeJS.Timeout }>();
  const closeAgent = (key: string) => {
    const a = agents.get(key);
    if (!a) return Promise.resolve();
    agents.delete(key);
    clearTimeout(a.idle);
    return a.handle.then((h) => h?.close());
  };

  const mode = () => profile()?.mode ?? 'all';
  return {
    bundles,
    ...(profileID ? { profileID } : {}),
    visible: () => current().tools,
    byName: (name) => current().byName.get(name),
    withheld,
    described() {
      const c = current();
      return (c.described ??= mode() === 'search' ? searchModeTools() : c.tools.map(describeTool));
    },
    instructions: () => profile()?.instructions,
    mode,
    searcher() {
      const c = current();
      c.searcher ??= createToolSearcher(c.tools.map((t) => searchEntryOf(t, core.metrics.get(t.file.toolID).callCount)));
      // What agents taught the tools since this searcher last looked (learning from use).
      const learning = core.search.learning;
      const changed = learning.changedSince(c.learnedVersion ?? -1);
      const toolIDs = changed === 'all' ? new Set([...c.tools.map((t) => t.file.toolID), ...learning.learnedTools()]) : changed;
      for (const toolID of toolIDs) c.searcher.learn(toolID, learning.wordsOf(toolID));
      c.learnedVersion = learning.version;
      return c.searcher;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    agent(client, transport) {
      const key = `${transport}\u0000${client}`;
      let a = agents.get(key);
      if (a) clearTimeout(a.idle);
      else {
        a = { handle: core.agents.open(client, transport).catch(() => undefined), idle: undefined as unknown as NodeJS.Timeout };
        agents.set(key, a);
      }
      a.idle = setTimeout(() => void closeAgent(key), AGENT_IDLE_MS);
      a.idle.unref();
      return a.handle;
    },
    async dispose() {
      core.events.off('event', onEvent);
      if (timer) clearTimeout(timer);
      listeners.clear();
      await Promise.all([...agents.keys()].map(closeAgent));
    },
  };
}
