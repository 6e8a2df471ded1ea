/**
 * The tools of one bundle or of all bundles, virtualised (@tanstack/react-virtual renders only
 * the rows in view, so 10,000 tools scroll like 10). Keyboard: the list is one tab stop;
 * arrows/Page/Home/End move between rows, Enter opens, Space switches the tool on or off.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useBundles, useToolPages, toolRefOf } from '../api/queries.js';
import { useDeleteBundle, useToggleBundle, useToggleTool } from '../api/mutations.js';
import { useNav } from '../app/nav.js';
import { Switch } from '../components/Switch.js';
import { Badge, Empty, ErrorState, Loading } from '../components/States.js';
import { useConfirm } from '../components/Dialog.js';
import { relativeTime, absoluteTime, SAFETY_LABEL, SAFETY_TONE, plural } from '../app/format.js';
import type { BundleView, ToolView } from '../../../shared/types.js';
import { useTransfer } from '../transfer/TransferProvider.js';
import { MenuButton } from '../components/Menu.js';

const ROW_HEIGHT = 52;

function markFirstPaint(): void {
  requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('tw:toollist-painted')));
}

function ToolRow({
  tool,
  bundleName,
  active,
  onOpen,
  onToggle,
  bundleOff,
}: {
  tool: ToolView;
  bundleName?: string;
  active: boolean;
  onOpen(): void;
  onToggle(v: boolean): void;
  bundleOff: boolean;
}) {
  const avail = tool.availability;
  return (
    <div
      role="row"
      className={`tool-row${active ? ' is-active' : ''}${tool.isEnabled && !bundleOff ? '' : ' is-off'}`}
      tabIndex={active ? 0 : -1}
      data-testid={`tool-row-${tool.slug}`}
      onClick={onOpen}
      aria-label={`${tool.displayName || tool.slug}, ${tool.type}, ${SAFETY_LABEL[tool.safety]}`}
    >
      <div role="cell" className="cell cell-name">
        <span className="tool-name">{tool.displayName || tool.slug}</span>
        <span className="tool-id mono">
          {tool.slug}
          <span className="muted">@{tool.version}</span>
          {bundleName && <span className="muted"> · {bundleName}</span>}
        </span>
      </div>
      <div role="cell" className="cell cell-type">
        <Badge>{tool.type}</Badge>
        {tool.isBuiltIn && <Badge tone="info">built-in</Badge>}
      </div>
      <div role="cell" className="cell cell-safety">
        <Badge tone={SAFETY_TONE[tool.safety]}>{SAFETY_LABEL[tool.safety]}</Badge>
      </div>
      <div role="cell" className="cell cell-avail">
        {avail.ok ? (
          <span className="avail avail-ok">available</span>
        ) : (
          <span className="avail avail-bad" title={avail.reason}>
            <span className="avail-dot" aria-hidden="true" />
            {avail.reason ?? 'unavailable'}
          </span>
        )}
      </div>
      <div role="cell" className="cell cell-num" title={`${tool.metrics.errorCount} errors`}>
        {tool.metrics.callCount.toLocaleString()}
      </div>
      <div role="cell" className="cell cell-when" title={absoluteTime(tool.metrics.lastCalledAt)}>
        {relativeTime(tool.metrics.lastCalledAt)}
      </div>
      <div role="cell" className="cell cell-switch">
        <Switch
          checked={tool.isEnabled}
          label={`${tool.displayName || tool.slug} enabled`}
          onChange={onToggle}
          testId={`tool-switch-${tool.slug}`}
          tabIndex={-1}
        />
      </div>
    </div>
  );
}

function BundleHeader({ bundle }: { bundle: BundleView }) {
  const { go } = useNav();
  const toggle = useToggleBundle();
  const del = useDeleteBundle();
  const confirm = useConfirm();
  const transfer = useTransfer();
  return (
    <header className="page-header">
      <div className="page-title-row">
        <h1 className="page-title">{bundle.displayName || bundle.slug}</h1>
        {bundle.isBuiltIn && <Badge tone="info">built-in</Badge>}
        <span className="mono muted">{bundle.slug}</span>
        <div className="spacer" />
        <Switch
          checked={bundle.isEnabled}
          showLabel
          label={bundle.isEnabled ? 'Enabled' : 'Disabled'}
          onChange={(v) => toggle.mutate({ bundle, isEnabled: v })}
          testId="bundle-header-switch"
        />
        <MenuButton
          label="Export"
          testId="export-bundle"
          disabled={transfer.busy !== null}
          items={[
            {
              label: 'Download as ZIP',
              hint: 'bundle.json and every tool; secrets as names only',
              onSelect: () => transfer.exportBundles([bundle]),
              testId: 'export-bundle-zip',
            },
            {
              label: 'Copy as OpenAI functions',
              hint: 'the enabled tools, as JSON for an agent',
              onSelect: () => transfer.copyOpenAiFunctions([bundle]),
              testId: 'copy-openai-bundle',
            },
          ]}
        />
        {!bundle.isBuiltIn && (
          <>
            <button type="button" className="btn" onClick={() => go({ name: 'bundleEdit', bundleID: bundle.bundleID })} data-testid="edit-bundle">
              Edit bundle
            </button>
            <button
              type="button"
              className="btn btn-danger-quiet"
              data-testid="delete-bundle"
              onClick={async () => {
                const ok = await confirm({
                  title: 'Move bundle to Trash?',
                  message: `${bundle.displayName || bundle.slug} and its ${plural(bundle.toolCount, 'tool')} stop being offered to agents. You can restore it from Trash.`,
                  confirmLabel: 'Move to Trash',
                  danger: true,
                });
                if (ok) {
                  del.mutate(bundle);
                  go({ name: 'tools', bundleID: null });
                }
              }}
            >
              Delete
            </button>
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => go({ name: 'toolNew', bundleID: bundle.bundleID })}
              disabled={!bundle.isEnabled}
              title={bundle.isEnabled ? undefined : 'Switch the bundle on to add tools'}
              data-testid="new-tool"
            >
              New tool
            </button>
          </>
        )}
      </div>
      {bundle.description && <p className="page-sub">{bundle.description}</p>}
      {!bundle.isEnabled && (
        <p className="notice">This bundle is off: its tools are not offered to agents, and its tools cannot be edited until it is switched on.</p>
      )}
    </header>
  );
}

function AllToolsHeader() {
  const transfer = useTransfer();
  const idle = transfer.busy === null;
  return (
    <header className="page-header">
      <div className="page-title-row">
        <h1 className="page-title" id="tools-title">
          All tools
        </h1>
        <div className="spacer" />
        <div className="btn-group" role="group" aria-label="Import">
          <button
            type="button"
            className="btn"
            onClick={transfer.pickFiles}
            disabled={!idle}
            title="A ZIP export, a SKILL.md or an OpenAPI document (.json, .yaml)"
            data-testid="import-files"
          >
            Import…
          </button>
          <button
            type="button"
            className="btn"
            onClick={transfer.pickFolder}
            disabled={!idle}
            title="A container-tool folder (manifest.json + Dockerfile + runner)"
            data-testid="import-folder"
          >
            Import folder…
          </button>
        </div>
        <MenuButton
          label="Export"
          testId="export-bundles"
          disabled={!idle}
          items={[
            { label: 'Download bundles as ZIP…', hint: 'all or some bundles, in one archive', onSelect: transfer.chooseExport, testId: 'export-bundles-zip' },
            {
              label: 'Copy all as OpenAI functions',
              hint: 'every enabled tool, as JSON for an agent',
              onSelect: () => transfer.copyOpenAiFunctions(null),
              testId: 'copy-openai-all',
            },
          ]}
        />
      </div>
      <p className="page-sub">
        Every tool across all bundles, including switched-off ones. Drop a ZIP, a folder, a SKILL.md or an OpenAPI document anywhere to import it.
      </p>
    </header>
  );
}

export function ToolList({ bundleID }: { bundleID: string | null }) {
  const { go } = useNav();
  const bundles = useBundles('exclude');
  const pages = useToolPages(bundleID);
  const toggle = useToggleTool();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const painted = useRef(false);

  const bundleMap = useMemo(() => new Map((bundles.data ?? []).map((b) => [b.bundleID, b])), [bundles.data]);
  const bundle = bundleID ? bundleMap.get(bundleID) : undefined;
  const tools = useMemo(() => pages.data?.pages.flatMap((p) => p.items) ?? [], [pages.data]);

  const virtualizer = useVirtualizer({
    count: tools.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();

  useEffect(() => {
    const last = items[items.length - 1];
    if (last && last.index >= tools.length - 50 && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
  }, [items, tools.length, pages]);

  useEffect(() => {
    if (!painted.current && tools.length > 0) {
      painted.current = true;
      markFirstPaint();
    }
  }, [tools.length]);

  useEffect(() => setActive(0), [bundleID]);

  const focusRow = (index: number) => {
    const i = Math.max(0, Math.min(tools.length - 1, index));
    setActive(i);
    virtualizer.scrollToIndex(i, { align: 'auto' });
    requestAnimationFrame(() => scrollRef.current?.querySelector<HTMLElement>(`[data-index="${i}"] [role="row"]`)?.focus());
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!(e.target instanceof HTMLElement) || e.target.getAttribute('role') !== 'row') return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const keyMoves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    if (e.key in keyMoves) {
      e.preventDefault();
      focusRow(active + keyMoves[e.key]!);
    } else if (e.key === 'Home') {
      e.preventDefault();
      focusRow(0);
    } else if (e.key === 'End') {
      e.preventDefault();
      focusRow(tools.length - 1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const t = tools[active];
      if (t) go({ name: 'tool', ref: toolRefOf(t) });
    } else if (e.key === ' ') {
      e.preventDefault();
      const t = tools[active];
      if (t) toggle.mutate({ tool: t, isEnabled: !t.isEnabled });
    }
  };

  const expected = bundleID ? bundle?.toolCount : bundles.data?.reduce((n, b) => n + b.toolCount, 0);

  return (
    <section className="page page-fill" aria-labelledby="tools-title">
      {bundle ? (
        <BundleHeader bundle={bundle} />
      ) : bundleID && bundles.isSuccess ? (
        <ErrorState error={new Error('This bundle no longer exists (deleted elsewhere?).')} />
      ) : (
        <AllToolsHeader />
      )}
      {bundle && (
        <h2 id="tools-title" className="sr-only">
          Tools of {bundle.displayName || bundle.slug}
        </h2>
      )}

      {pages.isPending ? (
        <Loading label="Loading tools…" />
      ) : pages.isError ? (
        <ErrorState error={pages.error} retry={() => void pages.refetch()} />
      ) : tools.length === 0 ? (
        <Empty title={bundle ? 'No tools in this bundle yet' : 'No tools yet'}>
          {bundle && !bundle.isBuiltIn && bundle.isEnabled ? (
            <button type="button" className="btn btn-primary" onClick={() => go({ name: 'toolNew', bundleID: bundle.bundleID })}>
              Create the first tool
            </button>
          ) : (
            <p className="muted">Create a bundle in the sidebar, then add tools to it.</p>
          )}
        </Empty>
      ) : (
        <div className="tool-table" role="table" aria-rowcount={expected ?? tools.length} aria-label="Tools" data-testid="tool-table">
          <div role="rowgroup" className="tool-head">
            <div role="row" className="tool-row tool-row-head">
              <div role="columnheader" className="cell cell-name">
                Tool
              </div>
              <div role="columnheader" className="cell cell-type">
                Type
              </div>
              <div role="columnheader" className="cell cell-safety">
                Safety
              </div>
              <div role="columnheader" className="cell cell-avail">
                Availability
              </div>
              <div role="columnheader" className="cell cell-num">
                Calls
              </div>
              <div role="columnheader" className="cell cell-when">
                Last called
              </div>
              <div role="columnheader" className="cell cell-switch">
                On
              </div>
            </div>
          </div>
          <div ref={scrollRef} className="tool-scroll" role="rowgroup" onKeyDown={onKeyDown} data-testid="tool-scroll">
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {items.map((vi) => {
                const t = tools[vi.index]!;
                const b = bundleMap.get(t.bundleID);
                return (
                  <div key={t.toolID} data-index={vi.index} className="vrow" style={{ transform: `translateY(${vi.start}px)`, height: ROW_HEIGHT }}>
                    <ToolRow
                      tool={t}
                      bundleName={bundleID ? undefined : b?.displayName || b?.slug}
                      bundleOff={b ? !b.isEnabled : false}
                      active={vi.index === active}
                      onOpen={() => {
                        setActive(vi.index);
                        go({ name: 'tool', ref: toolRefOf(t) });
                      }}
                      onToggle={(v) => toggle.mutate({ tool: t, isEnabled: v })}
                    />
                  </div>
                );
              })}
            </div>
          </div>
          <div className="tool-foot muted" aria-live="polite">
            {plural(tools.length, 'tool')}
            {pages.hasNextPage && expected ? ` of ${expected.toLocaleString()} loaded` : ''}
            {pages.isFetchingNextPage ? ' — loading more…' : ''}
          </div>
        </div>
      )}
    </section>
  );
}
