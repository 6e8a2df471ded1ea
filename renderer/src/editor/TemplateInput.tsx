/**
 * A text field for templates with `${name}` (http) or `{{name}}` (card title) placeholders,
 * highlighted in place: a backdrop renders the same text with marks, the transparent input on
 * top keeps native editing, selection and accessibility. Each placeholder is classified as an
 * argument, a secret (set or not yet set) or unknown, and problems are listed under the field.
 */
import { useId, useRef, type UIEvent } from 'react';
import { findPlaceholders, isSecretName, type Placeholder } from '../../../shared/template.js';

export type PlaceholderKind = 'arg' | 'secret' | 'secret-missing' | 'unknown';

export interface PlaceholderContext {
  args: readonly string[];
  /** Names of secrets that are set; undefined while loading. */
  secrets?: readonly string[];
}

const MUSTACHE = /\{\{\s*([^}]*?)\s*\}\}/g;

export function findMustache(template: string): Placeholder[] {
  return [...template.matchAll(MUSTACHE)].map((m) => ({ name: m[1]!.trim(), start: m.index!, end: m.index! + m[0].length }));
}

export function classifyPlaceholder(name: string, ctx: PlaceholderContext, syntax: 'dollar' | 'mustache'): PlaceholderKind {
  if (ctx.args.includes(name)) return 'arg';
  if (syntax === 'mustache') return 'unknown';
  if (!isSecretName(name)) return 'unknown';
  if (ctx.secrets && !ctx.secrets.includes(name)) return 'secret-missing';
  return 'secret';
}

export interface PlaceholderProblem {
  name: string;
  kind: PlaceholderKind;
  message: string;
  severity: 'error' | 'warning';
}

export function placeholderProblems(template: string, ctx: PlaceholderContext, syntax: 'dollar' | 'mustache'): PlaceholderProblem[] {
  const found = syntax === 'dollar' ? findPlaceholders(template) : findMustache(template);
  const seen = new Set<string>();
  const out: PlaceholderProblem[] = [];
  for (const p of found) {
    if (seen.has(p.name)) continue;
    seen.add(p.name);
    const kind = classifyPlaceholder(p.name, ctx, syntax);
    if (kind === 'unknown') {
      out.push(
        syntax === 'dollar'
          ? {
              name: p.name,
              kind,
              severity: 'error',
              message: `\${${p.name}} is neither an argSchema property nor a secret name (UPPER_SNAKE_CASE); add it to argSchema.properties or correct it`,
            }
          : { name: p.name, kind, severity: 'warning', message: `{{${p.name}}} is not an argSchema property; it will show empty` },
      );
    } else if (kind === 'secret-missing') {
      out.push({ name: p.name, kind, severity: 'warning', message: `secret ${p.name} is not set yet; set it under Secrets before running` });
    }
  }
  return out;
}

interface TemplateInputProps {
  id?: string;
  value: string;
  onChange(v: string): void;
  ctx: PlaceholderContext;
  syntax?: 'dollar' | 'mustache';
  multiline?: boolean;
  rows?: number;
  label: string;
  placeholder?: string;
  readOnly?: boolean;
  serverError?: string;
  testId?: string;
}

function Highlighted({ text, ctx, syntax }: { text: string; ctx: PlaceholderContext; syntax: 'dollar' | 'mustache' }) {
  const found = syntax === 'dollar' ? findPlaceholders(text) : findMustache(text);
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const p of found) {
    if (p.start > at) parts.push(text.slice(at, p.start));
    const kind = classifyPlaceholder(p.name, ctx, syntax);
    parts.push(
      <mark key={p.start} className={`ph ph-${kind}`}>
        {text.slice(p.start, p.end)}
      </mark>,
    );
    at = p.end;
  }
  parts.push(text.slice(at) + (text.endsWith('\n') ? ' ' : ''));
  return <>{parts}</>;
}

export function TemplateInput({
  id,
  value,
  onChange,
  ctx,
  syntax = 'dollar',
  multiline,
  rows = 4,
  label,
  placeholder,
  readOnly,
  serverError,
  testId,
}: TemplateInputProps) {
  const backdrop = useRef<HTMLDivElement>(null);
  const autoId = useId();
  const inputId = id ?? autoId;
  const problems = placeholderProblems(value, ctx, syntax);
  const onScroll = (e: UIEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (!backdrop.current) return;
    backdrop.current.scrollTop = e.currentTarget.scrollTop;
    backdrop.current.scrollLeft = e.currentTarget.scrollLeft;
  };
  const hasError = !!serverError || problems.some((p) => p.severity === 'error');
  const common = {
    id: inputId,
    value,
    readOnly,
    placeholder,
    spellCheck: false,
    'aria-label': label,
    'aria-invalid': hasError || undefined,
    'aria-describedby': `${inputId}-problems`,
    'data-testid': testId,
    onScroll,
  };
  return (
    <div className={`template-field${multiline ? ' is-multiline' : ''}${hasError ? ' has-error' : ''}`}>
      <div className="template-stack">
        <div ref={backdrop} className="template-backdrop" aria-hidden="true">
          <Highlighted text={value} ctx={ctx} syntax={syntax} />
        </div>
        {multiline ? (
          <textarea {...common} rows={rows} className="template-input" onChange={(e) => onChange(e.target.value)} />
        ) : (
          <input {...common} type="text" className="template-input" onChange={(e) => onChange(e.target.value)} />
        )}
      </div>
      <div id={`${inputId}-problems`} className="field-messages" data-testid={testId ? `${testId}-problems` : undefined}>
        {problems.map((p) => (
          <div key={p.name} className={p.severity === 'error' ? 'field-error' : 'field-warning'}>
            {p.message}
          </div>
        ))}
        {serverError && <div className="field-error">{serverError}</div>}
      </div>
    </div>
  );
}
