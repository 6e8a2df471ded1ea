/**
 * The rows of the tool list, virtualised (@tanstack/react-virtual renders only the rows in view,
 * so 10,000 tools scroll like 10). A component of its own, memoised: a scroll that changes the
 * rows in view renders this and the rows, not the list's headers, notices and queries around it.
 * Keyboard: the rows are one tab stop; arrows/Page/Home/End move between rows, Enter opens; only
 * a row's own switch turns a tool on or off (Space on a row must not switch a tool off by accident).
 */
import { memo, useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { elementScroll, observeElementRect, useVirtualizer, type Virtualizer, type VirtualizerOptions } from '@tanstack/react-virtual';
import { toolRefOf } from '../../../api/queries.js';
import { useNav } from '../../../lib/nav.js';
import { useRecycledSlots } from '../../../lib/useRecycledSlots.js';
import { useFirstScreenSettled } from '../../../api/first-screen.js';
import { ROW_HEIGHT, ToolRow } from './ToolRow.js';
import { BrokenRow, type ListEntry } from './BrokenRow.js';
import type { BundleView, ToolView } from '../../../../../shared/types.js';

/** Rows past each edge of the view (see `overscan` below). */
const OVERSCAN = 3;
/**
 * What always sits above and below the scroller in the tool list: the top bar, the page's header
 * and the column heads above, the footer and the margin below (259 px at 1280×820, more on a
 * bundle's page and with notices), a little under so that the first render never leaves a gap.
 */
const CHROME_AROUND_ROWS = 200;

/**
 * The scroller's height before it is laid out (initialRect). The window's height stood in: 19
 * rows rendered for the 11 of a 820 px window, and a second commit trimmed them after the paint.
 */
function scrollerHeightGuess(): number {
  return Math.max(window.innerHeight - CHROME_AROUND_ROWS, 300);
}
/** Rows before the end of what is loaded at which the next page is asked for: a fast wheel turn is ~46 rows. */
const PREFETCH_ROWS = 300;
/**
 * Until the first screen's deferred work may start (first-screen.ts: after the paint, once typing
 * pauses), the next page is asked for only this near the end: asked for at once, its 1,000 tools
 * (740 KB) landed on the first paint and on the first keys typed.
 */
const NEAR_END_ROWS = 50;

/**
 * The scroller's size from its ResizeObserver alone. The library's own observer also measures it
 * at once when the list mounts (getBoundingClientRect in a layout effect): that forced the first
 * layout of the whole page inside React's commit (61–83 ms in traces), before the frame would have
 * laid it out anyway. The observer's first report comes after that frame's layout; until then the
 * window's size stands in (initialRect).
 */
function observeScrollerSize(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: { width: number; height: number }) => void) {
  const element = instance.scrollElement;
  if (!element || typeof ResizeObserver === 'undefined') return observeElementRect(instance, cb);
  const observer = new ResizeObserver(() => {
    const rect = element.getBoundingClientRect();
    cb({ width: Math.round(rect.width), height: Math.round(rect.height) });
  });
  observer.observe(element, { box: 'content-box' });
  return () => observer.disconnect();
}

const scrolledOnce = new WeakSet<object>();

/**
 * The library writes the scroll offset (0) to the scroller as it mounts: a new scroller is there
 * already, and writing it forced the same first layout inside the commit (89–134 ms in traces at
 * load 7). That first write of 0 is skipped; every later one is made.
 */
const scrollScroller: VirtualizerOptions<HTMLDivElement, Element>['scrollToFn'] = (offset, options, instance) => {
  const first = !scrolledOnce.has(instance);
  scrolledOnce.add(instance);
  if (first && offset + (options.adjustments ?? 0) === 0) return;
  elementScroll(offset, options, instance);
};

export const ToolRows = memo(function ToolRows({
  rows,
  bundleID,
  bundleMap,
  hasNextPage,
  isFetching,
  fetchNextPage,
  onToggle,
}: {
  rows: readonly ListEntry[];
  bundleID: string | null;
  bundleMap: ReadonlyMap<string, BundleView>;
  hasNextPage: boolean;
  /** Any fetch of the pages (a refetch too): asking for the next page meanwhile would cancel it. */
  isFetching: boolean;
  fetchNextPage(): unknown;
  onToggle(tool: ToolView, on: boolean): void;
}) {
  const { go } = useNav();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);

  const settled = useFirstScreenSettled();
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // Every row in the DOM is laid out, painted and layerized in each frame whose rows change, and
    // a fast wheel replaces them all: 12 a side was 36 rows for 12 in view (docs/speed.md,
    // "Scrolling 10,000 rows"). The first screen renders the rows in view alone: the others are
    // for scrolling, and come in an idle moment after the paint (first-screen.ts).
    overscan: settled ? OVERSCAN : 0,
    // Until the list is in the DOM its height is unknown; a guess lets the first render hold rows
    // (it would hold none, and the rows would take a render and a commit of their own).
    initialRect: { width: window.innerWidth, height: scrollerHeightGuess() },
    observeElementRect: observeScrollerSize,
    scrollToFn: scrollScroller,
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

  const lastIndex = items[items.length - 1]?.index ?? 0;
  const lookahead = settled ? PREFETCH_ROWS : NEAR_END_ROWS;
  useEffect(() => {
    if (lastIndex >= rows.length - lookahead && hasNextPage && !isFetching) void fetchNextPage();
  }, [lastIndex, rows.length, lookahead, hasNextPage, isFetching, fetchNextPage]);

  useEffect(() => setActive(0), [bundleID]);

  // Stable for the memoised rows.
  const openRow = useCallback(
    (index: number, tool: ToolView) => {
      setActive(index);
      go({ name: 'tool', ref: toolRefOf(tool) });
    },
    [go],
  );

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

  return (
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
                onToggle={onToggle}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
});
