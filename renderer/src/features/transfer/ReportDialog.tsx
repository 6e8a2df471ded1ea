/**
 * The result of an import: what was created (and from which bundle, for copies), replaced and
 * skipped with reasons, the tool count, warnings; hosts the new tools call that are not allowed
 * yet (allowed only after the person confirms); secrets a container tool needs; or the error,
 * with its field issues.
 */
import { slotsOf } from '../../tool-types/slot-registry.js';
import { Suspense, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/errors.js';
import { getConfig, patchConfig } from '../../api/operations.js';
import { keys, toolRefOf, useBundles, useSecrets } from '../../api/queries.js';
import { useNav } from '../../lib/nav.js';
import { useConfirm, Modal } from '../../components/Dialog.js';
import { useToast } from '../../components/Toasts.js';
import { plural } from '../../lib/format.js';
import { nothingLanded, type Outcome } from './outcome.js';
import { ErrorDetails } from './ErrorDetails.js';
import type { ImportReport } from '../../../../shared/types.js';
import '../tools/pipelines.css';
import './transfer.css';

function HostsPrompt({ hosts }: { hosts: string[] }) {
  const confirm = useConfirm();
  const toast = useToast();
  const qc = useQueryClient();
  const [state, setState] = useState<'ask' | 'saving' | 'allowed'>('ask');
  const [error, setError] = useState<string>();
  const allow = async () => {
    const ok = await confirm({
      title: `Allow ${hosts.length === 1 ? 'this host' : `these ${hosts.length} hosts`}?`,
      message: (
        <>
          <p>HTTP tools will be able to send requests to:</p>
          <ul className="mono">
            {hosts.map((h) => (
              <li key={h}>{h}</li>
            ))}
          </ul>
          <p className="muted">You can remove them again under Settings → Allowed hosts.</p>
        </>
      ),
      confirmLabel: 'Allow',
    });
    if (!ok) return;
    setState('saving');
    setError(undefined);
    try {
      // Merge with what is allowed now, read fresh: another window may have changed it.
      const current = await getConfig({});
      const merged = [...new Set([...current.allowedHosts, ...hosts])];
      await patchConfig({ patch: { allowedHosts: merged } });
      setState('allowed');
      toast.show('success', `Allowed ${hosts.join(', ')}`);
      void qc.invalidateQueries({ queryKey: keys.config });
      void qc.invalidateQueries({ queryKey: keys.system });
      void qc.invalidateQueries({ queryKey: keys.tools });
    } catch (e) {
      setState('ask');
      setError(errorMessage(e));
    }
  };
  return (
    <div className={`report-hosts${state === 'allowed' ? ' is-done' : ''}`} data-testid="report-hosts">
      {state === 'allowed' ? (
        <p>
          <span aria-hidden="true">✓</span> Allowed <span className="mono">{hosts.join(', ')}</span>.
        </p>
      ) : (
        <>
          <p className="grow">
            These tools call hosts not allowed yet: <span className="mono">{hosts.join(', ')}</span>. Until they are, their calls are refused.
          </p>
          <button type="button" className="btn" onClick={() => void allow()} disabled={state === 'saving'} data-testid="report-allow-hosts">
            {state === 'saving' ? 'Allowing…' : 'Allow'}
          </button>
        </>
      )}
      {error && (
        <p className="field-error" role="alert">
          Could not allow the hosts: {error}
        </p>
      )}
    </div>
  );
}

function Warnings({ items }: { items: string[] }) {
  if (!items.length) return null;
  return (
    <details className="report-warnings" open={items.length <= 4} data-testid="report-warnings">
      <summary>{plural(items.length, 'warning')}</summary>
      <ul>
        {items.map((w, i) => (
          <li key={i}>{w}</li>
        ))}
      </ul>
    </details>
  );
}

/** A list in the report, left out when it is empty. */
function ReportSection<T>({ heading, testId, items, row }: { heading: string; testId: string; items: T[]; row(item: T): ReactNode }) {
  if (!items.length) return null;
  return (
    <section>
      <h3 className="report-heading">{heading}</h3>
      <ul className="report-list" data-testid={testId}>
        {items.map(row)}
      </ul>
    </section>
  );
}

function titleOf(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'bundles':
      return nothingLanded(outcome.report) ? 'Nothing was imported' : 'Import finished';
    case 'container':
      return 'Container tool imported';
    case 'error':
      return outcome.title;
    case 'unsupported':
      return outcome.items.length === 1 ? 'This file cannot be imported' : 'These files cannot be imported';
  }
}

type ReportItem = NonNullable<ImportReport['items']>[number];

/** Each operation or tool of a foreign document, imported or skipped with the reason; filterable. */
function ItemsTable({ items }: { items: ReportItem[] }) {
  const [status, setStatus] = useState<'all' | 'imported' | 'skipped'>(items.some((i) => i.status === 'skipped') ? 'skipped' : 'all');
  const [query, setQuery] = useState('');
  const q = query.trim().toLowerCase();
  const shown = items.filter(
    (i) => (status === 'all' || i.status === status) && (!q || `${i.origin} ${i.slug ?? ''} ${i.reason ?? ''}`.toLowerCase().includes(q)),
  );
  const skipped = items.filter((i) => i.status === 'skipped').length;
  return (
    <div className="report-items" data-testid="report-items">
      <div className="row">
        <h3 className="report-heading grow">
          {items.length - skipped} of {items.length} imported{skipped ? `, ${skipped} skipped` : ''}
        </h3>
        <select
          className="input w-narrow"
          value={status}
          onChange={(e) => setStatus(e.target.value as typeof status)}
          aria-label="Show"
          data-testid="report-items-status"
        >
          <option value="all">All</option>
          <option value="imported">Imported</option>
          <option value="skipped">Skipped</option>
        </select>
        <input
          className="input w-mid"
          type="search"
          placeholder="Filter…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          aria-label="Filter operations"
          data-testid="report-items-filter"
        />
      </div>
      <div className="report-items-scroll">
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Operation</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((i) => (
              <tr key={i.origin} className={i.status === 'skipped' ? 'is-skipped' : undefined}>
                <td className="mono">{i.origin}</td>
                <td>
                  {i.status === 'imported' ? (
                    <span className="mono">
                      {i.slug}@{i.version}
                    </span>
                  ) : (
                    <span className="field-warning">skipped: {i.reason}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {!shown.length && <p className="muted">Nothing matches.</p>}
      </div>
    </div>
  );
}

export function ReportDialog({ outcome, onClose }: { outcome: Outcome; onClose(): void }) {
  const { go } = useNav();
  const bundles = useBundles('exclude');
  const secrets = useSecrets();
  const nameOf = (id: string, fallback = id) => {
    const b = bundles.data?.find((x) => x.bundleID === id);
    return b ? b.displayName || b.slug : fallback;
  };
  const open = (bundleID: string) => {
    onClose();
    go({ name: 'tools', bundleID });
  };
  /** A bundle the import created or replaced, with a way to open it. */
  const landedRow = (c: { bundleID: string; slug: string; fromBundleID?: string }) => (
    <li key={c.bundleID} className="report-row">
      <strong>{nameOf(c.bundleID, c.slug)}</strong> <span className="mono muted">{c.slug}</span>
      {c.fromBundleID && <span className="muted">copy of {nameOf(c.fromBundleID)}</span>}
      <button type="button" className="link-btn" onClick={() => open(c.bundleID)}>
        Open
      </button>
    </li>
  );
  const title = titleOf(outcome);

  let body;
  if (outcome.kind === 'bundles') {
    const r = outcome.report;
    body = (
      <>
        <p className="report-summary" data-testid="report-summary">
          {[
            r.created.length && `${r.created.length} created`,
            r.replaced.length && `${r.replaced.length} replaced`,
            r.skipped.length && `${r.skipped.length} skipped`,
            plural(r.toolCount, 'tool'),
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
        <ReportSection heading="Created" testId="report-created" items={r.created} row={landedRow} />
        <ReportSection heading="Replaced" testId="report-replaced" items={r.replaced} row={landedRow} />
        <ReportSection
          heading="Skipped"
          testId="report-skipped"
          items={r.skipped}
          row={(c) => (
            <li key={c.bundleID}>
              <span className="mono">{c.slug}</span> <span className="muted">— {c.reason}</span>
            </li>
          )}
        />
        {r.items && r.items.length > 0 && <ItemsTable items={r.items} />}
        <Suspense fallback={null}>
          {slotsOf('ImportReportSection').map(({ key, Slot }) => (
            <Slot key={key} report={r} />
          ))}
        </Suspense>
        <ReportSection
          heading="Pipelines"
          testId="report-pipelines"
          items={r.pipelines ?? []}
          row={(p) => (
            <li key={`${p.bundleID}/${p.slug}/${p.version}`} className={p.missing.length ? 'report-pipeline has-missing' : 'report-pipeline'}>
              <span className="mono">
                {p.slug}@{p.version}
              </span>{' '}
              {p.missing.length === 0 ? (
                <span className="muted">— every step found its tool{p.relinked ? ` (${plural(p.relinked, 'step')} re-linked)` : ''}</span>
              ) : (
                <>
                  <span className="field-warning">
                    — {plural(p.missing.length, 'step')} whose tool is not here; it stays unavailable until{' '}
                    {p.missing.length === 1 ? 'it exists' : 'they exist'}:
                  </span>
                  <ul>
                    {p.missing.map((m) => (
                      <li key={m.step}>
                        step <code>{m.step}</code> → <code>{m.tool}</code> <span className="muted">{m.reason}</span>
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </li>
          )}
        />
        {r.hostsToAllow && r.hostsToAllow.length > 0 && !nothingLanded(r) && <HostsPrompt hosts={r.hostsToAllow} />}
        <Warnings items={[...(outcome.notes ?? []), ...(r.warnings ?? [])]} />
      </>
    );
  } else if (outcome.kind === 'container') {
    const { tool, secrets: needed, warnings } = outcome.result;
    const isSet = new Set(secrets.data?.items.map((s) => s.name));
    const missing = needed.filter((n) => !isSet.has(n));
    body = (
      <>
        <p className="report-summary">
          <strong>{tool.displayName || tool.slug}</strong>{' '}
          <span className="mono muted">
            {tool.slug}@{tool.version}
          </span>{' '}
          in {outcome.bundleName}{' '}
          <button
            type="button"
            className="link-btn"
            onClick={() => {
              onClose();
              go({ name: 'tool', ref: toolRefOf(tool) });
            }}
          >
            Open tool
          </button>
        </p>
        {needed.length > 0 && (
          <div className="report-secrets" data-testid="report-secrets">
            <p className="grow">
              {missing.length ? 'Set these secrets before the tool can run:' : 'The tool uses these secrets (all set):'}{' '}
              {needed.map((n, i) => (
                <span key={n}>
                  {i > 0 && ', '}
                  <code>{n}</code>
                  {!isSet.has(n) && <span className="muted"> (not set)</span>}
                </span>
              ))}
            </p>
            <button
              type="button"
              className="btn"
              onClick={() => {
                onClose();
                go({ name: 'secrets' });
              }}
              data-testid="report-open-secrets"
            >
              Open Secrets
            </button>
          </div>
        )}
        <Warnings items={[...outcome.notes, ...warnings]} />
      </>
    );
  } else if (outcome.kind === 'error') {
    body = <ErrorDetails error={outcome.error} testId="report-error" showCode />;
  } else {
    body = (
      <ul className="report-list" data-testid="report-unsupported">
        {outcome.items.map((i) => (
          <li key={i.name}>
            <span className="mono">{i.name}</span> <span className="muted">{i.reason}</span>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Modal open onClose={onClose} title={title} className="modal-wide" testId="import-report">
      <div className="report">
        <h2 className={`modal-title${outcome.kind === 'error' || outcome.kind === 'unsupported' ? ' is-error' : ''}`}>{title}</h2>
        {'source' in outcome && <p className="report-source muted">{outcome.source}</p>}
        {body}
        <div className="modal-actions">
          <button type="button" className="btn btn-primary" onClick={onClose} data-autofocus data-testid="report-done">
            Done
          </button>
        </div>
      </div>
    </Modal>
  );
}
