/**
 * In-app navigation with addresses: every view has a hash route (`#/tool/<bundle>/<slug>/<version>`,
 * `#/settings`, …), so Back and Forward work, a reload keeps the view, and a link to a tool works
 * in the desktop app (app:// protocol) and in the browser alike. Hash routes need nothing from
 * the server and keep the token (taken from `#token=…` before this runs) out of the address.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ToolRef } from '../api/queries.js';

export type Route =
  | { name: 'tools'; bundleID: string | null }
  /** `args`: the tester's arguments as JSON text, so a link (or a reload) brings them back. */
  | { name: 'tool'; ref: ToolRef; tab?: 'tester' | 'definition' | 'history'; args?: string }
  | { name: 'toolEdit'; ref: ToolRef }
  | { name: 'toolNew'; bundleID: string }
  | { name: 'bundleNew' }
  | { name: 'bundleEdit'; bundleID: string }
  | { name: 'search'; q: string }
  | { name: 'trash' }
  | { name: 'secrets' }
  | { name: 'settings' }
  | { name: 'agents' }
  | { name: 'schedules' }
  | { name: 'audit' }
  | { name: 'profiles' }
  | { name: 'profileNew' }
  | { name: 'profile'; profileID: string };

interface Nav {
  route: Route;
  go(route: Route): void;
  /**
   * Replaces the current entry (after a save that renamed a tool, for instance). `quiet` keeps the
   * address in step with the view (the tester's arguments, the search text) without counting as
   * a navigation, so focus stays where the person is typing.
   */
  replace(route: Route, opts?: { quiet?: boolean }): void;
  back(): void;
  canGoBack: boolean;
  /** Grows with every navigation (go, replace, Back, Forward); quiet replaces leave it. */
  seq: number;
}

const NavContext = createContext<Nav | null>(null);

const e = encodeURIComponent;
const TABS = new Set(['tester', 'definition', 'history']);

/** The hash of a route: `#/…`, each part percent-encoded (slugs are Unicode). */
export function hashOf(route: Route): string {
  const ref = (r: ToolRef) => `${e(r.bundleID)}/${e(r.slug)}/${e(r.version)}`;
  switch (route.name) {
    case 'tools':
      return route.bundleID ? `#/bundle/${e(route.bundleID)}` : '#/tools';
    case 'tool':
      return `#/tool/${ref(route.ref)}${route.tab ? `/${route.tab}` : ''}${route.args ? `?args=${e(route.args)}` : ''}`;
    case 'toolEdit':
      return `#/tool/${ref(route.ref)}/edit`;
    case 'toolNew':
      return `#/bundle/${e(route.bundleID)}/new-tool`;
    case 'bundleNew':
      return '#/new-bundle';
    case 'bundleEdit':
      return `#/bundle/${e(route.bundleID)}/edit`;
    case 'search':
      return `#/search/${e(route.q)}`;
    case 'profileNew':
      return '#/profiles/new';
    case 'profile':
      return `#/profiles/${e(route.profileID)}`;
    default:
      return `#/${route.name}`;
  }
}

function argsOf(query: string): string | undefined {
  if (!query) return undefined;
  try {
    return new URLSearchParams(query).get('args') || undefined;
  } catch {
    return undefined;
  }
}

/** The route of a hash; anything unknown is the list of all tools. */
export function routeOf(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split(/\?(.*)/s);
  const parts = path
    .split('/')
    .filter((p, i) => p !== '' || i === 0)
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  const [head, a, b, c, d] = parts;
  switch (head) {
    case 'bundle':
      if (!a) break;
      if (b === 'new-tool') return { name: 'toolNew', bundleID: a };
      if (b === 'edit') return { name: 'bundleEdit', bundleID: a };
      return { name: 'tools', bundleID: a };
    case 'tool':
      if (!a || !b || !c) break;
      if (d === 'edit') return { name: 'toolEdit', ref: { bundleID: a, slug: b, version: c } };
      return {
        name: 'tool',
        ref: { bundleID: a, slug: b, version: c },
        ...(d && TABS.has(d) ? { tab: d as 'tester' } : {}),
        ...(argsOf(query) ? { args: argsOf(query)! } : {}),
      };
    case 'new-bundle':
      return { name: 'bundleNew' };
    case 'search':
      return { name: 'search', q: a ?? '' };
    case 'profiles':
      if (a === 'new') return { name: 'profileNew' };
      if (a) return { name: 'profile', profileID: a };
      return { name: 'profiles' };
    case 'trash':
    case 'secrets':
    case 'settings':
    case 'agents':
    case 'schedules':
    case 'audit':
      return { name: head };
  }
  return { name: 'tools', bundleID: null };
}

interface Entry {
  route: Route;
  depth: number;
  seq: number;
}

function currentEntry(seq: number, initial?: Route): Entry {
  const depth =
    typeof window !== 'undefined' && typeof (window.history.state as { depth?: unknown } | null)?.depth === 'number'
      ? (window.history.state as { depth: number }).depth
      : 0;
  if (initial) return { route: initial, depth: 0, seq };
  return { route: typeof window === 'undefined' ? { name: 'tools', bundleID: null } : routeOf(window.location.hash), depth, seq };
}

export function NavProvider({ children, initial }: { children: ReactNode; initial?: Route }) {
  const [entry, setEntry] = useState<Entry>(() => currentEntry(0, initial));
  // The current entry, read by go/replace outside React's updaters (which must stay pure).
  const current = useRef(entry);
  current.current = entry;

  useEffect(() => {
    // The first entry carries its depth, so Back from a reloaded deep link stays in the app.
    // Already so when public/first-requests.js took the token out of the address: replaceState
    // waits on the browser process (33–45 ms of the main thread after the first commit at load 11).
    if (window.history.state?.depth !== entry.depth || window.location.hash !== hashOf(entry.route))
      window.history.replaceState({ ...(window.history.state ?? {}), depth: entry.depth }, '', hashOf(entry.route));
    const onPop = () => {
      const next = currentEntry(current.current.seq + 1);
      current.current = next;
      setEntry(next);
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
    // Only once: later entries are written by go/replace.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const go = useCallback((route: Route) => {
    const cur = current.current;
    if (hashOf(route) === hashOf(cur.route)) return;
    const next = { route, depth: cur.depth + 1, seq: cur.seq + 1 };
    window.history.pushState({ depth: next.depth }, '', hashOf(route));
    current.current = next;
    setEntry(next);
  }, []);
  const replace = useCallback((route: Route, opts?: { quiet?: boolean }) => {
    const cur = current.current;
    const next = { route, depth: cur.depth, seq: opts?.quiet ? cur.seq : cur.seq + 1 };
    window.history.replaceState({ depth: next.depth }, '', hashOf(route));
    current.current = next;
    setEntry(next);
  }, []);
  const back = useCallback(() => {
    if (entry.depth > 0) window.history.back();
  }, [entry.depth]);
  const value = useMemo<Nav>(() => ({ route: entry.route, go, replace, back, canGoBack: entry.depth > 0, seq: entry.seq }), [entry, go, replace, back]);
  return <NavContext.Provider value={value}>{children}</NavContext.Provider>;
}

export function useNav(): Nav {
  const nav = useContext(NavContext);
  if (!nav) throw new Error('useNav outside NavProvider');
  return nav;
}
