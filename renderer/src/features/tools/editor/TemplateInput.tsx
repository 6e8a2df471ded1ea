/**
 * A text field for templates with `${name}` (http, pipelines) or `{{name}}` (card title)
 * placeholders, highlighted in place: a backdrop renders the same text with marks, the
 * transparent input on top keeps native editing, selection and accessibility. Each placeholder
 * is classified (an argument, a secret set or not yet set, a pipeline step, or unknown) and
 * problems are listed under the field. Given `suggestions`, typing `${` (or Ctrl+Space) offers
 * them in a listbox: arrows move, Enter or Tab inserts, Escape closes.
 */
import { useId, useRef, useState, type KeyboardEvent, type UIEvent } from 'react';
import { findPlaceholders, isSecretName, type Placeholder } from '../../../../../shared/template.js';
import './TemplateInput.css';
import '../pipelines.css';

export type PlaceholderKind = 'arg' | 'step' | 'secret' | 'secret-missing' | 'unknown';

/** How a field judges its placeholders when they are not the http rules (a pipeline's `${input.…}` and `${steps.…}`). */
export interface PlaceholderRules {
  classify(name: string): PlaceholderKind;
  problems(template: string): PlaceholderProblem[];
}

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
  rules?: PlaceholderRules;
  /** Placeholder names offered while typing `${` (e.g. `input.city`, `steps.geo.value`). */
  suggestions?: readonly string[];
}

/** The `${…` being typed right before the caret, if any: where it starts and what is typed so far. */
export function openPlaceholder(text: string, caret: number): { start: number; query: string } | undefined {
  const m = /\$\{([^}\n]*)$/.exec(text.slice(0, caret));
  return m ? { start: m.index, query: m[1]! } : undefined;
}

/** Suggestions matching what is typed: those starting with it first, then those containing it. */
export function matchSuggestions(all: readonly string[], query: string, max = 12): string[] {
  const q = query.trim().toLowerCase();
  const starts = all.filter((s) => s.toLowerCase().startsWith(q));
  const contains = all.filter((s) => !s.toLowerCase().startsWith(q) && s.toLowerCase().includes(q));
  return [...starts, ...contains].slice(0, max);
}

/** The text with the open `${…` (and the rest of its name, up to a closing brace) replaced by `${choice}`; and where the caret goes. */
export function insertSuggestion(text: string, caret: number, choice: string): { text: string; caret: number } {
  const open = openPlaceholder(text, caret);
  const start = open ? open.start : caret;
  const tail = /^[^}\s]*\}?/.exec(text.slice(caret))![0];
  const inserted = `\${${choice}}`;
  return { text: text.slice(0, start) + inserted + text.slice(caret + (open ? tail.length : 0)), caret: start + inserted.length };
}

function Highlighted({ text, ctx, syntax, rules }: { text: string; ctx: PlaceholderContext; syntax: 'dollar' | 'mustache'; rules?: PlaceholderRules }) {
  const found = syntax === 'dollar' ? findPlaceholders(text) : findMustache(text);
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const p of found) {
    if (p.start > at) parts.push(text.slice(at, p.start));
    const kind = rules ? rules.classify(p.name) : classifyPlaceholder(p.name, ctx, syntax);
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
  rules,
  suggestions,
}: TemplateInputProps) {
  const backdrop = useRef<HTMLDivElement>(null);
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const autoId = useId();
  const inputId = id ?? autoId;
  const listId = `${inputId}-suggestions`;
  const [menu, setMenu] = useState<{ items: string[]; active: number } | null>(null);
  const problems = rules ? rules.problems(value) : placeholderProblems(value, ctx, syntax);
  const onScroll = (e: UIEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (!backdrop.current) return;
    backdrop.current.scrollTop = e.currentTarget.scrollTop;
    backdrop.current.scrollLeft = e.currentTarget.scrollLeft;
  };
  /** Opens, narrows or closes the suggestions for the caret's place in `text`. */
  const follow = (text: string, caret: number, force = false) => {
    if (!suggestions?.length || readOnly) return;
    const open = openPlaceholder(text, caret);
    if (!open && !force) return setMenu(null);
    const items = matchSuggestions(suggestions, open?.query ?? '');
    setMenu(items.length ? { items, active: 0 } : null);
  };
  const accept = (choice: string) => {
    const el = field.current;
    const caret = el?.selectionStart ?? value.length;
    const next = insertSuggestion(value, caret, choice);
    onChange(next.text);
    setMenu(null);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(next.caret, next.caret);
    });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (e.key === ' ' && e.ctrlKey) {
      e.preventDefault();
      follow(value, e.currentTarget.selectionStart ?? value.length, true);
      return;
    }
    if (!menu) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setMenu({ ...menu, active: (menu.active + step + menu.items.length) % menu.items.length });
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      accept(menu.items[menu.active]!);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setMenu(null);
    }
  };
  const hasError = !!serverError || problems.some((p) => p.severity === 'error');
  const combobox = suggestions
    ? {
        role: 'combobox',
        'aria-autocomplete': 'list' as const,
        'aria-expanded': !!menu,
        'aria-controls': listId,
        ...(menu ? { 'aria-activedescendant': `${listId}-${menu.active}` } : {}),
      }
    : {};
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
    onKeyDown,
    onBlur: () => setMenu(null),
    onChange: (e: { target: { value: string; selectionStart: number | null } }) => {
      onChange(e.target.value);
      follow(e.target.value, e.target.selectionStart ?? e.target.value.length);
    },
    ...combobox,
  };
  return (
    <div className={`template-field${multiline ? ' is-multiline' : ''}${hasError ? ' has-error' : ''}`}>
      <div className="template-stack">
        <div ref={backdrop} className="template-backdrop" aria-hidden="true">
          <Highlighted text={value} ctx={ctx} syntax={syntax} rules={rules} />
        </div>
        {multiline ? (
          <textarea {...common} ref={field} rows={rows} className="template-input" />
        ) : (
          <input {...common} ref={field} type="text" className="template-input" />
        )}
        {suggestions && (
          <ul
            id={listId}
            role="listbox"
            aria-label={`Placeholders for ${label}`}
            className="template-suggest"
            hidden={!menu}
            data-testid={testId ? `${testId}-suggestions` : undefined}
          >
            {menu?.items.map((item, i) => (
              <li
                key={item}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === menu.active}
                className={i === menu.active ? 'is-active' : undefined}
                onMouseDown={(e) => {
                  e.preventDefault();
                  accept(item);
                }}
              >
                <code>{`\${${item}}`}</code>
              </li>
            ))}
          </ul>
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
