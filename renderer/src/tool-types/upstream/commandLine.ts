/**
 * What a person pastes into "Add an MCP server": a command line (as in a README or a
 * claude_desktop_config.json, quoted as a POSIX shell quotes) or a Streamable HTTP URL, read into
 * the source the core stores (shared/upstream.ts). Secret values are recognised by their names so
 * the dialog can offer to keep them in the secrets store and put a `${NAME}` placeholder instead.
 */
import type { BundleSource } from '../../../../shared/upstream.js';

export type ParsedServerLine =
  | { ok: true; transport: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { ok: true; transport: 'http'; url: string }
  | { ok: false; error: string };

export interface NameValueRow {
  name: string;
  value: string;
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;

/** Splits a command line into words: '…' literal, "…" with \" \\ \$ \` escapes, \x outside quotes. */
function words(line: string): string[] | { error: string } {
  const out: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { error: "A single quote (') is not closed; close it or remove it." };
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1]!)) j++;
        word += line[j];
      }
      if (j >= line.length) return { error: 'A double quote (") is not closed; close it or remove it.' };
      inWord = true;
      i = j;
    } else if (c === '\\') {
      // A backslash before a line break continues the line (as commands in READMEs are written).
      if (line[i + 1] === '\n') i++;
      else if (i + 1 < line.length) {
        word += line[++i];
        inWord = true;
      }
    } else if (/\s/.test(c)) {
      if (inWord) out.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) out.push(word);
  return out;
}

export function parseServerLine(text: string): ParsedServerLine {
  const line = text.trim();
  if (!line) return { ok: false, error: 'Paste a command line (npx -y @modelcontextprotocol/server-memory) or the URL of a Streamable HTTP server.' };
  if (/^https?:\/\//i.test(line)) {
    try {
      if (/\s/.test(line)) throw new Error('a URL has no spaces');
      new URL(line);
      return { ok: true, transport: 'http', url: line };
    } catch {
      return { ok: false, error: `'${line}' is not a valid URL; an MCP server's address looks like https://example.com/mcp.` };
    }
  }
  const split = words(line);
  if (!Array.isArray(split)) return { ok: false, error: split.error };
  const env: Record<string, string> = {};
  let i = 0;
  for (; i < split.length; i++) {
    const m = ASSIGNMENT.exec(split[i]!);
    if (!m) break;
    env[m[1]!] = m[2]!;
  }
  const [command, ...args] = split.slice(i);
  if (!command) return { ok: false, error: 'The line sets environment variables but names no command to start; add the command after them.' };
  return { ok: true, transport: 'stdio', command, args, env };
}

/** Names whose values are secrets (docs/contracts.md, "Upstream MCP servers": *_TOKEN, *_KEY, *SECRET*, Authorization). */
export function looksSecret(name: string): boolean {
  return /(_|^)(TOKEN|KEY|PASSWORD|PASS|PAT)$|SECRET|^authorization$|api[-_]?key/i.test(name);
}

/** The secret a value is a placeholder for (`${NAME}` and nothing else), if it is one. */
export function placeholderOf(value: string): string | undefined {
  return /^\$\{([A-Z][A-Z0-9_]*)\}$/.exec(value.trim())?.[1];
}

/** A secrets-store name for a value of this server: MEMORY_GITHUB_TOKEN. */
export function secretNameFor(serverSlug: string, name: string): string {
  const clean = (s: string) =>
    s
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '');
  const base = [clean(serverSlug), clean(name)].filter(Boolean).join('_');
  return /^[A-Z]/.test(base) ? base.slice(0, 128) : `S_${base}`.slice(0, 128);
}

/** The source to probe and store, from the parsed line and the env (stdio) or header (http) rows. */
export function sourceOf(parsed: ParsedServerLine, rows: NameValueRow[]): BundleSource | undefined {
  if (!parsed.ok) return undefined;
  const named = Object.fromEntries(rows.filter((r) => r.name.trim()).map((r) => [r.name.trim(), r.value]));
  if (parsed.transport === 'http') {
    return { kind: 'mcp', transport: 'http', url: parsed.url, ...(Object.keys(named).length ? { headers: named } : {}) };
  }
  return {
    kind: 'mcp',
    transport: 'stdio',
    command: parsed.command,
    args: parsed.args,
    ...(Object.keys(named).length ? { env: named } : {}),
  };
}

/** A slug for the bundle from what the server is: @modelcontextprotocol/server-memory → server-memory. */
export function suggestedSlug(parsed: ParsedServerLine, serverName?: string): string {
  const fromName = serverName?.trim();
  let base = fromName ?? '';
  if (!base && parsed.ok && parsed.transport === 'http') base = new URL(parsed.url).hostname.split('.')[0] ?? '';
  if (!base && parsed.ok && parsed.transport === 'stdio') {
    const pkg = parsed.args.find((a) => !a.startsWith('-')) ?? parsed.command;
    base = pkg
      .split('/')
      .pop()!
      .replace(/(.)@[^@]*$/, '$1')
      .replace(/\.(m?js|cjs|py|ts)$/, '');
  }
  return (
    base
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}-]+/gu, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 64) || 'mcp-server'
  );
}
