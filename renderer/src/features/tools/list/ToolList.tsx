/**
 * The tools of one bundle or of all bundles, virtualised (@tanstack/react-virtual renders only
 * the rows in view, so 10,000 tools scroll like 10). Keyboard: the list is one tab stop;
 * arrows/Page/Home/End move between rows, Enter opens; only a row's own switch turns a tool on
 * or off (Space on a row must not switch a tool off by accident).
 */
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useBundles, useProblems, useToolPages, toolRefOf } from '../../../api/queries.js';
import { useToggleTool } from '../../../api/mutations.js';
import { useNav } from '../../../lib/nav.js';
import { useRecycledSlots } from '../../../lib/useRecycledSlots.js';
import { Empty, ErrorState, Loading } from '../../../components/States.js';
import { formatCount, plural } from '../../../lib/format.js';
import { ROW_HEIGHT, ToolRow } from './ToolRow.js';
import { BrokenRow, brokenTools, withBroken } from './BrokenRow.js';
import { AllToolsHeader, BundleHeader } from './ListHeaders.js';
import { ownerOf } from '../../../tool-types/slot-registry.js';
import type { ToolView } from '../../../../../shared/types.js';
import './ToolList.css';

function markFirstPaint(): void {
  requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('tw:toollist-painted')));
}

/**
 * Files of this bundle (or of all) that could not be read stay visible where they were: their path
 * and why, so a broken tool.json does not just vanish from the list.
 */
function BrokenFiles({ bundleID }: { bundleID: string | null }) {
  const problems = useProblems();
  const items = (problems.data?.items ?? []).filter((p) => (p.kind === 'tool' || p.kind === 'bundle') && (!bundleID || p.path.includes(bundleID)));
  if (!items.length) return null;
  return (
    <div className="notice notice-danger broken-files" role="status" data-testid="broken-files">
      <strong>
        {items.length === 1 ? 'A file here could not be read' : `${items.length} files here could not be read`}; a broken tool is marked in the list until its
        file is fixed (open the file in any editor; the change shows here at once):
      </strong>
      <ul>
        {items.slice(0, 20).map((p) => (
          <li key={p.path}>
            <code className="break">{p.path}</code> — {p.reason}
          </li>
        ))}
      </ul>
      {items.length > 20 && <p className="muted">and {items.length - 20} more (Settings → Data lists them all)</p>}
    </div>
  );
}

interface RowActions {
  open(index: number, tool: ToolView): void;
  toggle(tool: ToolView, on: boolean): void;
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
  const owner = bundle ? ownerOf(bundle) : undefined;
  const problems = useProblems();
  // A refetch's pages (another process wrote a tool) render at transition priority, so a
  // keystroke's render comes first; the first pages render at once.
  const deferredData = useDeferredValue(pages.data);
  const data = deferredData ?? pages.data;
  const tools = useMemo(() => data?.pages.flatMap((p) => p.items) ?? [], [data]);
  // Broken tool files stay in the list where their tool was; while pages are still coming, those
  // that would sort after the loaded tools wait for their page.
  const rows = useMemo(() => {
    const broken = brokenTools(problems.data?.items ?? [], bundleID);
    if (!broken.length) return tools.map((tool) => ({ kind: 'tool' as const, tool }));
    const last = tools[tools.length - 1]?.toolID;
    return withBroken(tools, pages.hasNextPage && last ? broken.filter((b) => b.toolID < last) : broken);
  }, [tools, problems.data, bundleID, pages.hasNextPage]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // Rows past each edge of the view. Every row in the DOM is laid out, painted and layerized in
    // each frame whose rows change, and a fast wheel replaces them all: 12 a side was 36 rows for
    // 12 in view (docs/speed.md, "Scrolling 10,000 rows").
    overscan: 3,
    // Until the list is in the DOM its height is unknown; the window's lets the first render hold
    // rows (it would hold none, and the rows would take a render and a commit of their own).
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    // On by default: every scroll event that changed the rows in view rendered them at once,
    // inside the event. Off, the scroll events of a frame make one render at input priority.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const rowId = (index: number) => {
    const row = rows[index]!;
    return row.kind === 'broken' ? `broken-${row.toolID}` : row.tool.toolID;
  };
  // Rows in view keep their element; rows scrolled in take the elements of rows scrolled out.
  const slots = useRecycledSlots(
    items.map((vi) => rowId(vi.index)),
    rows[active] ? rowId(active) : undefined,
  );

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

  const rowActions = useRef<RowActions | null>(null);
  rowActions.current = {
    open: (index, tool) => {
      setActive(index);
      go({ name: 'tool', ref: toolRefOf(tool) });
    },
    toggle: (tool, on) => toggle.mutate({ tool, isEnabled: on }),
  };
  // Stable for the memoised rows; they call whatever this render's actions are.
  const openRow = useCallback((index: number, tool: ToolView) => rowActions.current?.open(index, tool), []);
  const toggleRow = useCallback((tool: ToolView, on: boolean) => rowActions.current?.toggle(tool, on), []);

  const focusRow = (index: number) => {
    const i = Math.max(0, Math.min(rows.length - 1, index));
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
      focusRow(rows.length - 1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const row = rows[active];
      if (row?.kind === 'tool') go({ name: 'tool', ref: toolRefOf(row.tool) });
    } else if (e.key === ' ') {
      // Space on a row only keeps the page from scrolling; switching a tool off takes its own switch.
      e.preventDefault();
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

      {/* A bundle a tool type owns (an upstream server's) shows that type's panel; its tools come from there. */}
      {bundle && owner?.BundlePanel && <owner.BundlePanel key={bundle.bundleID} bundle={bundle} />}
      <BrokenFiles bundleID={bundleID} />
      {pages.isPending ? (
        <Loading label="Loading tools…" />
      ) : pages.isError ? (
        <ErrorState error={pages.error} retry={() => void pages.refetch()} />
      ) : rows.length === 0 ? (
        <Empty title={bundle ? 'No tools in this bundle yet' : 'No tools yet'}>
          {bundle && !bundle.isBuiltIn && bundle.isEnabled && !owner ? (
            <button type="button" className="btn btn-primary" onClick={() => go({ name: 'toolNew', bundleID: bundle.bundleID })}>
              Create the first tool
            </button>
          ) : owner ? null : (
            <p className="muted">Create a bundle in the sidebar, then add tools to it.</p>
          )}
        </Empty>
      ) : (
        <div className="tool-table" data-testid="tool-table">
          <div className="tool-grid" role="table" aria-rowcount={expected ?? tools.length} aria-label="Tools">
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
            <div
              ref={scrollRef}
              className={`tool-scroll${virtualizer.isScrolling ? ' is-scrolling' : ''}`}
              role="rowgroup"
              onKeyDown={onKeyDown}
              data-testid="tool-scroll"
            >
              <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
                {items.map((vi, i) => {
                  const row = rows[vi.index]!;
                  if (row.kind === 'broken') {
                    const bb = bundleMap.get(row.bundleID);
                    return (
                      <div key={slots[i]} data-index={vi.index} className="vrow" style={{ transform: `translateY(${vi.start}px)`, height: ROW_HEIGHT }}>
                        <BrokenRow entry={row} active={vi.index === active} bundleName={bundleID ? undefined : bb?.displayName || bb?.slug} />
                      </div>
                    );
                  }
                  const t = row.tool;
                  const b = bundleMap.get(t.bundleID);
                  return (
                    <div key={slots[i]} data-index={vi.index} className="vrow" style={{ transform: `translateY(${vi.start}px)`, height: ROW_HEIGHT }}>
                      <ToolRow
                        tool={t}
                        index={vi.index}
                        bundleName={bundleID ? undefined : b?.displayName || b?.slug}
                        bundleOff={b ? !b.isEnabled : false}
                        active={vi.index === active}
                        onOpen={openRow}
                        onToggle={toggleRow}
                      />
                    </div>
                  );
                })}
              </div>
            </div>
          </div>
          <div className="tool-foot muted" aria-live="polite">
            {plural(tools.length, 'tool')}
            {pages.hasNextPage && expected ? ` of ${formatCount(expected)} loaded` : ''}
            {pages.isFetchingNextPage ? ' — loading more…' : ''}
          </div>
        </div>
      )}
    </section>
  );
}
