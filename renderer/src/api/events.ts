/**
 * Live updates: store events (also changes made outside the app: another process, an editor)
 * invalidate the queries they concern. Bursts (an import, a git checkout) are coalesced so a
 * thousand events cause one refetch per query, a steady stream about one a second.
 */
import { useSyncExternalStore } from 'react';
import { useQueryClient, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { subscribeEvents } from './client.js';
import { foregroundBusyFor } from './foreground.js';
import { keys } from './queries.js';
import { firstScreenGate, type FirstScreenGate } from './first-screen.js';
import type { StoreEvent } from '../../../shared/operations.js';

export function keysForEvent(e: StoreEvent): QueryKey[] {
  switch (e.type) {
    case 'bundle.changed':
    case 'bundle.removed':
      // A changed source is a different server.
      return [keys.bundles, keys.tools, ['search'], keys.server(e.bundleID), keys.profiles];
    case 'tool.changed':
    case 'tool.removed':
      // A profile's tools, counts and costs follow its bundles' and tools' changes.
      return [keys.tools, keys.bundles, ['search'], keys.schedules, keys.profiles];
    case 'config.changed':
      return [keys.config, keys.system, keys.tools];
    case 'secrets.changed':
      return [keys.secrets, keys.tools];
    case 'metrics.changed':
      return [
        ['tools', 'list'],
        ['tools', 'one'],
        ['tools', 'history'],
      ];
    case 'problems.changed':
      return [keys.problems];
    case 'approvals.changed':
      return [keys.approvals];
    case 'agents.changed':
      return [keys.agents];
    case 'schedule.changed':
      return [keys.schedules, ['tools', 'history']];
    case 'tool.files.changed':
      // A Dockerfile added or removed changes the tool's availability, and its image may no longer match.
      return [keys.buildFiles(e.toolID), keys.toolImage(e.toolID), keys.tools];
    case 'upstream.changed':
      return [keys.server(e.bundleID)];
    case 'availability.changed':
      return [keys.tools, keys.system];
    case 'context.counted':
      return [['tools', 'list'], ['tools', 'one'], keys.bundles, keys.profiles];
    case 'profile.changed':
    case 'profile.removed':
      return [keys.profiles];
    case 'build.finished':
      return [keys.toolImage(e.toolID), keys.tools];
    default:
      return [];
  }
}

/** A change shows within this, and a burst within it (an import, a checkout) costs one refetch per query. */
const COALESCE_MS = 150;
/**
 * While changes keep coming (another process writing every 20 ms), each query is refetched at
 * most this often: every 150 ms was 6–7 refetches a second of the lists, counts and search
 * results on screen, each competing with the page's own work.
 */
const STEADY_MS = 1000;
/** Refetches held back for the user's typing are still made after this, however long the typing. */
const MAX_HOLD_MS = 3000;

/**
 * Store events → invalidated queries, batched: the first event of a quiet spell is answered
 * after COALESCE_MS, later ones no sooner than STEADY_MS after the previous refetch. While the
 * user types in search (foreground.ts) or a search request is on its way, the batch waits
 * (up to MAX_HOLD_MS), so a keystroke's answer and render never queue behind background refetches.
 */
export function createInvalidator(qc: QueryClient): (e: StoreEvent) => void {
  const pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastFlushAt = Number.NEGATIVE_INFINITY;
  let firstPendingAt = 0;
  const flush = () => {
    timer = undefined;
    const held = Date.now() - firstPendingAt;
    const busyFor = Math.max(foregroundBusyFor(), qc.isFetching({ queryKey: ['search'] }) > 0 ? COALESCE_MS : 0);
    if (busyFor > 0 && held < MAX_HOLD_MS) {
      timer = setTimeout(flush, Math.min(busyFor, MAX_HOLD_MS - held));
      return;
    }
    lastFlushAt = Date.now();
    const batch = [...pending.values()];
    pending.clear();
    for (const queryKey of batch) void qc.invalidateQueries({ queryKey });
  };
  return (e) => {
    const queryKeys = keysForEvent(e);
    if (!queryKeys.length) return;
    for (const k of queryKeys) pending.set(JSON.stringify(k), k);
    if (timer) return;
    firstPendingAt = Date.now();
    timer = setTimeout(flush, Math.max(COALESCE_MS, lastFlushAt + STEADY_MS - firstPendingAt));
  };
}

/**
 * Events sent while the stream was down (a host restart, a dropped connection, the app's first
 * queries sent before the stream was open) are never replayed, so each time the stream
 * (re)connects, every query whose latest request left before that moment is fetched again: the
 * host may have read it before it subscribed this stream. One still on its way is refetched too
 * (it may answer with what it read before), and what was asked for after the connection is left
 * alone. On the first connect this waits until the first screen has painted
 * (first-screen.ts): its own requests come first, and nothing is lost by refetching later.
 */
export function createResync(qc: QueryClient, opts: { gate?: FirstScreenGate } = {}): (live: boolean) => void {
  const sentAt = new WeakMap<Query, number>();
  /** Queries that were on their way at a connect: refetched as soon as they answer. */
  const refetchOnAnswer = new Set<Query>();
  const refetch = (q: Query) => void qc.invalidateQueries({ queryKey: q.queryKey, exact: true });
  qc.getQueryCache().subscribe((e) => {
    if (e.type !== 'updated') return;
    if (e.action.type === 'fetch') sentAt.set(e.query, performance.now());
    else if ((e.action.type === 'success' || e.action.type === 'error') && refetchOnAnswer.delete(e.query)) refetch(e.query);
  });
  // A query fetched before this watch began: its request left no later than its answer came.
  const lastSent = (q: Query) => sentAt.get(q) ?? (q.state.fetchStatus === 'fetching' ? 0 : q.state.dataUpdatedAt ? -Infinity : undefined);
  let cancel = () => {};
  return (live) => {
    cancel();
    if (!live) return;
    const connectedAt = performance.now();
    cancel = (opts.gate ?? firstScreenGate()).whenSettled(() => {
      for (const q of qc.getQueryCache().getAll()) {
        const sent = lastSent(q);
        if (sent === undefined || sent >= connectedAt) continue;
        // Invalidating a first fetch still out would only join it (TanStack keeps its promise): wait for its answer.
        if (q.state.fetchStatus === 'fetching' && q.state.data === undefined) refetchOnAnswer.add(q);
        else refetch(q);
      }
    });
  };
}

const listeners = new Set<(e: StoreEvent) => void>();

/**
 * Listens to the store events the app already receives (one stream for the whole app), e.g. a
 * build's log lines. Returns the unsubscribe function.
 */
export function onStoreEvent(listener: (e: StoreEvent) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

let liveUpdates: { client: QueryClient; live: boolean; notify: Set<() => void> } | undefined;

/**
 * Opens the app's one event stream, for the app's lifetime; main.tsx calls it before the first
 * queries are sent, so that on a first start the stream is open about when they are answered.
 * Calling it again (the hook below) keeps the stream already open.
 */
export function startLiveUpdates(qc: QueryClient): void {
  if (liveUpdates?.client === qc) return;
  const state = { client: qc, live: false, notify: new Set<() => void>() };
  liveUpdates = state;
  const invalidate = createInvalidator(qc);
  const resync = createResync(qc);
  subscribeEvents(
    (e) => {
      invalidate(e);
      for (const listener of listeners) listener(e);
    },
    (connected) => {
      resync(connected);
      state.live = connected;
      for (const changed of state.notify) changed();
    },
  );
}

/**
 * Whether the event stream is connected (starting it if main.tsx has not). Not before the first
 * screen has painted: the first screen's answers now arrive before the stream connects
 * (public/first-requests.js), and its connecting must not add a commit in front of the rows' paint.
 */
export function useLiveUpdates(): boolean {
  const qc = useQueryClient();
  startLiveUpdates(qc);
  const state = liveUpdates!;
  return useSyncExternalStore(
    (changed) => {
      state.notify.add(changed);
      const gate = firstScreenGate();
      const cancel = gate.settled ? () => {} : gate.whenSettled(changed);
      return () => {
        state.notify.delete(changed);
        cancel();
      };
    },
    () => state.live && firstScreenGate().settled,
    () => false,
  );
}
