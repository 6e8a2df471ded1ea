/**
 * A collapsible JSON tree on <details>/<summary>: native keyboard support (Enter/Space toggle),
 * no library. Large arrays and objects render their first entries and a "show more" button.
 */
import { useState } from 'react';
import './JsonTree.css';

const PAGE = 200;

function Scalar({ value }: { value: unknown }) {
  if (value === null) return <span className="json-null">null</span>;
  switch (typeof value) {
    case 'string':
      return <span className="json-string">{JSON.stringify(value)}</span>;
    case 'number':
      return <span className="json-number">{String(value)}</span>;
    case 'boolean':
      return <span className="json-boolean">{String(value)}</span>;
    default:
      return <span className="json-null">{String(value)}</span>;
  }
}

function Node({ name, value, depth }: { name?: string; value: unknown; depth: number }) {
  const [limit, setLimit] = useState(PAGE);
  const label = name !== undefined ? <span className="json-key">{name}: </span> : null;
  if (value === null || typeof value !== 'object') {
    return (
      <div className="json-leaf">
        {label}
        <Scalar value={value} />
      </div>
    );
  }
  const isArray = Array.isArray(value);
  const entries: [string, unknown][] = isArray ? (value as unknown[]).map((v, i) => [String(i), v]) : Object.entries(value);
  const summary = isArray ? `Array(${entries.length})` : `{${entries.length} ${entries.length === 1 ? 'key' : 'keys'}}`;
  if (entries.length === 0) {
    return (
      <div className="json-leaf">
        {label}
        <span className="json-punct">{isArray ? '[]' : '{}'}</span>
      </div>
    );
  }
  return (
    <details className="json-node" open={depth < 2}>
      <summary>
        {label}
        <span className="json-summary">{summary}</span>
      </summary>
      <div className="json-children">
        {entries.slice(0, limit).map(([k, v]) => (
          <Node key={k} name={k} value={v} depth={depth + 1} />
        ))}
        {entries.length > limit && (
          <button type="button" className="btn btn-small" onClick={() => setLimit((l) => l + PAGE)}>
            Show {Math.min(PAGE, entries.length - limit)} more of {entries.length - limit}
          </button>
        )}
      </div>
    </details>
  );
}

export function JsonTree({ value }: { value: unknown }) {
  return (
    <div className="json-tree" data-testid="json-tree">
      <Node value={value} depth={0} />
    </div>
  );
}
