/** Bundles with their switches and tool counts, plus the app's other places. */
import { memo, startTransition, useCallback, useEffect, useState } from 'react';
import { useBundles, useProblems, useSchedules } from '../api/queries.js';
import { useFirstScreenSettled } from '../api/first-screen.js';
import { foregroundBusyFor } from '../api/foreground.js';
import { useToggleBundle } from '../api/mutations.js';
import { useNav, type Route } from '../lib/nav.js';
import { Switch } from '../components/Switch.js';
import { Badge } from '../components/States.js';
import { errorMessage } from '../api/errors.js';
import { useTransfer } from '../features/transfer/TransferProvider.js';
import { ImportIcon } from '../features/transfer/DropZone.js';
import { plural } from '../lib/format.js';
import { whenIdle } from '../api/idle.js';
import { slotsOf } from '../tool-types/slot-registry.js';
import type { BundleView } from '../../../shared/types.js';
import './Sidebar.css';

function isBundleActive(route: Route, bundleID: string): boolean {
  if (route.name === 'tools') return route.bundleID === bundleID;
  if (route.name === 'tool' || route.name === 'toolEdit') return route.ref.bundleID === bundleID;
  if (route.name === 'toolNew' || route.name === 'bundleEdit') return route.bundleID === bundleID;
  return false;
}

/** What sits above the bundle rows in the sidebar (136 px at the default font size), a little under. */
const SIDEBAR_HEAD_PX = 120;

/**
 * Bundle rows rendered before the first screen has painted: as many as the window's height could
 * show below the brand, All tools and the bundles' heading (135 px; a row is 34 px, Sidebar.css),
 * never fewer than 20. With 200 bundles, their rows were three quarters of the first render's
 * components; 40 of them were still a fifth of it at 820 px, where 21 fit. The others follow at
 * transition priority once the tool list is on screen.
 */
export function firstBundleRows(windowHeight = typeof window === 'undefined' ? 0 : window.innerHeight): number {
  return Math.max(20, Math.ceil((windowHeight - SIDEBAR_HEAD_PX) / 34));
}

/** Bundle rows added per idle moment once the first screen has settled. */
const BUNDLE_ROWS_STEP = 40;

/**
 * How many bundle rows to render: `first` until the first screen has settled, then
 * BUNDLE_ROWS_STEP more in each idle moment. The other 175 of 200 bundles mounted in one commit
 * (356 components, 1,400 elements, and their style and layout) had a key typed then wait for it.
 */
function useBundleRowsShown(total: number, first: number, settled: boolean): number {
  const [shown, setShown] = useState(first);
  const more = settled && shown < total;
  useEffect(() => {
    if (!more) return;
    return whenIdle(() => startTransition(() => setShown((n) => n + BUNDLE_ROWS_STEP)), 500, foregroundBusyFor);
  }, [more, shown]);
  return settled ? shown : first;
}

function isProfileRoute(route: Route): boolean {
  return route.name === 'profiles' || route.name === 'profileNew' || route.name === 'profile';
}

export function Sidebar() {
  const { route, go } = useNav();
  const bundles = useBundles('exclude');
  const trash = useBundles('only');
  const problems = useProblems();
  const schedules = useSchedules();
  const scheduled = schedules.data?.filter((s) => s.isEnabled).length;
  const toggle = useToggleBundle();
  const transfer = useTransfer();
  const total = bundles.data?.reduce((n, b) => n + b.toolCount, 0);
  const rowsShown = useBundleRowsShown(bundles.data?.length ?? 0, firstBundleRows(), useFirstScreenSettled());
  const shown = bundles.data && rowsShown < bundles.data.length ? bundles.data.slice(0, rowsShown) : bundles.data;
  const openBundle = useCallback((bundleID: string) => go({ name: 'tools', bundleID }), [go]);
  const { mutate: toggleMutate } = toggle;
  const toggleBundle = useCallback((bundle: BundleView, isEnabled: boolean) => toggleMutate({ bundle, isEnabled }), [toggleMutate]);

  return (
    <nav className="sidebar" aria-label="Bundles and places">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          ⚒
        </span>{' '}
        Toolwright
      </div>
      <button
        type="button"
        className={`nav-item${route.name === 'tools' && route.bundleID === null ? ' is-active' : ''}`}
        aria-current={route.name === 'tools' && route.bundleID === null ? 'page' : undefined}
        onClick={() => go({ name: 'tools', bundleID: null })}
      >
        <span className="nav-label">All tools</span>
        {total !== undefined && <span className="count">{total}</span>}
      </button>

      <div className="sidebar-heading">
        <span id="bundles-heading">Bundles</span>
        <span className="sidebar-actions">
          <button
            type="button"
            className="icon-btn"
            aria-label="Import bundles…"
            title="Import… (a ZIP export, SKILL.md or OpenAPI document; or drop files or a container folder anywhere)"
            onClick={transfer.pickFiles}
            disabled={transfer.busy !== null}
            data-testid="sidebar-import"
          >
            <ImportIcon />
          </button>
          {slotsOf('AddBundle').map(({ key, Slot }) => (
            <Slot key={key} place="sidebar" />
          ))}
          <button
            type="button"
            className="icon-btn"
            aria-label="New bundle"
            title="New bundle"
            onClick={() => go({ name: 'bundleNew' })}
            data-testid="new-bundle"
          >
            +
          </button>
        </span>
      </div>
      <ul className="bundle-list" aria-labelledby="bundles-heading" data-testid="bundle-list">
        {bundles.isPending && <li className="muted pad">Loading bundles…</li>}
        {bundles.isError && (
          <li className="field-error pad" role="alert">
            {errorMessage(bundles.error)}{' '}
            <button type="button" className="link-btn" onClick={() => void bundles.refetch()}>
              Retry
            </button>
          </li>
        )}
        {bundles.data?.length === 0 && <li className="muted pad">No bundles yet.</li>}
        {shown?.map((b) => (
          <BundleRow key={b.bundleID} bundle={b} active={isBundleActive(route, b.bundleID)} onOpen={openBundle} onToggle={toggleBundle} />
        ))}
      </ul>

      <div className="sidebar-bottom">
        <button
          type="button"
          className={`nav-item${route.name === 'schedules' ? ' is-active' : ''}`}
          aria-current={route.name === 'schedules' ? 'page' : undefined}
          onClick={() => go({ name: 'schedules' })}
          data-testid="nav-schedules"
        >
          <span className="nav-label">Schedules</span>
          {!!scheduled && (
            <span className="count" aria-label={`${scheduled} schedules on`}>
              {scheduled}
            </span>
          )}
        </button>
        <button
          type="button"
          className={`nav-item${route.name === 'trash' ? ' is-active' : ''}`}
          aria-current={route.name === 'trash' ? 'page' : undefined}
          onClick={() => go({ name: 'trash' })}
          data-testid="nav-trash"
        >
          <span className="nav-label">Trash</span>
          {!!trash.data?.length && <span className="count">{trash.data.length}</span>}
        </button>
        <button
          type="button"
          className={`nav-item${isProfileRoute(route) ? ' is-active' : ''}`}
          aria-current={isProfileRoute(route) ? 'page' : undefined}
          onClick={() => go({ name: 'profiles' })}
          data-testid="nav-profiles"
        >
          <span className="nav-label">Profiles</span>
        </button>
        <button
          type="button"
          className={`nav-item${route.name === 'audit' ? ' is-active' : ''}`}
          aria-current={route.name === 'audit' ? 'page' : undefined}
          onClick={() => go({ name: 'audit' })}
          data-testid="nav-audit"
        >
          <span className="nav-label">Audit log</span>
        </button>
        <button
          type="button"
          className={`nav-item${route.name === 'agents' ? ' is-active' : ''}`}
          aria-current={route.name === 'agents' ? 'page' : undefined}
          onClick={() => go({ name: 'agents' })}
          data-testid="nav-agents"
        >
          <span className="nav-label">Connect an agent</span>
        </button>
        <button
          type="button"
          className={`nav-item${route.name === 'secrets' ? ' is-active' : ''}`}
          aria-current={route.name === 'secrets' ? 'page' : undefined}
          onClick={() => go({ name: 'secrets' })}
          data-testid="nav-secrets"
        >
          <span className="nav-label">Secrets</span>
        </button>
        <button
          type="button"
          className={`nav-item${route.name === 'settings' ? ' is-active' : ''}`}
          aria-current={route.name === 'settings' ? 'page' : undefined}
          onClick={() => go({ name: 'settings' })}
          data-testid="nav-settings"
        >
          <span className="nav-label">Settings</span>
          {!!problems.data?.items.length && (
            <span className="count count-danger" title="Files that could not be read (Settings → Data)" data-testid="problems-badge">
              {plural(problems.data.items.length, 'problem')}
            </span>
          )}
        </button>
      </div>
    </nav>
  );
}

/**
 * Memoised with stable callbacks: a navigation, or a refetch of the bundle list while another
 * process writes tools, renders again only the rows whose bundle or active state changed, not
 * all of a few hundred.
 */
const BundleRow = memo(function BundleRow({
  bundle: b,
  active,
  onOpen,
  onToggle,
}: {
  bundle: BundleView;
  active: boolean;
  onOpen(bundleID: string): void;
  onToggle(bundle: BundleView, isEnabled: boolean): void;
}) {
  return (
    <li className={`bundle-row${active ? ' is-active' : ''}${b.isEnabled ? '' : ' is-off'}`} data-testid={`bundle-${b.slug}`}>
      <button
        type="button"
        className="bundle-open"
        aria-current={active ? 'page' : undefined}
        onClick={() => onOpen(b.bundleID)}
        title={b.description || b.displayName || b.slug}
      >
        <span className="bundle-name">{b.displayName || b.slug}</span>
        {b.isBuiltIn && <Badge tone="info">built-in</Badge>}
        <span className="count" aria-label={plural(b.toolCount, 'tool')}>
          {b.toolCount}
        </span>
      </button>
      <Switch
        checked={b.isEnabled}
        label={`${b.displayName || b.slug} enabled`}
        testId={`bundle-switch-${b.slug}`}
        onChange={(isEnabled) => onToggle(b, isEnabled)}
      />
    </li>
  );
});
