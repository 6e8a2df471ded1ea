/**
 * Search: the box in the top bar and the Ctrl/Cmd+K palette share one combobox: the input keeps
 * focus, arrows move the active result (aria-activedescendant), Enter opens it, Escape closes.
 * Ranking is the search operation's; matched words are highlighted from SearchHit.search.matches.
 * Performance marks (tw:search) measure keystroke → results painted, for the UI benchmark.
 */
import {
  Fragment,
  memo,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  startTransition,
  type KeyboardEvent,
} from 'react';
import { flushSync } from 'react-dom';
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/errors.js';
import { noteForegroundInput } from '../../api/foreground.js';
import { searchTools } from '../../api/operations.js';
import { keys, toolRefOf, useBundles } from '../../api/queries.js';
import { useNav } from '../../lib/nav.js';
import { Badge } from '../../components/States.js';
import { Modal } from '../../components/Dialog.js';
import { focusScreen } from '../../components/focus.js';
import type { SearchHit } from '../../../../shared/types.js';
import { highlight, snippet } from './highlight.js';
import './Search.css';

/** Results shown at once; the list scrolls, and a longer query narrows it faster than paging would. */
const PAGE_SIZE = 20;

/**
 * Results rendered in the key's own commit: the ones the bar's list shows without scrolling (560 px
 * of 74 px rows). The rest follow after the key's frame, at transition priority, so the rows in view
 * paint first.
 */
const FIRST_HITS = 8;
/** One empty list, so that an empty box gives the results below the fold the same value on every render. */
const NO_HITS: readonly SearchHit[] = [];

/**
 * Results of the previous query are dimmed only when the next ones keep us waiting: dimming on
 * every keystroke cost a repaint of the whole list per key, for answers that come within a frame or two.
 */
const STALE_AFTER_MS = 200;

function useStaleAfter(waiting: boolean, ms: number): boolean {
  const [stale, setStale] = useState(false);
  useEffect(() => {
    if (!waiting) {
      setStale(false);
      return;
    }
    const timer = setTimeout(() => setStale(true), ms);
    return () => clearTimeout(timer);
  }, [waiting, ms]);
  return stale && waiting;
}

/** The search query of `q` (trimmed), shared by the box, the palette and the search page. */
export function searchQueryOptions(q: string, pageSize = PAGE_SIZE) {
  const trimmed = q.trim();
  return queryOptions({
    queryKey: pageSize === PAGE_SIZE ? keys.search(trimmed) : [...keys.search(trimmed), pageSize],
    // The signal lets TanStack Query abort the request of a query the next keystroke left behind.
    queryFn: ({ signal }) => searchTools({ q: trimmed, includeDisabled: true, pageSize }, signal),
    enabled: trimmed.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 2000,
  });
}

export function useSearch(q: string, pageSize = PAGE_SIZE) {
  return useQuery(searchQueryOptions(q, pageSize));
}

interface HitRowProps {
  hit: SearchHit;
  index: number;
  active: boolean;
  optionId: string;
  bundleName: string;
  onOpen(index: number): void;
  onHover(index: number): void;
}

/** One result; memoised so a keystroke re-renders only rows whose hit or focus changed. */
const HitRow = memo(function HitRow({ hit, index, active, optionId, bundleName, onOpen, onHover }: HitRowProps) {
  const t = hit;
  const name = t.displayName || t.slug;
  const nameField = t.displayName ? 'displayName' : 'slug';
  return (
    <li
      id={optionId}
      role="option"
      aria-selected={active}
      className={`hit${active ? ' is-active' : ''}${t.isEnabled ? '' : ' is-off'}`}
      onMouseDown={(e) => e.preventDefault()}
      onMouseMove={() => onHover(index)}
      onClick={() => onOpen(index)}
      data-testid={`hit-${t.slug}`}
    >
      <div className="hit-main">
        <span className="hit-name">{highlight(name, hit.search.matches[nameField])}</span>
        <span className="mono muted">
          {highlight(t.slug, hit.search.matches['slug'])}@{t.version}
        </span>
        <span className="hit-badges">
          <Badge>{t.type}</Badge>
          {!t.isEnabled && <Badge>off</Badge>}
        </span>
      </div>
      {t.description && (
        <div className="hit-desc">{highlight(snippet(t.description, hit.search.matches['description']), hit.search.matches['description'])}</div>
      )}
      <div className="hit-meta muted">
        {highlight(bundleName, [...(hit.search.matches['bundleDisplayName'] ?? []), ...(hit.search.matches['bundleSlug'] ?? [])])}
        {t.tags.length > 0 && (
          <>
            {' · '}
            {t.tags.map((tag, j) => (
              <Fragment key={tag}>
                {j > 0 && ', '}
                {highlight(tag, hit.search.matches['tags'])}
              </Fragment>
            ))}
          </>
        )}
      </div>
    </li>
  );
});

interface ComboProps {
  /** Called after a result was opened (the palette closes itself). */
  onOpened?(): void;
  autoFocus?: boolean;
  variant: 'bar' | 'palette';
  inputRef?: React.RefObject<HTMLInputElement | null>;
}

export function SearchCombo({ onOpened, autoFocus, variant, inputRef }: ComboProps) {
  const [q, setQ] = useState('');
  const qc = useQueryClient();
  const typed = useRef('');
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const search = useSearch(q);
  // Typed since the box was last empty, and no results of this typing on screen yet: the
  // placeholder (the last query that had results) is then an earlier, cleared query's, and
  // showing it for a moment ("Calendar…" rows for "i") cost a render of 20 stale rows per
  // first key. Set in onChange, in the keystroke's own render.
  const [fresh, setFresh] = useState(true);
  const bundles = useBundles('exclude');
  const { go } = useNav();
  const listId = useId();
  const localRef = useRef<HTMLInputElement>(null);
  const ref = inputRef ?? localRef;
  const hits: readonly SearchHit[] = q.trim() && !(fresh && search.isPlaceholderData) ? (search.data?.items ?? NO_HITS) : NO_HITS;
  // The results below the fold come after the key's frame: until then each keeps the row it had
  // (memoised, so not rendered again), and the key's commit renders the rows in view only. After the
  // frame, not as a deferred value: that render ran before the frame as often as not, and the rows
  // in view waited for it.
  const [laterHits, setLaterHits] = useState<readonly SearchHit[]>(NO_HITS);
  const tailWaits = laterHits !== hits && hits.length > FIRST_HITS;
  const shownHits = tailWaits ? [...hits.slice(0, FIRST_HITS), ...laterHits.slice(FIRST_HITS, hits.length)] : hits;
  useLayoutEffect(() => {
    if (!tailWaits) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setLaterHits(hits)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [tailWaits, hits]);
  const bundleNames = useMemo(() => new Map((bundles.data ?? []).map((b) => [b.bundleID, b.displayName || b.slug])), [bundles.data]);
  // Nothing to show yet for this query: the bar's list stays closed (not an empty box under the
  // field) unless the answer keeps us waiting, and then says so.
  const answerOut = q.trim().length > 0 && hits.length === 0 && (search.isPlaceholderData || search.isPending);
  const slowAnswer = useStaleAfter(answerOut, STALE_AFTER_MS);
  const showList = variant === 'palette' || (open && q.trim().length > 0 && (!answerOut || slowAnswer));
  const resultsFor = search.data && !search.isPlaceholderData ? q.trim() : null;
  const stale = useStaleAfter(search.isPlaceholderData, STALE_AFTER_MS);

  // Keystroke → painted: mark once the results of the current query are in the DOM and painted.
  useLayoutEffect(() => {
    if (!resultsFor) return;
    const mark = `tw:search-input:${resultsFor}`;
    if (performance.getEntriesByName(mark).length === 0) return;
    requestAnimationFrame(() =>
      setTimeout(() => {
        try {
          performance.measure('tw:search', { start: mark, detail: { q: resultsFor, hits: hits.length } });
        } catch {
          // mark cleared meanwhile
        }
        performance.clearMarks(mark);
      }, 0),
    );
  }, [resultsFor, hits.length]);

  const openHit = (hit: SearchHit | undefined) => {
    if (!hit) return;
    go({ name: 'tool', ref: toolRefOf(hit) });
    setOpen(false);
    if (variant === 'bar') {
      setQ('');
      ref.current?.blur();
    }
    onOpened?.();
  };

  // The last option opens the search page (its own address, more results).
  const allResults = q.trim().length > 0 && search.isSuccess && !search.isPlaceholderData;
  const optionCount = hits.length + (allResults ? 1 : 0);
  const openAll = () => {
    go({ name: 'search', q: q.trim() });
    setOpen(false);
    if (variant === 'bar') {
      setQ('');
      ref.current?.blur();
    }
    onOpened?.();
  };

  const hitsRef = useRef(hits);
  hitsRef.current = hits;
  const openRef = useRef(openHit);
  openRef.current = openHit;
  const openIndex = useCallback((i: number) => openRef.current(hitsRef.current[i]), []);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(optionCount - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (active === hits.length && allResults) openAll();
      else openHit(hits[active]);
    } else if (e.key === 'Escape') {
      // The first Escape clears the text; on an empty field it leaves search (the palette closes,
      // the bar gives focus back to the screen).
      if (q) {
        e.preventDefault();
        e.stopPropagation();
        setQ('');
      } else if (variant === 'bar') {
        e.preventDefault();
        setOpen(false);
        if (!focusScreen()) ref.current?.blur();
      }
    } else if (e.key === 'Home' && e.ctrlKey) {
      setActive(0);
    } else if (e.key === 'End' && e.ctrlKey) {
      setActive(hits.length - 1);
    }
  };

  useEffect(() => {
    document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, listId]);

  return (
    <div className={`search search-${variant}`} onBlur={(e) => variant === 'bar' && !e.currentTarget.contains(e.relatedTarget) && setOpen(false)}>
      <input
        ref={ref}
        type="search"
        className="search-input"
        placeholder={variant === 'bar' ? 'Search tools…  (Ctrl+K)' : 'Search tools by name, slug, description, tag…'}
        aria-label="Search tools"
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && active < optionCount ? `${listId}-${active}` : undefined}
        value={q}
        autoFocus={autoFocus}
        data-testid={variant === 'bar' ? 'search-box' : 'palette-input'}
        onFocus={() => {
          // Focus in the search box means keys are coming: background work (the first screen's
          // deferred start, refetches) waits for them as it does for a key (foreground.ts).
          noteForegroundInput();
          setOpen(true);
        }}
        onChange={(e) => {
          const next = e.target.value;
          performance.mark(`tw:search-input:${next.trim()}`);
          noteForegroundInput();
          // One render per keystroke: the active result goes back to the first with the query, not in an effect after it.
          if (!q.trim()) setFresh(true);
          else if (resultsFor) setFresh(false);
          setQ(next);
          setActive(0);
          setOpen(true);
          typed.current = next;
          // The request leaves now, not after this key's render and effects, and its answer renders
          // as soon as it is in the cache: not one timer later (the query cache notifies its
          // observers in a setTimeout), then a render of its own.
          if (next.trim()) {
            const options = searchQueryOptions(next);
            const cachedAt = qc.getQueryState(options.queryKey)?.dataUpdatedAt;
            void qc.prefetchQuery(options).then(() => {
              if (typed.current === next && qc.getQueryState(options.queryKey)?.dataUpdatedAt !== cachedAt) flushSync(rerender);
            });
          }
        }}
        onKeyDown={onKeyDown}
      />
      {showList && (
        <div className="search-results" data-testid={variant === 'bar' ? 'search-results' : 'palette-results'}>
          {search.isError && <p className="field-error pad">{errorMessage(search.error)}</p>}
          {answerOut && slowAnswer && (
            <p className="muted pad" role="status">
              Searching…
            </p>
          )}
          {q.trim() && search.isSuccess && hits.length === 0 && !search.isPlaceholderData && <p className="muted pad">No tools match “{q.trim()}”.</p>}
          {!q.trim() && variant === 'palette' && <p className="muted pad">Type to search. ↑ ↓ to move, Enter to open, Esc to close.</p>}
          <ul id={listId} role="listbox" aria-label="Search results" aria-busy={search.isPlaceholderData} className={stale ? 'is-stale' : ''}>
            {shownHits.map((hit, i) => (
              <HitRow
                // By position: the next keystroke's results update these 20 elements in place
                // rather than unmount them and mount 20 new ones (their options are ids by position too).
                key={i}
                hit={hit}
                index={i}
                active={i === active}
                optionId={`${listId}-${i}`}
                bundleName={bundleNames.get(hit.bundleID) ?? ''}
                onOpen={openIndex}
                onHover={setActive}
              />
            ))}
            {allResults && (
              <li
                id={`${listId}-${hits.length}`}
                role="option"
                aria-selected={active === hits.length}
                className={`hit hit-all${active === hits.length ? ' is-active' : ''}`}
                onMouseDown={(e) => e.preventDefault()}
                onMouseMove={() => setActive(hits.length)}
                onClick={openAll}
                data-testid="search-all-results"
              >
                {hits.length ? `All results for “${q.trim()}” on a page` : `Search page for “${q.trim()}”`} →
              </li>
            )}
          </ul>
        </div>
      )}
    </div>
  );
}

export function SearchPalette({ open, onClose }: { open: boolean; onClose(): void }) {
  return (
    <Modal open={open} onClose={onClose} title="Search tools" className="palette" testId="palette">
      <SearchCombo variant="palette" autoFocus onOpened={onClose} />
    </Modal>
  );
}
