/**
 * The tools of one bundle or of all bundles: the header, the notices, the table's column heads and
 * its footer; the rows themselves (virtualised, with their keyboard) are ToolRows.
 */
import { Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef } from 'react';
import { useBundles, useProblems, useToolPages } from '../../../api/queries.js';
import { useToggleTool } from '../../../api/mutations.js';
import { useNav } from '../../../lib/nav.js';
import { Empty, ErrorState, Loading } from '../../../components/States.js';
import { formatCount, plural } from '../../../lib/format.js';
import { brokenTools, withBroken } from './BrokenRow.js';
import { ToolRows } from './ToolRows.js';
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

export function ToolList({ bundleID }: { bundleID: string | null }) {
  const { go } = useNav();
  const bundles = useBundles('exclude');
  const pages = useToolPages(bundleID);
  const toggle = useToggleTool();
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

  useEffect(() => {
    if (!painted.current && tools.length > 0) {
      painted.current = true;
      markFirstPaint();
    }
  }, [tools.length]);

  const toggleRef = useRef(toggle);
  toggleRef.current = toggle;
  // Stable for the memoised rows; it calls whatever this render's mutation is.
  const toggleRow = useCallback((tool: ToolView, on: boolean) => toggleRef.current.mutate({ tool, isEnabled: on }), []);

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
      {bundle && owner?.BundlePanel && (
        // A lazy panel's code is usually in by now (lib/preloadable.ts); when not, a quiet placeholder, not the screen's spinner.
        <Suspense fallback={<div className="panel slot-placeholder" aria-busy="true" />}>
          <owner.BundlePanel key={bundle.bundleID} bundle={bundle} />
        </Suspense>
      )}
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
            <ToolRows
              rows={rows}
              bundleID={bundleID}
              bundleMap={bundleMap}
              hasNextPage={pages.hasNextPage}
              // Until the deferred render has caught up, the rows are those of fewer pages than are
              // loaded: asking for more on their count fetched page after page while keys were typed.
              isFetching={pages.isFetching || data !== pages.data}
              fetchNextPage={pages.fetchNextPage}
              onToggle={toggleRow}
            />
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
