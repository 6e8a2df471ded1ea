/**
 * JSON editor on CodeMirror 6. Chosen over Monaco and Ace: it is modular and small (tens of KB
 * for what is used here, not megabytes), accessible (a real contenteditable, Tab left to focus
 * navigation), and CSP-friendly — no eval, no inline scripts, no web workers loaded from blob:
 * URLs; its styles are injected as style sheets, which style-src 'unsafe-inline' permits.
 *
 * Syntax errors come from the JSON parser; `check` adds semantic errors with a JSON path,
 * which are placed on the exact key or value by walking the syntax tree.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, placeholder as cmPlaceholder } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, foldGutter, syntaxHighlighting, syntaxTree, indentOnInput } from '@codemirror/language';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { classHighlighter } from '@lezer/highlight';
import { editorTheme } from './theme.js';
import './tokens.css';
import './JsonEditor.css';

export interface JsonIssue {
  /** Path into the value, e.g. ['properties', 'city', 'type']; [] for the whole document. */
  path: (string | number)[];
  message: string;
  severity?: 'error' | 'warning';
}

interface JsonEditorProps {
  value: string;
  onChange(text: string): void;
  label: string;
  /** Semantic checks on the parsed value (only called when the text parses). */
  check?: (value: unknown) => JsonIssue[];
  readOnly?: boolean;
  minLines?: number;
  placeholder?: string;
  testId?: string;
  /** Extra message from the server for this field. */
  serverError?: string;
}

/** Finds the text range of the value at `path` in a JSON syntax tree; falls back to the document. */
export function rangeOfPath(state: EditorState, path: (string | number)[]): { from: number; to: number } {
  let node = syntaxTree(state).topNode.firstChild;
  let keyRange: { from: number; to: number } | null = null;
  for (const seg of path) {
    if (!node) break;
    if (node.name === 'Object' && typeof seg === 'string') {
      let found = null;
      for (let p = node.firstChild; p; p = p.nextSibling) {
        if (p.name !== 'Property') continue;
        const nameNode = p.getChild('PropertyName');
        if (!nameNode) continue;
        let key: unknown;
        try {
          key = JSON.parse(state.sliceDoc(nameNode.from, nameNode.to));
        } catch {
          continue;
        }
        if (key === seg) {
          found = p;
          keyRange = { from: nameNode.from, to: nameNode.to };
        }
      }
      if (!found) break;
      node = found.lastChild;
    } else if (node.name === 'Array' && typeof seg === 'number') {
      let i = 0;
      let found = null;
      for (let c = node.firstChild; c; c = c.nextSibling) {
        if (c.name === '[' || c.name === ']' || c.name === ',' || c.type.isError) continue;
        if (i++ === seg) {
          found = c;
          break;
        }
      }
      if (!found) break;
      node = found;
      keyRange = null;
    } else break;
  }
  if (keyRange) return keyRange;
  if (node) return { from: node.from, to: Math.min(node.to, node.from + 200) };
  return { from: 0, to: Math.min(state.doc.length, 1) };
}

function semanticLinter(check: (v: unknown) => JsonIssue[]): Extension {
  return linter(
    (view) => {
      const text = view.state.doc.toString();
      if (!text.trim()) return [];
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return [];
      }
      return check(parsed).map<Diagnostic>((issue) => ({
        ...rangeOfPath(view.state, issue.path),
        severity: issue.severity ?? 'error',
        message: issue.message,
      }));
    },
    { delay: 200 },
  );
}

/** Problems in the text as plain strings, for the summary under the editor and for saving. */
export function jsonProblems(text: string, check?: (v: unknown) => JsonIssue[]): string[] {
  if (!text.trim()) return ['must not be empty; write {} for an empty schema'];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return [`not valid JSON: ${(e as Error).message}`];
  }
  return (check?.(parsed) ?? [])
    .filter((i) => (i.severity ?? 'error') === 'error')
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
}

export function JsonEditor({ value, onChange, label, check, readOnly, minLines = 6, placeholder, testId, serverError }: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const checkRef = useRef(check);
  checkRef.current = check;
  const [problems, setProblems] = useState<string[]>(() => jsonProblems(value, check));
  const summaryId = useId();

  useEffect(() => {
    const state = EditorState.create({
      doc: value,
      extensions: [
        lineNumbers(),
        foldGutter(),
        lintGutter(),
        history(),
        bracketMatching(),
        indentOnInput(),
        highlightActiveLine(),
        json(),
        syntaxHighlighting(classHighlighter),
        linter(jsonParseLinter(), { delay: 150 }),
        semanticLinter((v) => checkRef.current?.(v) ?? []),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        EditorView.lineWrapping,
        editorTheme,
        EditorState.readOnly.of(!!readOnly),
        EditorView.editable.of(!readOnly),
        EditorView.contentAttributes.of({
          'aria-label': label,
          'aria-describedby': summaryId,
          // A read-only editor is still read (and scrolled) from the keyboard.
          ...(readOnly ? { tabindex: '0', 'aria-readonly': 'true' } : {}),
          ...(testId ? { 'data-testid': testId } : {}),
        }),
        ...(placeholder ? [cmPlaceholder(placeholder)] : []),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) {
            const text = u.state.doc.toString();
            onChangeRef.current(text);
            setProblems(jsonProblems(text, checkRef.current));
          }
        }),
      ],
    });
    const v = new EditorView({ state, parent: host.current! });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // The editor is created once; value changes from outside are dispatched below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [readOnly]);

  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) {
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
    }
    setProblems(jsonProblems(value, checkRef.current));
  }, [value]);

  const all = serverError ? [...problems, serverError] : problems;
  return (
    <div className={`json-editor${all.length ? ' has-error' : ''}`}>
      <div ref={host} className="json-editor-host" style={{ minHeight: `${minLines * 1.45 + 0.6}em` }} />
      <div id={summaryId} className="field-error" aria-live="polite" data-testid={testId ? `${testId}-errors` : undefined}>
        {all.slice(0, 4).map((p) => (
          <div key={p}>{p}</div>
        ))}
        {all.length > 4 && <div>…and {all.length - 4} more</div>}
      </div>
    </div>
  );
}
