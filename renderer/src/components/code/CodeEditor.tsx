/**
 * A text editor for one build file (Dockerfile, runner, data) on CodeMirror 6, with the file's
 * syntax mode loaded when it is opened. Mod-S saves the file (and only the file: the event is
 * marked handled so the tool form's own Ctrl+S leaves it alone). Tab stays with the editor's
 * default (focus moves on), so a keyboard user is never trapped; Escape then Tab leaves it too.
 */
import { useEffect, useRef } from 'react';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { classHighlighter } from '@lezer/highlight';
import { editorTheme } from './theme.js';
import { loadLanguage, type LanguageName } from './languages.js';
import './tokens.css';
import './CodeEditor.css';

interface CodeEditorProps {
  /** Id of the element that describes the editor (keys, state). */
  describedBy?: string;
  /** Changing the key (the file's path) starts a fresh document and undo history. */
  docKey: string;
  value: string;
  language: LanguageName;
  label: string;
  onChange(text: string): void;
  onSave?(): void;
  readOnly?: boolean;
  testId?: string;
}

export function CodeEditor({ docKey, value, language, label, onChange, onSave, readOnly, testId, describedBy }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const languageSlot = useRef(new Compartment());
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const onSaveRef = useRef(onSave);
  onSaveRef.current = onSave;

  useEffect(() => {
    const state = EditorState.create({
      doc: value,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        history(),
        drawSelection(),
        bracketMatching(),
        indentOnInput(),
        highlightActiveLine(),
        syntaxHighlighting(classHighlighter),
        languageSlot.current.of([]),
        keymap.of([
          {
            key: 'Mod-s',
            preventDefault: true,
            run: () => {
              onSaveRef.current?.();
              return true;
            },
          },
          // Tab indents; Escape then Tab moves focus on (CodeMirror's tab focus mode), said in the hint below the editor.
          indentWithTab,
          ...defaultKeymap,
          ...historyKeymap,
        ]),
        editorTheme,
        EditorState.readOnly.of(!!readOnly),
        EditorView.editable.of(!readOnly),
        EditorView.contentAttributes.of({
          'aria-label': label,
          ...(describedBy ? { 'aria-describedby': describedBy } : {}),
          ...(testId ? { 'data-testid': testId } : {}),
        }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) onChangeRef.current(u.state.doc.toString());
        }),
      ],
    });
    const v = new EditorView({ state, parent: host.current! });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // One view per file (docKey) and mode of editing; value changes from outside are dispatched below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [docKey, readOnly, label, describedBy]);

  useEffect(() => {
    let live = true;
    void loadLanguage(language).then((ext) => {
      if (live) view.current?.dispatch({ effects: languageSlot.current.reconfigure(ext) });
    });
    return () => {
      live = false;
    };
  }, [language, docKey]);

  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  return <div ref={host} className="code-editor-host" />;
}
