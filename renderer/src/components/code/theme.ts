/** The editors' look, one for every CodeMirror view (JSON schemas, arguments, build files): the app's colours through CSS variables, so light and dark follow. */
import { EditorView } from '@codemirror/view';

export const editorTheme = EditorView.theme({
  '&': { fontSize: '13px', backgroundColor: 'var(--input-bg)', color: 'var(--fg)' },
  '.cm-content': { fontFamily: 'var(--mono)', caretColor: 'var(--fg)' },
  '.cm-gutters': { backgroundColor: 'var(--surface-2)', color: 'var(--fg-muted)', border: 'none' },
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--active-line)' },
  '&.cm-focused': { outline: 'none' },
  '.cm-tooltip': { backgroundColor: 'var(--surface)', color: 'var(--fg)', border: '1px solid var(--border)' },
});
