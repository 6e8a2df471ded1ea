/** A labelled form field with hint and error, wired for screen readers; and server issue routing. */
import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import type { FieldIssue } from '../../../shared/errors.js';
import type { ApiCallError } from '../api/errors.js';

/** The registered field an issue belongs to: exact match, or the longest field that prefixes it. */
export function fieldFor(issueField: string, fields: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const f of fields) {
    if (issueField === f || issueField.startsWith(`${f}.`) || issueField.startsWith(`${f}[`) || issueField.startsWith(`${f}/`)) {
      if (!best || f.length > best.length) best = f;
    }
  }
  return best;
}

/** Groups server issues by the registered field they concern; messages of one field are joined. */
export function issuesByField(issues: readonly FieldIssue[], fields: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const issue of issues) {
    const f = fieldFor(issue.field, fields);
    if (!f) continue;
    const detail = issue.field !== f ? `${issue.field.slice(f.length).replace(/^[./]/, '')}: ${issue.message}` : issue.message;
    out.set(f, out.has(f) ? `${out.get(f)}; ${detail}` : detail);
  }
  return out;
}

/** The part of a server error that no field on screen shows: its message, and unmatched issues. */
export function FormErrors({ error, shownFields }: { error: ApiCallError | null; shownFields: readonly string[] }) {
  if (!error) return null;
  const stray = error.issues.filter((i) => !fieldFor(i.field, shownFields));
  const matched = error.issues.length - stray.length;
  return (
    <div className="form-alert" role="alert" tabIndex={-1} data-testid="form-alert">
      <strong>{matched > 0 && stray.length === 0 ? 'Please fix the highlighted fields.' : error.message}</strong>
      {stray.length > 0 && (
        <ul>
          {stray.map((i) => (
            <li key={`${i.field}:${i.message}`}>
              {i.field ? <code>{i.field}</code> : null} {i.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

interface FieldProps {
  label: string;
  hint?: ReactNode;
  error?: string;
  warning?: string;
  children: (id: string, describedBy: string) => ReactNode;
  className?: string;
  testId?: string;
}

export function Field({ label, hint, error, warning, children, className, testId }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errId = `${id}-err`;
  return (
    <div className={`field${error ? ' has-error' : ''} ${className ?? ''}`} data-testid={testId}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {children(id, `${hint ? hintId : ''} ${errId}`.trim())}
      {hint && (
        <div id={hintId} className="field-hint">
          {hint}
        </div>
      )}
      <div id={errId} aria-live="polite">
        {error && <div className="field-error">{error}</div>}
        {!error && warning && <div className="field-warning">{warning}</div>}
      </div>
    </div>
  );
}

type TextFieldProps = Omit<FieldProps, 'children'> &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'value' | 'onChange'> & {
    value: string;
    onValue(value: string): void;
    /** Code-like text (names, URLs, expressions): a monospace input. */
    mono?: boolean;
  };

/** A Field holding one text input: labelled, described by its hint and error, marked invalid with an error. */
export function TextField({ label, hint, error, warning, className, testId, value, onValue, mono, ...input }: TextFieldProps) {
  return (
    <Field label={label} hint={hint} error={error} warning={warning} className={className} testId={testId}>
      {(id, describedBy) => (
        <input
          id={id}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          className={mono ? 'input mono' : 'input'}
          value={value}
          onChange={(e) => onValue(e.target.value)}
          {...input}
        />
      )}
    </Field>
  );
}
