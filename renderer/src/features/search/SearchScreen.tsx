/**
 * Search as a page with its own address (`#/search/<words>`): the same ranking as the box in the
 * top bar, more results, and a link that can be kept or shared. The address follows the text
 * as it is typed; Escape clears the text, and on an empty field goes back where the person came from.
 */
import { Fragment, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { toolRefOf, useBundles } from '../../api/queries.js';
import { errorMessage } from '../../api/errors.js';
import { useNav } from '../../lib/nav.js';
import { Badge } from '../../components/States.js';
import { useSearch } from './Search.js';
import { highlight, snippet } from './highlight.js';
import { plural } from '../../lib/format.js';
import './Search.css';
import './SearchScreen.css';

const SCREEN_PAGE_SIZE = 50;

export function SearchScreen({ q: initial }: { q: string }) {
  const [q, setQ] = useState(initial);
  // Another search opened from the top bar while this page is shown.
  const typed = useRef(q);
  typed.current = q;
  useEffect(() => {
    if (initial !== typed.current) setQ(initial);
  }, [initial]);
  const { replace, back, canGoBack, go } = useNav();
  const search = useSearch(q, SCREEN_PAGE_SIZE);
  const bundles = useBundles('exclude');
  const bundleNames = useMemo(() => new Map((bundles.data ?? []).map((b) => [b.bundleID, b.displayName || b.slug])), [bundles.data]);
  const listRef = useRef<HTMLUListElement>(null);
  const trimmed = q.trim();
  const hits = trimmed ? (search.data?.items ?? []) : [];

  const onInputKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      if (q) {
        setQ('');
        replace({ name: 'search', q: '' }, { quiet: true });
      } else if (canGoBack) back();
      else go({ name: 'tools', bundleID: null });
    } else if (e.key === 'ArrowDown' || (e.key === 'Enter' && hits.length)) {
      e.preventDefault();
      const first = listRef.current?.querySelector<HTMLElement>('button');
      if (e.key === 'Enter' && hits[0]) go({ name: 'tool', ref: toolRefOf(hits[0]) });
      else first?.focus();
    }
  };
  const onListKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const buttons = Array.from(listRef.current?.querySelectorAll<HTMLElement>('button') ?? []);
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'ArrowDown' && at < buttons.length - 1) buttons[at + 1]!.focus();
    else if (e.key === 'ArrowUp') (at > 0 ? buttons[at - 1]! : document.querySelector<HTMLElement>('[data-testid="search-page-input"]'))?.focus();
    else return;
    e.preventDefault();
  };

  return (
    <section className="page page-narrow" aria-labelledby="search-title" data-testid="search-screen">
      <header className="page-header">
        <h1 className="page-title" id="search-title">
          Search
        </h1>
      </header>
      <input
        type="search"
        className="search-input search-page-input"
        aria-label="Search tools"
        placeholder="Name, slug, description, tag, bundle…"
        value={q}
        data-autofocus
        data-testid="search-page-input"
        onChange={(e) => {
          setQ(e.target.value);
          replace({ name: 'search', q: e.target.value }, { quiet: true });
        }}
        onKeyDown={onInputKey}
      />
      <p className="muted search-page-status" aria-live="polite" data-testid="search-page-status">
        {!trimmed
          ? 'Type to search every tool, switched on or off. ↓ moves into the results, Esc goes back.'
          : search.isError
            ? errorMessage(search.error)
            : search.isSuccess && !search.isPlaceholderData
              ? hits.length
                ? `${plural(hits.length, 'tool')} match “${trimmed}”${search.data.nextPageToken ? ` (the first ${SCREEN_PAGE_SIZE}; add words to narrow)` : ''}`
                : `No tools match “${trimmed}”.`
              : 'Searching…'}
      </p>
      {hits.length > 0 && (
        <ul ref={listRef} className={`search-page-results${search.isPlaceholderData ? ' is-stale' : ''}`} aria-label="Results" onKeyDown={onListKey}>
          {hits.map((hit) => {
            const name = hit.displayName || hit.slug;
            return (
              <li key={hit.toolID}>
                <button
                  type="button"
                  className={`hit search-page-hit${hit.isEnabled ? '' : ' is-off'}`}
                  onClick={() => go({ name: 'tool', ref: toolRefOf(hit) })}
                  data-testid={`result-${hit.slug}`}
                >
                  <span className="hit-main">
                    <span className="hit-name">{highlight(name, hit.search.matches[hit.displayName ? 'displayName' : 'slug'])}</span>
                    <span className="mono muted">
                      {highlight(hit.slug, hit.search.matches['slug'])}@{hit.version}
                    </span>
                    <span className="hit-badges">
                      <Badge>{hit.type}</Badge>
                      {!hit.isEnabled && <Badge>off</Badge>}
                    </span>
                  </span>
                  {hit.description && (
                    <span className="hit-desc">
                      {highlight(snippet(hit.description, hit.search.matches['description']), hit.search.matches['description'])}
                    </span>
                  )}
                  <span className="hit-meta muted">
                    {highlight(bundleNames.get(hit.bundleID) ?? '', [
                      ...(hit.search.matches['bundleDisplayName'] ?? []),
                      ...(hit.search.matches['bundleSlug'] ?? []),
                    ])}
                    {hit.tags.map((tag, j) => (
                      <Fragment key={tag}>
                        {j === 0 ? ' · ' : ', '}
                        {highlight(tag, hit.search.matches['tags'])}
                      </Fragment>
                    ))}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
