/**
 * What the app asks for before React mounts: the event stream, then the first screen's data (the
 * bundles, and the first page of the tool list when the app opens on it), so the answers travel
 * while the first render runs instead of after it. The hooks use the same query options, so they
 * find these requests in flight and send none of their own.
 */
import type { QueryClient } from '@tanstack/react-query';
import { routeOf } from '../lib/nav.js';
import { startLiveUpdates } from '../api/events.js';
import { startFirstScreenGate } from '../api/first-screen.js';
import { bundleListQuery, toolPagesQuery } from '../api/queries.js';
import { token, transportKind } from '../api/session.js';

export function startFirstScreen(qc: QueryClient): void {
  const route = routeOf(window.location.hash);
  const gate = startFirstScreenGate(route.name === 'tools');
  // Without a token the sign-in page comes first; the app starts the stream when it mounts.
  if (transportKind() === 'rest' && !token()) return;
  startLiveUpdates(qc);
  void qc.prefetchQuery(bundleListQuery('exclude'));
  if (route.name !== 'tools') return;
  const firstPage = toolPagesQuery(route.bundleID);
  void qc.prefetchInfiniteQuery(firstPage).then(() => {
    // No rows will paint (no tools, or an error): the first screen is up once this answer is.
    const state = qc.getQueryState(firstPage.queryKey);
    if (state?.status !== 'success' || !state.data?.pages[0]?.items.length) requestAnimationFrame(() => requestAnimationFrame(() => gate.settle()));
  });
}
