/**
 * One MCP audience as the transport follows it: the address (some bundles, or a profile), its
 * latest surface (agents.surface: what tools/list holds, its mode and instructions), and the
 * notifications its clients are owed. The core decides what an audience sees and whether it
 * changed (revisions); this only listens to the store's events, asks again once a burst of them
 * is over, and tells its listeners when a revision moved or a schedule it offers has a new output
 * (each 2025 session and stdio connection forwards that on its own stream; the 2026 handler
 * publishes it to its `subscriptions/listen` streams).
 */
import type { AgentResources, AgentSurfaceView } from '../../../../shared/agents/surface.js';
import type { Caller } from '../../../../shared/caller.js';
import type { StoreEvent } from '../../../../shared/operations.js';
import type { TransportCore } from '../../../core/operations/transport.js';

/** An address as the agent door names it. */
export interface AudienceRef {
  bundles?: string[];
  profile?: string;
}

export type AudienceChange = { kind: 'tools' } | { kind: 'resources' } | { kind: 'output'; scheduleID: string };

/** Where a request came from, for the connected-agents list. */
export interface Via {
  channel: 'stdio' | 'http';
  connectionID?: string;
}

/** Changes arrive in bursts (an import, a bundle switch): one look per burst. */
const CHANGE_DEBOUNCE_MS = 50;

/** The caller of the transport's own looks (no agent asked): an MCP caller, as the agent door takes only those. */
const WATCHER: Caller = Object.freeze({ transport: 'mcp', name: 'toolwright' });

export class AudienceGone extends Error {}

export interface AudienceWatch {
  readonly ref: AudienceRef;
  /** The audience's key (agents.surface `audience`): tasks and sessions belong to one. */
  readonly key: string;
  readonly profileID?: string;
  /** The surface as last asked for. */
  view(): AgentSurfaceView;
  /** Asks for the surface again (a tools/list: `via` lists its client among the connected agents). */
  refresh(caller?: Caller, via?: Via): Promise<AgentSurfaceView>;
  /** The schedule outputs and card apps it offers now. */
  resources(): Promise<AgentResources>;
  onChange(listener: (change: AudienceChange) => void): () => void;
  dispose(): void;
}

async function surfaceOf(core: TransportCore, ref: AudienceRef, caller: Caller, via?: Via): Promise<AgentSurfaceView> {
  const env = await core.dispatch('agents.surface', { audience: ref, ...(via ? { via } : {}) }, { caller });
  if (!env.ok) throw env.error.code === 'NOT_FOUND' ? new AudienceGone(env.error.message) : new Error(env.error.message);
  return env.data;
}

/** Opens the watch of an address; AudienceGone when it names a profile that does not exist. */
export async function watchAudience(core: TransportCore, ref: AudienceRef): Promise<AudienceWatch> {
  let last = await surfaceOf(core, ref, WATCHER);
  let lastResources: AgentResources | undefined;
  const listeners = new Set<(change: AudienceChange) => void>();
  const tell = (change: AudienceChange) => {
    for (const l of listeners) l(change);
  };
  const resources = async (): Promise<AgentResources> => {
    const env = await core.dispatch('agents.resources', { audience: ref }, { caller: WATCHER });
    if (!env.ok) throw new Error(env.error.message);
    lastResources = env.data;
    return env.data;
  };
  const adopt = (next: AgentSurfaceView) => {
    const before = last;
    last = next;
    if (next.revision !== before.revision) tell({ kind: 'tools' });
    if (next.resourcesRevision !== before.resourcesRevision) tell({ kind: 'resources' });
  };

  let timer: NodeJS.Timeout | undefined;
  const look = () => {
    timer = undefined;
    surfaceOf(core, ref, WATCHER).then(adopt, (e: unknown) => {
      // A profile removed: its clients hear that the list changed (it is empty now).
      if (e instanceof AudienceGone) tell({ kind: 'tools' });
      else core.logger.warn(`mcp: following ${JSON.stringify(ref)}: ${(e as Error).message}`);
    });
  };
  const onEvent = (e: StoreEvent) => {
    if (e.type === 'schedule.changed') {
      if (!listeners.size) return;
      // The schedules it offered as last read; read again once the resources moved.
      const known = lastResources && lastResources.revision === last.resourcesRevision ? Promise.resolve(lastResources) : resources();
      void known.then(
        (r) => {
          if (r.schedules.some((s) => s.scheduleID === e.scheduleID)) tell({ kind: 'output', scheduleID: e.scheduleID });
        },
        () => undefined,
      );
      return;
    }
    timer ??= setTimeout(look, CHANGE_DEBOUNCE_MS);
  };
  core.events.on('event', onEvent);

  return {
    ref,
    key: last.audience,
    ...(last.profileID ? { profileID: last.profileID } : {}),
    view: () => last,
    async refresh(caller = WATCHER, via) {
      const next = await surfaceOf(core, ref, caller, via);
      adopt(next);
      return next;
    },
    resources,
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    dispose() {
      core.events.off('event', onEvent);
      if (timer) clearTimeout(timer);
      listeners.clear();
    },
  };
}
