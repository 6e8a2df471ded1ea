/**
 * In-app navigation. The desktop build loads from a custom protocol and the browser build keeps
 * its token out of the URL, so routes live in memory (with a back stack for Alt+Left / the
 * back button in headers) rather than in the address bar.
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { ToolRef } from '../api/queries.js';

export type Route =
  | { name: 'tools'; bundleID: string | null }
  | { name: 'tool'; ref: ToolRef; tab?: 'tester' | 'definition' | 'history' }
  | { name: 'toolEdit'; ref: ToolRef }
  | { name: 'toolNew'; bundleID: string }
  | { name: 'bundleNew' }
  | { name: 'bundleEdit'; bundleID: string }
  | { name: 'search'; q: string }
  | { name: 'trash' }
  | { name: 'secrets' }
  | { name: 'settings' }
  | { name: 'agents' };

interface Nav {
  route: Route;
  go(route: Route): void;
  /** Replaces the current entry (after a save that renamed a tool, for instance). */
  replace(route: Route): void;
  back(): void;
  canGoBack: boolean;
}

const NavContext = createContext<Nav | null>(null);

export function NavProvider({ children, initial }: { children: ReactNode; initial?: Route }) {
  const [stack, setStack] = useState<Route[]>([initial ?? { name: 'tools', bundleID: null }]);
  const go = useCallback((route: Route) => setStack((s) => [...s.slice(-49), route]), []);
  const replace = useCallback((route: Route) => setStack((s) => [...s.slice(0, -1), route]), []);
  const back = useCallback(() => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)), []);
  const value = useMemo<Nav>(() => ({ route: stack[stack.length - 1]!, go, replace, back, canGoBack: stack.length > 1 }), [stack, go, replace, back]);
  return <NavContext.Provider value={value}>{children}</NavContext.Provider>;
}

export function useNav(): Nav {
  const nav = useContext(NavContext);
  if (!nav) throw new Error('useNav outside NavProvider');
  return nav;
}
