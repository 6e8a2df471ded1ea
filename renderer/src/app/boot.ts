/**
 * What the app asks for before React mounts: the event stream, then the first screen's data (the
 * bundles, the problems and the config that the frame shows, and the first page of the tool list
 * when the app opens on it). The hooks use the same query options, so they find these answers in
 * the cache and send nothing of their own.
 *
 * main.tsx renders once these have answered (or after FIRST_DATA_WAIT_MS), so the first render
 * is the frame with its data in one commit. Rendering the frame first gained nothing: its loading
 * states were thrown away a moment later, and each answer arriving on its own cost a render and a
 * commit of its own (8–11 commits before the rows painted, with 200 bundles mounted in the middle).
 */
import type { QueryClient } from '@tanstack/react-query';
import { routeOf } from '../lib/nav.js';
import { startLiveUpdates } from '../api/events.js';
import { startFirstScreenGate } from '../api/first-screen.js';
import { bundleListQuery, configQuery, problemsQuery, toolPagesQuery } from '../api/queries.js';
import { keepTokenForTab, token, transportKind } from '../api/session.js';
import { dropFirstRequests } from '../api/first-requests.js';

/**
 * How long the first render waits for the first screen's data. A host slow to answer (a cold
 * start over 10,000 files) gets the frame with its loading states after this instead of a blank
 * window; its answers then render as they come.
 */
export const FIRST_DATA_WAIT_MS = 1500;

/** Starts the first screen's requests; resolves when they have answered (or failed), or after FIRST_DATA_WAIT_MS. */
export function startFirstScreen(qc: QueryClient): Promise<void> {
  const route = routeOf(window.location.hash);
  const gate = startFirstScreenGate(route.name === 'tools');
  // The link's token reaches sessionStorage (a synchronous round trip) once the first screen is up.
  gate.whenSettled(keepTokenForTab);
  // Without a token the sign-in page comes first; the app starts the stream when it mounts.
  if (transportKind() === 'rest' && !token()) return Promise.resolve();
  startLiveUpdates(qc);
  const asked: Promise<unknown>[] = [qc.prefetchQuery(bundleListQuery('exclude')), qc.prefetchQuery(problemsQuery()), qc.prefetchQuery(configQuery())];
  if (route.name === 'tools') {
    const firstPage = toolPagesQuery(route.bundleID);
    const page = qc.prefetchInfiniteQuery(firstPage).then(() => {
      // No rows will paint (no tools, or an error): the first screen is up once this answer is.
      const state = qc.getQueryState(firstPage.queryKey);
      if (state?.status !== 'success' || !state.data?.pages[0]?.items.length) requestAnimationFrame(() => requestAnimationFrame(() => gate.settle()));
    });
    asked.push(page);
  }
  // prefetchQuery never rejects: a failed answer is in the cache as the query's error.
  const answered = Promise.race([Promise.all(asked).then(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, FIRST_DATA_WAIT_MS))]);
  return answered.finally(dropFirstRequests);
}
