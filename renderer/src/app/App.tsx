/** The app frame: sidebar, top bar with the always-visible search, the current screen, the palette. */
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { useNav, type Route } from '../lib/nav.js';
import { useFocusOnNavigate } from '../lib/useFocusOnNavigate.js';
import { useLiveUpdates } from '../api/events.js';
import { useConfig } from '../api/queries.js';
import { firstScreenGate } from '../api/first-screen.js';
import { Sidebar } from './Sidebar.js';
import { ToolList } from '../features/tools/list/ToolList.js';
import { Loading } from '../components/States.js';
import { SearchCombo, SearchPalette } from '../features/search/Search.js';
import { DropOverlay, TransferStatus } from '../features/transfer/DropZone.js';
import { ApprovalsPanel } from '../features/approvals/ApprovalsPanel.js';
import { slotsOf } from '../tool-types/slot-registry.js';
import { preloadable, preloadSecondaryScreens } from '../lib/preloadable.js';

// The tester (rjsf) and the editors (CodeMirror) are most of the code; the tool list, which
// people see first, does not wait for them, nor for screens opened now and then.
const ToolDetail = lazy(() => import('../features/tools/detail/ToolDetail.js').then((m) => ({ default: m.ToolDetail })));
const ToolEditorScreen = lazy(() => import('../features/tools/editor/ToolEditor.js').then((m) => ({ default: m.ToolEditorScreen })));
const SchedulesScreen = lazy(() => import('../features/schedules/SchedulesScreen.js').then((m) => ({ default: m.SchedulesScreen })));
const BundleEditor = lazy(() => import('../features/bundles/BundleEditor.js').then((m) => ({ default: m.BundleEditor })));
const TrashScreen = lazy(() => import('../features/trash/TrashScreen.js').then((m) => ({ default: m.TrashScreen })));
const SecretsScreen = lazy(() => import('../features/settings/SecretsScreen.js').then((m) => ({ default: m.SecretsScreen })));
const SettingsScreen = lazy(() => import('../features/settings/SettingsScreen.js').then((m) => ({ default: m.SettingsScreen })));
const AuditScreen = lazy(() => import('../features/audit/AuditScreen.js').then((m) => ({ default: m.AuditScreen })));
const ProfileList = lazy(() => import('../features/profiles/ProfileList.js').then((m) => ({ default: m.ProfileList })));
const ProfileEditor = lazy(() => import('../features/profiles/ProfileEditor.js').then((m) => ({ default: m.ProfileEditor })));
// Opened from the search box's last option: loaded ahead once the first screen has settled.
const SearchScreen = preloadable(() => import('../features/search/SearchScreen.js').then((m) => m.SearchScreen));
const AgentsScreen = lazy(() => import('../features/agents/AgentsScreen.js').then((m) => ({ default: m.AgentsScreen })));

function Screen({ route }: { route: Route }) {
  switch (route.name) {
    case 'tools':
      return <ToolList bundleID={route.bundleID} />;
    case 'tool':
      return <ToolDetail key={`${route.ref.bundleID}/${route.ref.slug}/${route.ref.version}`} toolRef={route.ref} args={route.args} />;
    case 'toolEdit':
      return <ToolEditorScreen key={`${route.ref.bundleID}/${route.ref.slug}/${route.ref.version}`} toolRef={route.ref} />;
    case 'toolNew':
      return <ToolEditorScreen key={`new/${route.bundleID}`} bundleID={route.bundleID} />;
    case 'bundleNew':
      return <BundleEditor key="new" />;
    case 'bundleEdit':
      return <BundleEditor key={route.bundleID} bundleID={route.bundleID} />;
    case 'trash':
      return <TrashScreen />;
    case 'secrets':
      return <SecretsScreen />;
    case 'settings':
      return <SettingsScreen />;
    case 'agents':
      return <AgentsScreen />;
    case 'search':
      return <SearchScreen q={route.q} />;
    case 'schedules':
      return <SchedulesScreen />;
    case 'audit':
      return <AuditScreen />;
    case 'profiles':
      return <ProfileList />;
    case 'profileNew':
      return <ProfileEditor key="new" />;
    case 'profile':
      return <ProfileEditor key={route.profileID} profileID={route.profileID} />;
    default:
      return <ToolList bundleID={null} />;
  }
}

function isTyping(el: EventTarget | null): boolean {
  return el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

export function App() {
  const { route, back, canGoBack, go, seq } = useNav();
  const config = useConfig();
  const [palette, setPalette] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);
  const mainRef = useRef<HTMLElement>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setPalette(true);
      } else if (e.key === '/' && !mod && !isTyping(e.target)) {
        e.preventDefault();
        searchRef.current?.focus();
      } else if (e.altKey && e.key === 'ArrowLeft' && canGoBack) {
        e.preventDefault();
        back();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [back, canGoBack]);

  useFocusOnNavigate(mainRef, seq);
  // Moving on from the first screen lets what it deferred start (first-screen.ts).
  useEffect(() => {
    if (seq > 0) firstScreenGate().settle();
  }, [seq]);
  // What a click may open next (the search page, an upstream server's panel, the add-server form) loads once the first screen is done.
  useEffect(() => {
    let cancel: (() => void) | undefined;
    const unwait = firstScreenGate().whenSettled(() => (cancel = preloadSecondaryScreens()));
    return () => {
      unwait();
      cancel?.();
    };
  }, []);

  return (
    <TypeProviders>
      <div className="app">
        <a
          className="skip-link"
          href="#main"
          onClick={(e) => {
            e.preventDefault();
            mainRef.current?.focus();
          }}
        >
          Skip to content
        </a>
        <aside className="app-sidebar">
          <Sidebar />
        </aside>
        <div className="app-main">
          <header className="topbar">
            <button type="button" className="icon-btn" aria-label="Back" title="Back (Alt+←)" onClick={back} disabled={!canGoBack}>
              ←
            </button>
            <SearchCombo variant="bar" inputRef={searchRef} />
            <div className="topbar-status">
              <TransferStatus />
              {config.data && !config.data.toolsEnabled && (
                <button type="button" className="badge badge-danger as-button" onClick={() => go({ name: 'settings' })} data-testid="kill-badge">
                  All tools stopped
                </button>
              )}
              <LiveDot />
            </div>
          </header>
          <main id="main" ref={mainRef} tabIndex={-1} className="content">
            <Suspense fallback={<Loading />}>
              <Screen route={route} />
            </Suspense>
          </main>
        </div>
        <SearchPalette open={palette} onClose={() => setPalette(false)} />
        <DropOverlay />
        <ApprovalsPanel />
      </div>
    </TypeProviders>
  );
}

/** Whether changes made elsewhere show here; on its own so that the stream connecting re-renders only the dot, not the app. */
function LiveDot() {
  const live = useLiveUpdates();
  return (
    <span
      className={`live-dot${live ? ' is-live' : ''}`}
      title={live ? 'Live: changes made elsewhere appear here' : 'Reconnecting to live updates…'}
      aria-label={live ? 'Live updates on' : 'Live updates reconnecting'}
      role="img"
    />
  );
}

/** Each tool type's Provider (its dialogs and what opens them) around the app, nested in the registry's order. */
function TypeProviders({ children }: { children: ReactNode }) {
  return slotsOf('Provider').reduceRight<ReactNode>((inner, { key, Slot }) => <Slot key={key}>{inner}</Slot>, children);
}
