/**
 * An upstream bundle's server, above its tools: state (with the error when it failed), what the
 * server says it is, protocol, last sync, restarts, the end of its stderr; Sync now (after a dry
 * run that says what would be added, changed and gone) and Stop server; "Sign in to <server>"
 * when a remote server needs OAuth (the link opens in the system browser from the desktop app,
 * in a new tab from the browser build); its tools by review state, with the ones that need a
 * person (new, changed, gone) one click away. Live through upstream.changed (api/events.ts).
 */
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useServerStatus, useToolPages, toolRefOf, keys } from '../../api/queries.js';
import { authorizeServer, stopServer, syncServer } from '../../api/operations.js';
import { errorMessage } from '../../api/errors.js';
import { useToast } from '../../components/Toasts.js';
import { Badge } from '../../components/States.js';
import { absoluteTime, plural, relativeTime } from '../../lib/format.js';
import { useNav } from '../../lib/nav.js';
import type { BundleView } from '../../../../shared/types.js';
import type { ReviewCounts, UpstreamStatus, UpstreamSyncReport } from '../../../../shared/upstream.js';
import { MARK_LABEL, upstreamMarkOf } from './upstreamMark.js';
import './UpstreamPanel.css';

const STATE_TONE: Record<UpstreamStatus['state'], 'neutral' | 'info' | 'ok' | 'danger'> = {
  stopped: 'neutral',
  starting: 'info',
  ready: 'ok',
  failed: 'danger',
  'needs-authorization': 'info',
};

function describeSource(bundle: BundleView): string {
  const s = bundle.source;
  if (!s) return '';
  return s.transport === 'http' ? s.url : [s.command, ...(s.args ?? [])].join(' ');
}

export function UpstreamPanel({ bundle }: { bundle: BundleView }) {
  const qc = useQueryClient();
  const toast = useToast();
  const status = useServerStatus(bundle.bundleID);
  const [preview, setPreview] = useState<UpstreamSyncReport | null>(null);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: keys.server(bundle.bundleID) });
    void qc.invalidateQueries({ queryKey: keys.tools });
    void qc.invalidateQueries({ queryKey: keys.bundles });
  };
  const dryRun = useMutation({
    mutationFn: () => syncServer({ bundleID: bundle.bundleID, dryRun: true }),
    onSuccess: setPreview,
    onSettled: () => void qc.invalidateQueries({ queryKey: keys.server(bundle.bundleID) }),
  });
  const sync = useMutation({
    mutationFn: () => syncServer({ bundleID: bundle.bundleID }),
    onSuccess: (r) => {
      setPreview(null);
      toast.show('success', `Synced: ${summary(r)}`);
    },
    onError: (e) => toast.show('error', `Could not sync: ${errorMessage(e)}`),
    onSettled: refresh,
  });
  const stop = useMutation({
    mutationFn: () => stopServer({ bundleID: bundle.bundleID }),
    onError: (e) => toast.show('error', `Could not stop the server: ${errorMessage(e)}`),
    onSettled: refresh,
  });

  const signIn = useMutation({
    mutationFn: () => authorizeServer({ bundleID: bundle.bundleID }),
    onSuccess: (r) => {
      // The desktop shell sends a sign-in link it started to the system browser; a browser opens a tab.
      if (r.authorizationUrl) window.open(r.authorizationUrl, '_blank', 'noopener,noreferrer');
      else toast.show('success', 'Signed in again: the stored sign-in was renewed');
    },
    onError: (e) => toast.show('error', `Could not start signing in: ${errorMessage(e)}`),
    onSettled: refresh,
  });

  const s = status.data;
  const serverName = s?.server?.title || s?.server?.name || bundle.displayName || bundle.slug;
  return (
    <section className="panel server-panel" aria-labelledby="server-title" data-testid="server-panel">
      <div className="panel-head server-head">
        <h2 className="panel-title" id="server-title">
          MCP server
        </h2>
        {s && (
          <Badge tone={STATE_TONE[s.state]}>
            <span data-testid="server-state">{s.state}</span>
          </Badge>
        )}
        <code className="server-source break" title={describeSource(bundle)}>
          {describeSource(bundle)}
        </code>
        <div className="server-actions">
          <button
            type="button"
            className="btn"
            disabled={dryRun.isPending || sync.isPending || !bundle.isEnabled}
            onClick={() => dryRun.mutate()}
            data-testid="server-sync"
          >
            {dryRun.isPending ? 'Checking…' : 'Sync now…'}
          </button>
          <button
            type="button"
            className="btn"
            disabled={stop.isPending || !s || s.state === 'stopped'}
            onClick={() => stop.mutate()}
            data-testid="server-stop"
          >
            Stop server
          </button>
        </div>
      </div>
      {status.isError && (
        <p className="field-error" role="alert">
          Could not read the server&apos;s state: {errorMessage(status.error)}
        </p>
      )}
      {s && (
        <dl className="server-facts">
          <dt>Server</dt>
          <dd data-testid="server-info">{s.server ? `${s.server.title || s.server.name} ${s.server.version}` : '—'}</dd>
          <dt>Protocol</dt>
          <dd>{s.protocolVersion ?? '—'}</dd>
          <dt>Last sync</dt>
          <dd title={absoluteTime(s.syncedAt)} data-testid="server-synced">
            {s.syncedAt ? relativeTime(s.syncedAt) : 'never'}
          </dd>
          <dt>Review</dt>
          <dd data-testid="server-review">{reviewSummary(s.review)}</dd>
          <dt>Restarts</dt>
          <dd>{s.restarts}</dd>
          {s.pid !== undefined && (
            <>
              <dt>Process</dt>
              <dd className="mono">{s.pid}</dd>
            </>
          )}
        </dl>
      )}
      {s?.state === 'needs-authorization' && (
        <div className="notice notice-info server-signin" role="status" data-testid="server-signin">
          {s.authorizationUrl ? (
            <p>
              Finish signing in to {serverName} in your browser.{' '}
              <a href={s.authorizationUrl} target="_blank" rel="noopener noreferrer" data-testid="server-signin-link">
                Open the sign-in page
              </a>
            </p>
          ) : (
            <p data-testid="server-signin-reason">{s.lastError ?? `${serverName} needs you to sign in.`}</p>
          )}
          <button type="button" className="btn btn-primary" disabled={signIn.isPending} onClick={() => signIn.mutate()} data-testid="server-signin-button">
            {s.authorizationUrl ? 'Start again' : `Sign in to ${serverName}`}
          </button>
        </div>
      )}
      {s?.state === 'failed' && s.lastError && (
        <p className="notice notice-danger" role="alert" data-testid="server-error">
          {s.lastError}
        </p>
      )}
      {dryRun.isError && (
        <p className="notice notice-danger" role="alert" data-testid="sync-error">
          Could not reach the server to sync: {errorMessage(dryRun.error)}
        </p>
      )}
      {s && s.review.new + s.review.changed + s.review.gone > 0 && <NeedsReview bundle={bundle} />}
      {preview && <SyncPreview report={preview} busy={sync.isPending} onApply={() => sync.mutate()} onCancel={() => setPreview(null)} />}
      {s && !s.stderr && <p className="server-log muted">The server has written nothing on stderr.</p>}
      {s?.stderr && (
        <details className="server-log" open={s.state === 'failed' || undefined}>
          <summary>Server log (stderr)</summary>
          <pre className="code-block server-stderr" tabIndex={0} aria-label="The server's stderr, most recent last" data-testid="server-stderr">
            {s.stderr}
          </pre>
        </details>
      )}
    </section>
  );
}

const REVIEW_TONE = { new: 'info', changed: 'warn', gone: 'danger' } as const;

function reviewSummary(c: ReviewCounts | undefined): string {
  if (!c) return '—';
  const parts = [
    c.new ? `${c.new} new` : '',
    c.changed ? `${c.changed} changed` : '',
    c.gone ? `${c.gone} gone` : '',
    c.accepted ? `${c.accepted} accepted` : '',
  ];
  return parts.filter(Boolean).join(' · ') || 'no tools yet';
}

/** The tools a person still has to look at (new, changed, gone), each a link to its page. */
function NeedsReview({ bundle }: { bundle: BundleView }) {
  const nav = useNav();
  const pages = useToolPages(bundle.bundleID);
  const tools = (pages.data?.pages ?? []).flatMap((p) => p.items).filter((t) => t.bundleID === bundle.bundleID && upstreamMarkOf(t));
  if (!tools.length) return null;
  return (
    <details className="server-review" data-testid="server-needs-review">
      <summary>Needs review ({tools.length})</summary>
      <ul>
        {tools.map((t) => {
          const mark = upstreamMarkOf(t)!;
          return (
            <li key={t.toolID}>
              <Badge tone={REVIEW_TONE[mark]}>{MARK_LABEL[mark]}</Badge>{' '}
              <button type="button" className="link-btn" onClick={() => nav.go({ name: 'tool', ref: toolRefOf(t) })} data-testid={`needs-review-${t.slug}`}>
                {t.displayName || t.slug}
              </button>{' '}
              <span className="muted mono">{t.slug}</span>
            </li>
          );
        })}
      </ul>
    </details>
  );
}

function summary(r: UpstreamSyncReport): string {
  const parts = [
    r.added.length ? `${r.added.length} new` : '',
    r.changed.length ? `${r.changed.length} changed` : '',
    r.gone.length ? `${r.gone.length} gone` : '',
    r.unchanged ? `${r.unchanged} unchanged` : '',
  ].filter(Boolean);
  return parts.join(', ') || 'the server offers no tools';
}

function SyncPreview({ report, busy, onApply, onCancel }: { report: UpstreamSyncReport; busy: boolean; onApply(): void; onCancel(): void }) {
  const nothing = !report.added.length && !report.changed.length && !report.gone.length;
  return (
    <div className="sync-preview" role="region" aria-label="What a sync would do" data-testid="sync-preview">
      <p>
        <strong>{nothing ? 'Nothing would change' : 'A sync would:'}</strong>{' '}
        {nothing && <span className="muted">({plural(report.unchanged, 'tool')} as accepted).</span>}
      </p>
      {!nothing && (
        <ul>
          {report.added.length > 0 && (
            <li>
              add {plural(report.added.length, 'new tool')}, switched off: <Names items={report.added} />
            </li>
          )}
          {report.changed.length > 0 && (
            <li>
              withhold {plural(report.changed.length, 'tool')} whose definition changed, until you review it: <Names items={report.changed} />
            </li>
          )}
          {report.gone.length > 0 && (
            <li>
              mark {plural(report.gone.length, 'tool')} the server no longer offers as unavailable: <Names items={report.gone} />
            </li>
          )}
          {report.unchanged > 0 && <li className="muted">leave {plural(report.unchanged, 'tool')} as they are</li>}
        </ul>
      )}
      <div className="modal-actions">
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" disabled={busy} onClick={onApply} data-testid="sync-apply">
          {busy ? 'Syncing…' : 'Sync'}
        </button>
      </div>
    </div>
  );
}

function Names({ items }: { items: { name: string }[] }) {
  return (
    <>
      {items.map((t, i) => (
        <span key={t.name}>
          {i > 0 && ', '}
          <code>{t.name}</code>
        </span>
      ))}
    </>
  );
}
