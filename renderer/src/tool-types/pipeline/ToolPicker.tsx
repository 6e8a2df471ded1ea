/**
 * Picks the tool a pipeline step calls: a search box over every tool (the app's own search
 * operation, so ranking and accents behave as in the palette), listing the pipeline's own
 * bundle while nothing is typed. A combobox: arrows move, Enter picks, Escape closes.
 */
import { useId, useState, type KeyboardEvent } from 'react';
import { useBundles, useToolPages } from '../../api/queries.js';
import { errorMessage } from '../../api/errors.js';
import { useSearch } from '../../features/search/Search.js';
import { highlight } from '../../features/search/highlight.js';
import { Badge } from '../../components/States.js';
import { SAFETY_LABEL, SAFETY_TONE } from '../../lib/format.js';
import type { ToolView } from '../../../../shared/types.js';
import '../../features/tools/pipelines.css';

const SHOWN = 12;

export interface ToolPickerProps {
  ownBundleID: string;
  /** The pipeline being edited: it cannot be one of its own steps. */
  excludeToolID?: string;
  label: string;
  onPick(tool: ToolView): void;
  onCancel(): void;
  testId?: string;
}

export function ToolPicker({ ownBundleID, excludeToolID, label, onPick, onCancel, testId = 'tool-picker' }: ToolPickerProps) {
  const [q, setQ] = useState('');
  const [active, setActive] = useState(0);
  const id = useId();
  const search = useSearch(q);
  const own = useToolPages(ownBundleID);
  const bundles = useBundles();
  const bundleName = (bundleID: string) => {
    const b = bundles.data?.find((x) => x.bundleID === bundleID);
    return b ? b.slug : bundleID.slice(0, 8);
  };
  const typed = q.trim().length > 0;
  const source: ToolView[] = typed ? (search.data?.items ?? []) : (own.data?.pages.flatMap((p) => p.items) ?? []);
  const items = source.filter((t) => t.toolID !== excludeToolID).slice(0, SHOWN);
  const current = Math.min(active, Math.max(0, items.length - 1));
  const pending = typed ? search.isPending : own.isPending;
  const failed = typed ? search.error : own.error;

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (items.length) setActive((current + (e.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (items[current]) onPick(items[current]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    }
  };

  return (
    <div className="tool-picker" data-testid={testId}>
      <div className="tool-picker-head">
        <input
          className="input"
          role="combobox"
          aria-label={label}
          aria-expanded={items.length > 0}
          aria-controls={`${id}-list`}
          aria-activedescendant={items.length ? `${id}-${current}` : undefined}
          aria-autocomplete="list"
          placeholder="Search tools by name, slug, tag…"
          value={q}
          autoFocus
          onChange={(e) => {
            setQ(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          data-testid={`${testId}-input`}
        />
        <button type="button" className="btn btn-small" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <p className="field-hint">{typed ? 'Results from every bundle.' : 'Tools of this bundle; type to search every bundle.'}</p>
      {failed && <p className="field-error">{errorMessage(failed)}</p>}
      <ul id={`${id}-list`} role="listbox" aria-label={`${label}: results`} className="tool-picker-list">
        {pending && typed && items.length === 0 && <li className="muted tool-picker-note">Searching…</li>}
        {!pending && items.length === 0 && <li className="muted tool-picker-note">{typed ? 'No tool matches.' : 'This bundle has no other tools yet.'}</li>}
        {items.map((t, i) => {
          const matches = 'search' in t ? (t as ToolView & { search: { matches: Record<string, string[]> } }).search.matches : undefined;
          return (
            <li
              key={t.toolID}
              id={`${id}-${i}`}
              role="option"
              aria-selected={i === current}
              className={`tool-picker-option${i === current ? ' is-active' : ''}`}
              onMouseDown={(e) => e.preventDefault()}
              onMouseMove={() => setActive(i)}
              onClick={() => onPick(t)}
              data-testid={`pick-${t.slug}`}
            >
              <span className="tool-picker-name">{highlight(t.displayName || t.slug, matches?.[t.displayName ? 'displayName' : 'slug'])}</span>
              <span className="mono muted">
                {bundleName(t.bundleID)}/{t.slug}@{t.version}
              </span>
              <span className="tool-picker-badges">
                <Badge>{t.type}</Badge>
                <Badge tone={SAFETY_TONE[t.effectiveSafety ?? t.safety]}>{SAFETY_LABEL[t.effectiveSafety ?? t.safety]}</Badge>
                {!t.isEnabled && <Badge>off</Badge>}
                {!t.availability.ok && (
                  <Badge tone="warn" title={t.availability.reason}>
                    unavailable
                  </Badge>
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
