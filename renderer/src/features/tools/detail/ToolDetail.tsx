/** One tool: its identity, state and actions, the live tester, and its definition. */
import { Suspense } from 'react';
import { useBundles, useProblems, useTool, toolRefOf, type ToolRef } from '../../../api/queries.js';
import { useCopy } from '../../../lib/useCopy.js';
import type { ToolView } from '../../../../../shared/types.js';
import { useDeleteTool, useToggleTool } from '../../../api/mutations.js';
import { useNav } from '../../../lib/nav.js';
import { useConfirm } from '../../../components/Dialog.js';
import { Badge, ErrorState, Loading } from '../../../components/States.js';
import { Switch } from '../../../components/Switch.js';
import { JsonTree } from '../../../components/JsonTree.js';
import { Tester } from '../tester/Tester.js';
import { SAFETY_LABEL, SAFETY_TONE, relativeTime, absoluteTime, plural } from '../../../lib/format.js';
import { errorCode } from '../../../api/errors.js';
import { slotsOf } from '../../../tool-types/slot-registry.js';
import { TOKENIZER_BASIS, tokensApprox } from '../../../../../shared/agents/context-cost.js';
import { ToolFindings } from './ToolFindings.js';
import { ToolSearchLearning } from './ToolSearchLearning.js';
import './ToolDetail.css';

/**
 * A tool that cannot be read: when its tool.json is broken (a problem names its folder), the view
 * stays, marked broken, with the file's path, the reason and how to fix it; it comes back by
 * itself once the file is fixed. Otherwise it was deleted or renamed elsewhere.
 */
function MissingTool({ toolRef, lastKnown }: { toolRef: ToolRef; lastKnown: ToolView | undefined }) {
  const problems = useProblems();
  const { go } = useNav();
  const copy = useCopy();
  const inBundle = (problems.data?.items ?? []).filter((p) => p.kind === 'tool' && p.path.includes(toolRef.bundleID));
  const own = lastKnown ? inBundle.filter((p) => p.path.includes(lastKnown.toolID)) : [];
  const shown = own.length ? own : inBundle;
  const name = lastKnown?.displayName || toolRef.slug;
  if (!shown.length) {
    return (
      <ErrorState
        error={new Error('This tool no longer exists (deleted or renamed elsewhere).')}
        retry={() => go({ name: 'tools', bundleID: toolRef.bundleID })}
      />
    );
  }
  return (
    <section className="page" aria-labelledby="tool-title" data-testid="tool-broken">
      <header className="page-header">
        <div className="page-title-row">
          <h1 className="page-title" id="tool-title">
            {name}
          </h1>
          <span className="mono muted">
            {toolRef.slug}@{toolRef.version}
          </span>
          <Badge tone="danger">broken</Badge>
        </div>
      </header>
      <div className="notice notice-danger broken-files" role="status">
        <strong>
          {own.length
            ? 'Its tool.json could not be read, so the tool cannot be shown or run until the file is fixed:'
            : `This tool was not found, and ${shown.length === 1 ? 'a file in its bundle' : `${shown.length} files in its bundle`} could not be read; it may be ${shown.length === 1 ? 'that one' : 'one of them'}:`}
        </strong>
        <ul>
          {shown.map((p) => (
            <li key={p.path}>
              <code className="break" data-testid="broken-path">
                {p.path}
              </code>{' '}
              — {p.reason}{' '}
              <button type="button" className="btn btn-small" onClick={() => void copy(p.path, 'Path copied')} data-testid="copy-broken-path">
                Copy path
              </button>
            </li>
          ))}
        </ul>
        <p>Open the file in any editor and fix it: the tool is back here as soon as it is saved. Deleting the tool&apos;s folder removes it.</p>
      </div>
      <p>
        <button type="button" className="link-btn" onClick={() => go({ name: 'tools', bundleID: toolRef.bundleID })}>
          Back to the bundle
        </button>
      </p>
    </section>
  );
}

export function ToolDetail({ toolRef, args }: { toolRef: ToolRef; args?: string }) {
  const tool = useTool(toolRef);
  const bundles = useBundles('exclude');
  const { go, replace, route } = useNav();
  const toggle = useToggleTool();
  const del = useDeleteTool();
  const confirm = useConfirm();

  if (tool.isPending) return <Loading label="Loading tool…" />;
  if (tool.isError) {
    return errorCode(tool.error) === 'NOT_FOUND' ? (
      <MissingTool toolRef={toolRef} lastKnown={tool.data} />
    ) : (
      <ErrorState error={tool.error} retry={() => void tool.refetch()} />
    );
  }
  const t = tool.data;
  const bundle = bundles.data?.find((b) => b.bundleID === t.bundleID);
  const name = t.displayName || t.slug;

  return (
    <section className="page" aria-labelledby="tool-title" data-testid="tool-detail">
      <header className="page-header">
        <nav className="crumbs" aria-label="Breadcrumb">
          <button type="button" className="link-btn" onClick={() => go({ name: 'tools', bundleID: t.bundleID })}>
            {bundle?.displayName || bundle?.slug || 'Bundle'}
          </button>
          <span aria-hidden="true"> / </span>
          <span>{name}</span>
        </nav>
        <div className="page-title-row">
          <h1 className="page-title" id="tool-title">
            {name}
          </h1>
          <span className="mono muted">
            {t.slug}@{t.version}
          </span>
          <Badge>{t.type}</Badge>
          <Badge
            tone={SAFETY_TONE[t.effectiveSafety ?? t.safety]}
            title={t.effectiveSafety ? `Saved as ${SAFETY_LABEL[t.safety]}; one of its steps is ${SAFETY_LABEL[t.effectiveSafety]} now` : undefined}
          >
            {SAFETY_LABEL[t.effectiveSafety ?? t.safety]}
          </Badge>
          {t.isBuiltIn && <Badge tone="info">built-in</Badge>}
          <div className="page-actions">
            <Switch
              checked={t.isEnabled}
              showLabel
              label="Enabled"
              text={t.isEnabled ? 'Enabled' : 'Disabled'}
              onChange={(v) => toggle.mutate({ tool: t, isEnabled: v })}
              testId="tool-enabled"
            />
            <button
              type="button"
              className="btn"
              onClick={() => go({ name: 'toolEdit', ref: toolRefOf(t) })}
              data-testid="edit-tool"
              title={t.isBuiltIn ? 'Built-in tools are read-only' : undefined}
            >
              {t.isBuiltIn ? 'View definition' : 'Edit'}
            </button>
            {!t.isBuiltIn && (
              <button
                type="button"
                className="btn btn-danger-quiet"
                data-testid="delete-tool"
                onClick={async () => {
                  const ok = await confirm({
                    title: `Delete ${name}?`,
                    message: 'The tool is deleted for good; its history goes with it.',
                    confirmLabel: 'Delete',
                    danger: true,
                  });
                  if (ok) {
                    del.mutate({ ...toolRefOf(t), name });
                    go({ name: 'tools', bundleID: t.bundleID });
                  }
                }}
              >
                Delete
              </button>
            )}
          </div>
        </div>
        {t.description && <p className="page-sub">{t.description}</p>}
        <p className="meta-line">
          {t.availability.ok ? (
            <span className="avail avail-ok">available</span>
          ) : (
            <span className="avail avail-bad" data-testid="availability-reason">
              <span className="avail-dot" aria-hidden="true" />
              {t.availability.reason ?? 'unavailable'}
            </span>
          )}
          <span className="muted">
            {' '}
            · {plural(t.metrics.callCount, 'call')} · {plural(t.metrics.errorCount, 'error')} · last called{' '}
            <span title={absoluteTime(t.metrics.lastCalledAt)}>{relativeTime(t.metrics.lastCalledAt)}</span>
            {t.contextTokens !== undefined && (
              <>
                {' '}
                ·{' '}
                <span
                  className="context-cost"
                  title={`What its definition adds to every request of an agent offered it (${TOKENIZER_BASIS})`}
                  data-testid="tool-context-tokens"
                >
                  {tokensApprox(t.contextTokens)} of context
                </span>
              </>
            )}
          </span>
        </p>
        <Suspense fallback={null}>
          {slotsOf('ToolNotice').map(({ key, Slot }) => (
            <Slot key={key} tool={t} />
          ))}
        </Suspense>
        <ToolFindings toolID={t.toolID} />
        <ToolSearchLearning toolID={t.toolID} />
        {bundle && !bundle.isEnabled && <p className="notice">The bundle {bundle.displayName || bundle.slug} is off, so this tool cannot run.</p>}
      </header>
      {/* Keyed by tool: another tool starts from its own defaults, not the last one's arguments. */}
      <Tester
        key={t.toolID}
        tool={t}
        initialArgs={args}
        onArgsChange={(next) => {
          if (route.name === 'tool' && route.args !== next) replace({ ...route, args: next }, { quiet: true });
        }}
      />
      <details className="definition panel">
        <summary className="panel-title">Definition</summary>
        <div className="definition-grid">
          <div>
            <h3>Implementation</h3>
            <JsonTree value={t.impl} />
          </div>
          <div>
            <h3>Argument schema</h3>
            <JsonTree value={t.argSchema} />
          </div>
          <div>
            <h3>Output schema</h3>
            <JsonTree value={t.outputSchema} />
          </div>
        </div>
      </details>
    </section>
  );
}
