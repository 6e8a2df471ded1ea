/** Picks tools by name from every tool in the store: a filter box, the first matches, and the picked ones as removable chips. */
import { useId, useMemo, useState } from 'react';
import type { ToolView } from '../../../../shared/types.js';
import './Profiles.css';

const SHOWN = 12;

export function toolLabel(t: ToolView | undefined, bundleSlug: (id: string) => string, toolID: string): string {
  return t ? `${bundleSlug(t.bundleID)}/${t.slug}@${t.version}` : `${toolID} (no longer exists)`;
}

interface Props {
  label: string;
  hint: string;
  tools: ToolView[];
  picked: string[];
  bundleSlug(bundleID: string): string;
  onChange(picked: string[]): void;
  testId: string;
}

export function MultiToolPicker({ label, hint, tools, picked, bundleSlug, onChange, testId }: Props) {
  const id = useId();
  const [q, setQ] = useState('');
  const byID = useMemo(() => new Map(tools.map((t) => [t.toolID, t])), [tools]);
  const matches = useMemo(() => {
    const words = q.toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) return [];
    return tools
      .filter((t) => !picked.includes(t.toolID))
      .filter((t) => {
        const text = `${bundleSlug(t.bundleID)}/${t.slug} ${t.displayName} ${t.description}`.toLowerCase();
        return words.every((w) => text.includes(w));
      })
      .slice(0, SHOWN);
  }, [q, tools, picked, bundleSlug]);
  return (
    <fieldset className="fieldset" data-testid={testId}>
      <legend>{label}</legend>
      <label htmlFor={id} className="field-label">
        Find a tool
      </label>
      <input
        id={id}
        className="input"
        type="search"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        placeholder="name, bundle or words of its description"
        data-testid={`${testId}-search`}
      />
      <div className="field-hint">{hint}</div>
      {matches.length > 0 && (
        <ul className="profile-pick-results">
          {matches.map((t) => (
            <li key={t.toolID}>
              <button type="button" className="btn btn-small" onClick={() => onChange([...picked, t.toolID])} data-testid={`${testId}-add-${t.slug}`}>
                Add
              </button>
              <span className="mono">{toolLabel(t, bundleSlug, t.toolID)}</span>
              <span className="muted">{t.displayName}</span>
            </li>
          ))}
        </ul>
      )}
      {picked.length > 0 && (
        <ul className="profile-picks" aria-label={label}>
          {picked.map((toolID) => {
            const name = toolLabel(byID.get(toolID), bundleSlug, toolID);
            return (
              <li key={toolID} className="badge">
                <span className="mono">{name}</span>{' '}
                <button type="button" className="link-btn" aria-label={`Remove ${name}`} onClick={() => onChange(picked.filter((p) => p !== toolID))}>
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
