// Long on purpose: five dialogs of one lazy chunk, loaded together when the first import or export dialog opens.
/** The questions an import or export asks: conflicts, an OpenAPI preview, a target bundle, a selection, a fallback for the clipboard. */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiCallError } from '../../api/errors.js';
import { useBundles } from '../../api/queries.js';
import { ContainerHelpButton } from '../help/ContainerFolderHelp.js';
import { Modal } from '../../components/Dialog.js';
import { Badge } from '../../components/States.js';
import { plural } from '../../lib/format.js';
import type { BundleView, ImportReport } from '../../../../shared/types.js';
import type { ImportSource } from './sources.js';
import type { OpenApiOutline } from './openapiOutline.js';
import { needsServerUrl, replaceBlocker } from './outcome.js';
import { ErrorDetails } from './ErrorDetails.js';
import { copySlug } from '../../../../shared/slug.js';
import './transfer.css';

export type OnConflict = 'skip' | 'replace' | 'copy';

// ---- ZIP: bundles that already exist --------------------------------------------------------------

export function ConflictDialog({
  name,
  report,
  existing,
  onDone,
}: {
  name: string;
  /** The dry run's answer with onConflict=skip: `skipped` are the conflicts. */
  report: ImportReport;
  existing: ReadonlyMap<string, BundleView>;
  onDone(choice: OnConflict | null): void;
}) {
  const builtinIDs = new Set([...existing.values()].filter((b) => b.isBuiltIn).map((b) => b.bundleID));
  const blockers = report.skipped.map((s) => replaceBlocker(s, builtinIDs)).filter((b): b is string => !!b);
  const [choice, setChoice] = useState<OnConflict>('copy');
  const groupName = useId();
  const n = report.skipped.length;
  // The slugs the copies will get (the core's rule), so the person sees them before choosing.
  const copyNames = (() => {
    const taken = new Set([...existing.values()].map((b) => b.slug));
    for (const c of report.created) taken.add(c.slug);
    for (const s of report.skipped) taken.add(s.slug);
    return report.skipped.map((s) => {
      const slug = copySlug(s.slug, taken);
      taken.add(slug);
      return slug;
    });
  })();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onDone(choice);
  };
  const option = (value: OnConflict, label: string, hint: string, disabled = false) => (
    <label className={`choice${disabled ? ' is-disabled' : ''}`}>
      <input
        type="radio"
        name={groupName}
        value={value}
        checked={choice === value}
        disabled={disabled}
        onChange={() => setChoice(value)}
        data-testid={`conflict-${value}`}
      />
      <span>
        <span className="choice-label">{label}</span>
        <span className="choice-hint">{hint}</span>
      </span>
    </label>
  );
  return (
    <Modal open onClose={() => onDone(null)} title="Bundles already here" className="modal-wide" testId="conflict-dialog">
      <form className="report" onSubmit={submit}>
        <h2 className="modal-title">{n === 1 ? 'A bundle in this archive is already here' : `${n} bundles in this archive are already here`}</h2>
        <p className="report-source muted">{name}</p>
        <ul className="report-list" data-testid="conflict-list">
          {report.skipped.map((s) => {
            const b = existing.get(s.bundleID);
            return (
              <li key={s.bundleID}>
                <strong>{b ? b.displayName || b.slug : s.slug}</strong> <span className="mono muted">{s.slug}</span>{' '}
                {b?.isBuiltIn && <Badge tone="info">built-in</Badge>}
                {b?.softDeletedAt && <Badge>in Trash</Badge>}
                <div className="muted small">
                  {/already exists here$/.test(s.reason) && b
                    ? b.softDeletedAt
                      ? 'Already here, in the Trash'
                      : `Already here, with ${plural(b.toolCount, 'tool')}`
                    : s.reason}
                </div>
              </li>
            );
          })}
        </ul>
        {report.created.length > 0 && <p className="muted small">Also in the archive, and new here: {report.created.map((c) => c.slug).join(', ')}.</p>}
        <fieldset className="choices">
          <legend className="field-label">What should happen to {n === 1 ? 'it' : 'them'}?</legend>
          {option(
            'copy',
            'Import as a copy',
            `New IDs for the imported ${n === 1 ? 'bundle' : 'bundles'} and tools, named ${copyNames.join(', ')} (rename after importing if you like); what is here stays as it is.`,
          )}
          {option('replace', 'Replace', 'The archive’s version takes the place of what is here; its tools are overwritten.', blockers.length > 0)}
          {blockers.length > 0 && (
            <p className="choice-why" data-testid="replace-blocked">
              Replace is not available: {blockers.join('; ')}. Import as a copy instead.
            </p>
          )}
          {option('skip', 'Skip', report.created.length ? 'Leave what is here; import only the new bundles.' : 'Leave what is here; nothing will be imported.')}
        </fieldset>
        <div className="modal-actions">
          <button type="button" className="btn" onClick={() => onDone(null)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" data-testid="conflict-import">
            {choice === 'copy' ? 'Import as copy' : choice === 'replace' ? 'Replace' : 'Skip and import the rest'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

// ---- OpenAPI: preview before anything is written ----------------------------------------------------

export type Preview = { ok: true; report: ImportReport } | { ok: false; error: unknown };

const SHOWN_OPERATIONS = 60;

export function OpenApiDialog({
  name,
  outline,
  first,
  runPreview,
  onDone,
}: {
  name: string;
  outline: OpenApiOutline | null;
  first: Preview;
  runPreview(serverUrl: string | undefined): Promise<Preview>;
  onDone(choice: { serverUrl?: string } | null): void;
}) {
  const [preview, setPreview] = useState(first);
  const [previewedUrl, setPreviewedUrl] = useState<string | undefined>(undefined);
  const [serverUrl, setServerUrl] = useState('');
  const [loading, setLoading] = useState(false);
  const urlId = useId();
  const askUrl = !preview.ok && needsServerUrl(preview.error instanceof ApiCallError ? preview.error.error : undefined);
  const [showUrl, setShowUrl] = useState(askUrl);
  useEffect(() => {
    if (askUrl) setShowUrl(true);
  }, [askUrl]);
  const wanted = serverUrl.trim() || undefined;
  const stale = wanted !== previewedUrl;
  const urlProblem = wanted && !/^https?:\/\/[^/\s]+/i.test(wanted) ? 'Give a full http(s) URL, e.g. https://api.example.com/v1' : undefined;

  const again = async () => {
    if (urlProblem) return;
    setLoading(true);
    const p = await runPreview(wanted);
    setPreview(p);
    setPreviewedUrl(wanted);
    setLoading(false);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (stale || !preview.ok) void again();
    else onDone(wanted ? { serverUrl: wanted } : {});
  };
  const ops = outline?.operations ?? [];
  const report = preview.ok ? preview.report : undefined;
  // The document's own servers (from the first preview that listed them), to pick one from.
  const [servers, setServers] = useState(report?.servers ?? []);
  useEffect(() => {
    if (report?.servers?.length) setServers(report.servers);
  }, [report?.servers]);
  return (
    <Modal open onClose={() => onDone(null)} title="Import an OpenAPI document" className="modal-wide" testId="openapi-dialog">
      <form className="report" onSubmit={submit} noValidate>
        <h2 className="modal-title">
          Import {outline?.title ? `“${outline.title}”` : 'an OpenAPI document'}
          {outline?.version && <span className="muted"> {outline.version}</span>}
        </h2>
        <p className="report-source muted">{name}</p>
        {report ? (
          <p data-testid="openapi-summary">
            Creates the bundle <span className="mono">{report.created[0]?.slug}</span> with {plural(report.toolCount, 'http tool')}, one per operation
            {ops.length > report.toolCount ? ` (${ops.length - report.toolCount} left out, see the warnings)` : ''}:
          </p>
        ) : (
          <ErrorDetails error={preview.ok ? undefined : preview.error} testId="dialog-error" />
        )}
        {ops.length > 0 && (
          <ul className="op-list" data-testid="openapi-operations">
            {ops.slice(0, SHOWN_OPERATIONS).map((op) => (
              <li key={`${op.method} ${op.path}`}>
                <span className={`method method-${op.method.toLowerCase()}`}>{op.method}</span> <span className="mono">{op.path}</span>
                {(op.summary || op.operationId) && <span className="muted"> — {op.summary ?? op.operationId}</span>}
              </li>
            ))}
            {ops.length > SHOWN_OPERATIONS && <li className="muted">and {ops.length - SHOWN_OPERATIONS} more</li>}
          </ul>
        )}
        {report?.hostsToAllow && report.hostsToAllow.length > 0 && (
          <p className="notice" data-testid="openapi-hosts">
            The tools call <span className="mono">{report.hostsToAllow.join(', ')}</span>, not allowed yet. After the import you can allow{' '}
            {report.hostsToAllow.length === 1 ? 'it' : 'them'}.
          </p>
        )}
        {report?.warnings && report.warnings.length > 0 && (
          <details className="report-warnings" open={report.warnings.length <= 4}>
            <summary>{plural(report.warnings.length, 'warning')}</summary>
            <ul>
              {report.warnings.map((w, i) => (
                <li key={i}>{w}</li>
              ))}
            </ul>
          </details>
        )}
        {servers.length > 1 && (
          <div className="field">
            <label htmlFor={`${urlId}-servers`} className="field-label">
              Server
            </label>
            <select
              id={`${urlId}-servers`}
              className="input mono"
              value={servers.some((sv) => sv.url === serverUrl) ? serverUrl : ''}
              onChange={(e) => {
                setServerUrl(e.target.value);
                setShowUrl(true);
              }}
              data-testid="openapi-servers"
            >
              <option value="">{servers[0]!.url} (the document’s first)</option>
              {servers.slice(1).map((sv) => (
                <option key={sv.url} value={sv.url}>
                  {sv.url}
                  {sv.description ? ` — ${sv.description}` : ''}
                </option>
              ))}
            </select>
            <div className="field-hint">
              The document lists {plural(servers.length, 'server')}; server variables are filled with their defaults (edit the URL to change them).
            </div>
          </div>
        )}
        {showUrl ? (
          <div className={`field${urlProblem ? ' has-error' : ''}`}>
            <label htmlFor={urlId} className="field-label">
              Base URL
            </label>
            <div className="input-group">
              <input
                id={urlId}
                className="input mono"
                value={serverUrl}
                onChange={(e) => setServerUrl(e.target.value)}
                placeholder="https://api.example.com/v1"
                data-autofocus={askUrl ? '' : undefined}
                autoFocus
                data-testid="openapi-server-url"
                aria-invalid={urlProblem ? true : undefined}
              />
              <button type="button" className="btn" onClick={() => void again()} disabled={loading || !!urlProblem} data-testid="openapi-preview">
                {loading ? 'Checking…' : 'Preview'}
              </button>
            </div>
            <div className="field-hint">Where the API lives; it replaces the document’s server URL.</div>
            {urlProblem && <div className="field-error">{urlProblem}</div>}
          </div>
        ) : (
          <button type="button" className="link-btn small" onClick={() => setShowUrl(true)}>
            Use a different base URL…
          </button>
        )}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={() => onDone(null)}>
            Cancel
          </button>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={loading || (!stale && !preview.ok) || !!urlProblem}
            data-autofocus={askUrl ? undefined : ''}
            data-testid="openapi-import"
          >
            {stale ? 'Preview' : report ? `Import ${plural(report.toolCount, 'tool')}` : 'Import'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

// ---- container folder: which bundle receives the tool -------------------------------------------------

export function ContainerDialog({
  source,
  defaultBundleID,
  onDone,
  onNewBundle,
}: {
  source: Extract<ImportSource, { kind: 'folder' }>;
  defaultBundleID: string | undefined;
  onDone(bundleID: string | null): void;
  onNewBundle(): void;
}) {
  const bundles = useBundles('exclude');
  const eligible = (bundles.data ?? []).filter((b) => !b.isBuiltIn);
  const usable = eligible.filter((b) => b.isEnabled);
  const initial = usable.find((b) => b.bundleID === defaultBundleID)?.bundleID ?? usable[0]?.bundleID ?? '';
  const [target, setTarget] = useState(initial);
  const selectId = useId();
  useEffect(() => {
    if (!target && initial) setTarget(initial);
  }, [initial, target]);
  const hasManifest = source.files.some((f) => f.path === 'manifest.json');
  return (
    <Modal open onClose={() => onDone(null)} title="Import a container tool" className="modal-wide" testId="container-dialog">
      <form
        className="report"
        onSubmit={(e) => {
          e.preventDefault();
          if (target) onDone(target);
        }}
      >
        <h2 className="modal-title">Import a container tool</h2>
        <p className="report-source muted">
          Folder <span className="mono">{source.name}</span>, {plural(source.files.length, 'file')}:{' '}
          {source.files
            .slice(0, 6)
            .map((f) => f.path)
            .join(', ')}
          {source.files.length > 6 ? ', …' : ''}
        </p>
        {!hasManifest && <p className="notice">This folder has no manifest.json at its top; the import will say what is missing.</p>}
        {/* A div: the help's dialog element may not sit inside a paragraph. */}
        <div className="muted">
          A container-tool folder holds manifest.json, a Dockerfile and a runner.{' '}
          <ContainerHelpButton label="How it is laid out" testId="container-dialog-help" />
        </div>
        {usable.length === 0 ? (
          <div className="notice">
            <p>A container tool goes into one of your bundles, and none is switched on. Create a bundle (or switch one on) first.</p>
            <button type="button" className="btn" onClick={onNewBundle}>
              New bundle
            </button>
          </div>
        ) : (
          <div className="field">
            <label htmlFor={selectId} className="field-label">
              Add the tool to
            </label>
            <select id={selectId} className="input w-select" value={target} onChange={(e) => setTarget(e.target.value)} data-testid="container-target">
              {eligible.map((b) => (
                <option key={b.bundleID} value={b.bundleID} disabled={!b.isEnabled}>
                  {b.displayName || b.slug}
                  {b.isEnabled ? '' : ' (off)'}
                </option>
              ))}
            </select>
            <div className="field-hint">Built-in bundles are read-only; switched-off bundles take no new tools.</div>
          </div>
        )}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={() => onDone(null)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={!target} data-testid="container-import">
            Import tool
          </button>
        </div>
      </form>
    </Modal>
  );
}

// ---- export and copy: which bundles ---------------------------------------------------------------

export function ExportDialog({ onExport, onCopy, onClose }: { onExport(b: BundleView[]): void; onCopy(b: BundleView[]): void; onClose(): void }) {
  const bundles = useBundles('exclude');
  const all = bundles.data ?? [];
  const [unchecked, setUnchecked] = useState<ReadonlySet<string>>(new Set());
  const chosen = all.filter((b) => !unchecked.has(b.bundleID));
  const toggle = (id: string, on: boolean) =>
    setUnchecked((s) => {
      const next = new Set(s);
      if (on) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <Modal open onClose={onClose} title="Export bundles" className="modal-wide" testId="export-dialog">
      <form
        className="report"
        onSubmit={(e) => {
          e.preventDefault();
          if (chosen.length) onExport(chosen);
        }}
      >
        <h2 className="modal-title">Export bundles</h2>
        <p className="muted small">
          A ZIP with each bundle’s bundle.json, tool.json files and container build files. Secrets travel as names only; metrics and history stay here.
        </p>
        <div className="select-all">
          <button type="button" className="link-btn" onClick={() => setUnchecked(new Set())}>
            Select all
          </button>
          <button type="button" className="link-btn" onClick={() => setUnchecked(new Set(all.map((b) => b.bundleID)))}>
            Select none
          </button>
        </div>
        <ul className="check-list" data-testid="export-list">
          {all.map((b) => (
            <li key={b.bundleID}>
              <label className="check">
                <input
                  type="checkbox"
                  checked={!unchecked.has(b.bundleID)}
                  onChange={(e) => toggle(b.bundleID, e.target.checked)}
                  data-testid={`export-pick-${b.slug}`}
                />
                <span>{b.displayName || b.slug}</span>
                {b.isBuiltIn && <Badge tone="info">built-in</Badge>}
                <span className="count">{plural(b.toolCount, 'tool')}</span>
              </label>
            </li>
          ))}
        </ul>
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn" disabled={!chosen.length} onClick={() => onCopy(chosen)} data-testid="export-dialog-copy">
            Copy as OpenAI functions
          </button>
          <button type="submit" className="btn btn-primary" disabled={!chosen.length} data-autofocus data-testid="export-dialog-zip">
            Export {plural(chosen.length, 'bundle')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** When the clipboard refuses: the text, selected, to copy by hand. */
export function CopyDialog({ text, count, onClose }: { text: string; count: number; onClose(): void }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  return (
    <Modal open onClose={onClose} title="OpenAI function definitions" className="modal-wide" testId="copy-dialog">
      <div className="report">
        <h2 className="modal-title">{plural(count, 'function definition')}</h2>
        <p className="muted small">The clipboard is not available here. The text is selected: press Ctrl+C (⌘C on a Mac) to copy it.</p>
        <textarea
          ref={ref}
          className="input mono copy-text"
          readOnly
          value={text}
          rows={14}
          aria-label="OpenAI function definitions as JSON"
          data-autofocus
          data-testid="copy-text"
        />
        <div className="modal-actions">
          <button type="button" className="btn btn-primary" onClick={onClose}>
            Done
          </button>
        </div>
      </div>
    </Modal>
  );
}
