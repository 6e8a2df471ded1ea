/**
 * Live updates: store events (also changes made outside the app: another process, an editor)
 * invalidate the queries they concern. Bursts (an import, a git checkout) are coalesced so a
 * thousand events cause one refetch per query.
 */
import { useEffect, useState } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { subscribeEvents } from './client.js';
import { keys } from './queries.js';
import type { StoreEvent } from '../../../shared/operations.js';

export function keysForEvent(e: StoreEvent): QueryKey[] {
  switch (e.type) {
    case 'bundle.changed':
    case 'bundle.removed':
      return [keys.bundles, keys.tools, ['search']];
    case 'tool.changed':
    case 'tool.removed':
      return [keys.tools, keys.bundles, ['search'], keys.schedules];
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
    default:
      return [];
  }
}

const COALESCE_MS = 150;

export function createInvalidator(qc: QueryClient): (e: StoreEvent) => void {
  const pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (e) => {
    for (const k of keysForEvent(e)) pending.set(JSON.stringify(k), k);
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      const batch = [...pending.values()];
      pending.clear();
      for (const queryKey of batch) void qc.invalidateQueries({ queryKey });
    }, COALESCE_MS);
  };
}

/** Subscribes for the app's lifetime; returns whether the event stream is connected. */
export function useLiveUpdates(): boolean {
  const qc = useQueryClient();
  const [live, setLive] = useState(false);
  useEffect(() => subscribeEvents(createInvalidator(qc), setLive), [qc]);
  return live;
}
