/** One tool: its identity, state and actions, the live tester, and its definition. */
import { useBundles, useTool, toolRefOf, type ToolRef } from '../api/queries.js';
import { useDeleteTool, useToggleTool } from '../api/mutations.js';
import { useNav } from '../app/nav.js';
import { useConfirm } from '../components/Dialog.js';
import { Badge, ErrorState, Loading } from '../components/States.js';
import { Switch } from '../components/Switch.js';
import { JsonTree } from '../components/JsonTree.js';
import { Tester } from '../tester/Tester.js';
import { SAFETY_LABEL, SAFETY_TONE, relativeTime, absoluteTime, plural } from '../app/format.js';
import { errorCode } from '../api/client.js';

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
      <ErrorState
        error={new Error('This tool no longer exists (deleted or renamed elsewhere).')}
        retry={() => go({ name: 'tools', bundleID: toolRef.bundleID })}
      />
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
          </span>
        </p>
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
