/**
 * What one agent audience sees — every enabled tool, the bundles a `?bundles=` / `--bundles`
 * names, or one profile — built once per change and shared by every connection and request of
 * it, so a request costs a lookup, not a walk over 10,000 tools. It follows the store, the config
 * and its profile; what tools/list holds and what the resources are each carry a revision that
 * moves when (and only when) their content changes, so a transport that hears of a change asks
 * and compares instead of re-sending every list.
 */
import type { Tool } from '@modelcontextprotocol/server';
import type { Config } from '../../../shared/schemas.js';
import type { ProfileFile } from '../../../shared/agents/profiles.js';
import type { StoreEvent } from '../../../shared/operations.js';
import { agentTools, type AgentTool } from '../agents/agent-tools.js';
import { createToolSearcher, type ToolSearcher } from '../agents/tool-search.js';
import { profileTools } from '../profiles/profile-view.js';
import { toolEtag } from '../store/preconditions.js';
import type { StoreReader } from '../store/reader.js';
import type { ToolService } from '../store/tools.js';
import { cadenceKey } from '../../../shared/schedules/cadence.js';
import { describeTool } from './definitions.js';
import { catchUpLearning, searchEntryOf, searchModeTools, type SearchLearningSource } from './search-mode.js';

export interface AudienceDeps {
  reader: StoreReader;
  tools: ToolService;
  config: { get(): Config };
  profiles: { get(profileID: string): ProfileFile | undefined };
  metrics: { get(toolID: string): { callCount: number } };
  events: { on(event: 'event', l: (e: StoreEvent) => void): unknown; off(event: 'event', l: (e: StoreEvent) => void): unknown };
  /** Learning from use: what agents taught the tools, which the searcher ranks by. */
  learning?: SearchLearningSource;
}

/** Who an audience serves: some bundles by slug (all when none), or one profile. */
export type AudienceSpec = { bundles: readonly string[] } | { profileID: string };

export interface Audience {
  /** Stable name of the audience: its sorted bundle slugs, or `profile:<profileID>`. */
  readonly key: string;
  /** Bundle slugs it is limited to; all when empty (a profile's audience: empty). */
  readonly bundles: readonly string[];
  readonly profileID?: string;
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
  instructions(): string | undefined;
  mode(): 'all' | 'search';
  /** Ranks the visible tools; built once per change of what is visible. */
  searcher(): ToolSearcher;
  /** Moves when what tools/list holds changes. */
  revision(): number;
  /** Moves when the resources change: schedule outputs offered, and the tools with a card app. */
  resourcesRevision(): number;
  dispose(): void;
}

/** Store events that change nothing an agent sees (counting, connections, approvals, logs). */
const IGNORED: ReadonlySet<StoreEvent['type']> = new Set([
  'metrics.changed',
  'approvals.changed',
  'problems.changed',
  'build.log',
  'build.finished',
  'context.counted',
  'agents.changed',
  'schedule.changed',
] as StoreEvent['type'][]);

export const PROFILE_AUDIENCE = 'profile:';

/**
 * Revisions come from one counter, so an audience built again (after it was let go) never
 * repeats a number a transport still holds for it.
 */
let lastRevision = 0;
const nextRevision = () => ++lastRevision;

export function audienceKey(spec: AudienceSpec): string {
  return 'profileID' in spec ? PROFILE_AUDIENCE + spec.profileID : [...new Set(spec.bundles)].sort().join(',');
}

export function createAudience(deps: AudienceDeps, spec: AudienceSpec): Audience {
  const profileID = 'profileID' in spec ? spec.profileID : undefined;
  const bundles: readonly string[] = 'bundles' in spec ? [...new Set(spec.bundles)].sort() : [];
  const profile = () => (profileID ? deps.profiles.get(profileID) : undefined);
  const bundleIDs = (): { bundleIDs?: Set<string> } => {
    if (!bundles.length) return {};
    const wanted = new Set(bundles);
    const ids = new Set<string>();
    for (const b of deps.reader.bundles()) if (wanted.has(b.file.slug)) ids.add(b.file.bundleID);
    return { bundleIDs: ids };
  };
  const visibleNow = (): AgentTool[] => {
    if (!deps.config.get().toolsEnabled) return [];
    if (!profileID) return agentTools(deps.reader, deps.tools, bundleIDs());
    const p = profile();
    return p ? profileTools(deps.reader, deps.tools, p) : [];
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
    const rec = toolID ? deps.reader.tool(toolID) : undefined;
    if (!rec || !deps.config.get().toolsEnabled) return undefined;
    const why = deps.tools.notOfferedBecause(rec);
    if (!why) return undefined;
    return why.withheld
      ? `Tool ${name} is withheld from agents now: ${why.reason}. A person must review it in Toolwright before an agent may call it again; ask the user to.`
      : `Tool ${name} cannot run now: ${why.reason}. A person must set that right in Toolwright (the tool's availability there says the same) before an agent may call it again; ask the user to.`;
  };
  // By content (the file's ETag), not modifiedAt: a hand edit or a git pull may leave modifiedAt alone.
  const contentTag = (t: AgentTool) => {
    const rec = deps.reader.tool(t.file.toolID);
    return rec ? toolEtag(rec) : t.file.modifiedAt;
  };
  const toolSignature = () =>
    current()
      .tools.map((t) => `${t.name}\u0000${t.file.toolID}\u0000${contentTag(t)}\u0000${t.safety}\u0000${t.description ?? ''}`)
      .join('\n') + `\u0000${profile()?.mode ?? ''}`;
  // The resources: schedule outputs, and the ui:// apps of the tools with a card.
  const resourceSignature = () =>
    current()
      .tools.flatMap((t) => [
        ...(t.file.schedules ?? []).map((s) => `${s.scheduleID}\u0000${cadenceKey(s)}\u0000${s.isEnabled}\u0000${s.timezone ?? ''}`),
        ...(t.file.card?.enabled ? [`ui\u0000${t.file.toolID}\u0000${t.name}`] : []),
      ])
      .join('\n');

  /** A signature compared again only after a change that may have moved it. */
  const tracked = (signature: () => string) => {
    let last = signature();
    let revision = nextRevision();
    let stale = false;
    return {
      invalidate: () => void (stale = true),
      revision(): number {
        if (!stale) return revision;
        stale = false;
        const now = signature();
        if (now !== last) {
          last = now;
          revision = nextRevision();
        }
        return revision;
      },
    };
  };
  const toolsRev = tracked(toolSignature);
  const resourcesRev = tracked(resourceSignature);

  // An upstream server says something on every line of its stderr: only a change of which of its
  // tools may run (it failed, it needs a sign-in, it is back) is a change of what agents see.
  const upstreamOffered = new Map<string, string>();
  const upstreamMoved = (bundleID: string): boolean => {
    const now = deps.reader
      .toolsOf(bundleID)
      .map((rec) => (deps.tools.offeredToAgents(rec) ? rec.file.toolID : ''))
      .join(',');
    if (upstreamOffered.get(bundleID) === now) return false;
    upstreamOffered.set(bundleID, now);
    return true;
  };
  const onEvent = (e: StoreEvent) => {
    if (IGNORED.has(e.type)) return;
    if (e.type === 'upstream.changed' && !upstreamMoved(e.bundleID)) return;
    // Another profile's change changes nothing this audience sees.
    if ((e.type === 'profile.changed' || e.type === 'profile.removed') && e.profileID !== profileID) return;
    cached = undefined;
    toolsRev.invalidate();
    resourcesRev.invalidate();
  };
  deps.events.on('event', onEvent);

  const mode = () => profile()?.mode ?? 'all';
  return {
    key: audienceKey(profileID ? { profileID } : { bundles }),
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
      c.searcher ??= createToolSearcher(c.tools.map((t) => searchEntryOf(t, deps.metrics.get(t.file.toolID).callCount)));
      if (deps.learning && c.learnedVersion !== deps.learning.version) c.learnedVersion = catchUpLearning(c.searcher, c.tools, deps.learning, c.learnedVersion);
      return c.searcher;
    },
    revision: () => toolsRev.revision(),
    resourcesRevision: () => resourcesRev.revision(),
    dispose: () => void deps.events.off('event', onEvent),
  };
}
