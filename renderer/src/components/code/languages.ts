/**
 * Syntax modes for build files, by file name. Each is loaded when a file needs it (a dynamic
 * import, so a mode is its own small chunk): CodeMirror's legacy stream modes for Dockerfile,
 * shell, Python, JavaScript/TypeScript, YAML and TOML (one maintained package, a few KB each),
 * and the Lezer JSON grammar the schema editors already use. Anything else is plain text.
 */
import type { Extension } from '@codemirror/state';

export type LanguageName = 'dockerfile' | 'shell' | 'python' | 'javascript' | 'typescript' | 'json' | 'yaml' | 'toml' | 'text';

export function languageOf(path: string, firstLine = ''): LanguageName {
  const name = path.split('/').pop()!.toLowerCase();
  if (name === 'dockerfile' || name.startsWith('dockerfile.') || name.endsWith('.dockerfile') || name === 'containerfile') return 'dockerfile';
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '';
  switch (ext) {
    case 'sh':
    case 'bash':
    case 'zsh':
    case 'ash':
      return 'shell';
    case 'py':
      return 'python';
    case 'js':
    case 'mjs':
    case 'cjs':
      return 'javascript';
    case 'ts':
    case 'mts':
      return 'typescript';
    case 'json':
      return 'json';
    case 'yml':
    case 'yaml':
      return 'yaml';
    case 'toml':
      return 'toml';
  }
  if (/^#!.*\b(ba|a|z)?sh\b/.test(firstLine)) return 'shell';
  if (/^#!.*\bpython/.test(firstLine)) return 'python';
  if (/^#!.*\bnode\b/.test(firstLine)) return 'javascript';
  return 'text';
}

export const LANGUAGE_LABEL: Record<LanguageName, string> = {
  dockerfile: 'Dockerfile',
  shell: 'Shell',
  python: 'Python',
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  json: 'JSON',
  yaml: 'YAML',
  toml: 'TOML',
  text: 'Plain text',
};

/** The CodeMirror extension of a language, loaded on first use. */
export async function loadLanguage(name: LanguageName): Promise<Extension> {
  if (name === 'text') return [];
  if (name === 'json') return (await import('@codemirror/lang-json')).json();
  const { StreamLanguage } = await import('@codemirror/language');
  switch (name) {
    case 'dockerfile':
      return StreamLanguage.define((await import('@codemirror/legacy-modes/mode/dockerfile')).dockerFile);
    case 'shell':
      return StreamLanguage.define((await import('@codemirror/legacy-modes/mode/shell')).shell);
    case 'python':
      return StreamLanguage.define((await import('@codemirror/legacy-modes/mode/python')).python);
    case 'javascript':
      return StreamLanguage.define((await import('@codemirror/legacy-modes/mode/javascript')).javascript);
    case 'typescript':
      return StreamLanguage.define((await import('@codemirror/legacy-modes/mode/javascript')).typescript);
    case 'yaml':
      return StreamLanguage.define((await import('@codemirror/legacy-modes/mode/yaml')).yaml);
    case 'toml':
      return StreamLanguage.define((await import('@codemirror/legacy-modes/mode/toml')).toml);
  }
}
