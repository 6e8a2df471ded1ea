/**
 * Environment variables (stdio) or headers (HTTP) of a server: name and value rows, where a value
 * may be or hold `${SECRET_NAME}`. A value that looks like a secret can be moved into the secrets
 * store in one click, leaving its placeholder in the row.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { setSecret } from '../../api/operations.js';
import { errorMessage } from '../../api/errors.js';
import { keys } from '../../api/queries.js';
import { looksSecret, placeholderOf, secretNameFor, type NameValueRow } from './commandLine.js';
import './AddUpstream.css';

const AUTH_SCHEME = /^(Bearer|Basic|Token)\s+(.+)$/i;

/** Rows whose value is a literal secret (a secret-like name, a value that holds no placeholder). */
export function literalSecretRows(rows: NameValueRow[]): NameValueRow[] {
  return rows.filter((r) => r.name.trim() && r.value.trim() && looksSecret(r.name) && !r.value.includes('${'));
}

export function NameValueRows({
  kind,
  rows,
  onChange,
  serverSlug,
}: {
  kind: 'env' | 'header';
  rows: NameValueRow[];
  onChange(rows: NameValueRow[]): void;
  serverSlug: string;
}) {
  const qc = useQueryClient();
  const [storing, setStoring] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<number, string>>({});
  const noun = kind === 'env' ? 'environment variable' : 'header';
  const secrets = new Set(literalSecretRows(rows));
  const set = (i: number, patch: Partial<NameValueRow>) => onChange(rows.map((r, k) => (k === i ? { ...r, ...patch } : r)));

  const store = async (i: number) => {
    const row = rows[i]!;
    const name = secretNameFor(serverSlug, row.name);
    const scheme = kind === 'header' ? AUTH_SCHEME.exec(row.value.trim()) : null;
    setStoring(i);
    try {
      await setSecret({ name, value: scheme ? scheme[2]! : row.value.trim() });
      void qc.invalidateQueries({ queryKey: keys.secrets });
      set(i, { value: scheme ? `${scheme[1]} \${${name}}` : `\${${name}}` });
      setErrors(({ [i]: _gone, ...rest }) => rest);
    } catch (e) {
      setErrors((x) => ({ ...x, [i]: `Could not store the secret: ${errorMessage(e)}` }));
    } finally {
      setStoring(null);
    }
  };

  return (
    <fieldset className="nv-rows" data-testid={`${kind}-rows`}>
      <legend className="field-label">{kind === 'env' ? 'Environment variables' : 'Headers'}</legend>
      {rows.length === 0 && (
        <p className="muted nv-empty">
          None. A value may be a secret&apos;s placeholder, <code>{'${GITHUB_TOKEN}'}</code>, filled from the secrets store when the server starts.
        </p>
      )}
      {rows.map((r, i) => {
        const placeholder = placeholderOf(r.value);
        return (
          <div key={i} className="nv-row">
            <input
              className="input mono"
              aria-label={`${noun} ${i + 1} name`}
              placeholder={kind === 'env' ? 'NAME' : 'Header-Name'}
              value={r.name}
              onChange={(e) => set(i, { name: e.target.value })}
              data-testid={`nv-name-${i}`}
            />
            <input
              className="input mono"
              aria-label={`${noun} ${i + 1} value`}
              placeholder="value or ${SECRET_NAME}"
              type={secrets.has(r) ? 'password' : 'text'}
              value={r.value}
              onChange={(e) => set(i, { value: e.target.value })}
              data-testid={`nv-value-${i}`}
            />
            <button
              type="button"
              className="icon-btn"
              aria-label={`Remove ${r.name || noun}`}
              title="Remove"
              onClick={() => onChange(rows.filter((_, k) => k !== i))}
            >
              ×
            </button>
            {secrets.has(r) && (
              <div className="nv-note">
                This looks like a secret.{' '}
                <button type="button" className="btn btn-small" disabled={storing === i} onClick={() => void store(i)} data-testid={`nv-store-${i}`}>
                  {storing === i ? 'Storing…' : `Store as secret ${secretNameFor(serverSlug, r.name)}`}
                </button>
              </div>
            )}
            {placeholder && <div className="nv-note muted">From the secrets store: {placeholder}</div>}
            {errors[i] && (
              <div className="nv-note field-error" role="alert">
                {errors[i]}
              </div>
            )}
          </div>
        );
      })}
      <button type="button" className="link-btn" onClick={() => onChange([...rows, { name: '', value: '' }])} data-testid={`add-${kind}`}>
        + Add {noun}
      </button>
    </fieldset>
  );
}
