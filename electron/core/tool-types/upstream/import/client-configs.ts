/**
 * The MCP configurations of the clients people already use: Claude Desktop's
 * `claude_desktop_config.json` and Cursor's / Windsurf's `mcp.json` (`mcpServers`), and VS Code's
 * `mcp.json` (`servers`, with `inputs` the editor prompts for; a `password` input is a secret the
 * person sets here, since the file never holds its value).
 */
import type { BundleSource } from '../../../../../shared/upstream.js';
import { eachServer, httpSource, ServerRefused, stdioSource, stringList, stringMap, type ReadServers, type SecretNames, type SlugAllocator } from './drafts.js';
import { isPlainObject } from '../../../../../shared/plain-object.js';

const SSE_REFUSED =
  'uses the SSE transport, which MCP replaced by Streamable HTTP; give the server its Streamable HTTP URL (often the same address ending in /mcp) with type "http"';

function sourceOf(entry: Record<string, unknown>, names: SecretNames, vars?: (name: string) => string | undefined): BundleSource {
  const type = typeof entry['type'] === 'string' ? entry['type'].toLowerCase() : undefined;
  if (type === 'sse') throw new ServerRefused(SSE_REFUSED);
  if (type !== undefined && !['stdio', 'http', 'streamable-http', 'streamablehttp'].includes(type)) {
    throw new ServerRefused(`has the transport type '${String(entry['type'])}'; Toolwright starts "stdio" servers and reaches "http" (Streamable HTTP) ones`);
  }
  if (typeof entry['command'] === 'string' && type !== 'http' && type !== 'streamable-http' && type !== 'streamablehttp') {
    if (!entry['command'].trim()) throw new ServerRefused('its command is empty');
    const cwd = typeof entry['cwd'] === 'string' && entry['cwd'] ? entry['cwd'] : undefined;
    return stdioSource(entry['command'], stringList(entry['args'], 'args'), stringMap(entry['env'], 'env'), names, vars, cwd);
  }
  const url = entry['url'] ?? entry['serverUrl'];
  if (typeof url === 'string') {
    if (!/^https?:\/\//i.test(url)) throw new ServerRefused(`its url '${url.slice(0, 200)}' is not an http(s) address`);
    return httpSource(url, stringMap(entry['headers'], 'headers'), names, vars);
  }
  throw new ServerRefused('has neither a "command" (a server this machine starts) nor a "url" (a remote server)');
}

function entriesOf(servers: unknown, field: string): [string, unknown][] {
  if (!isPlainObject(servers)) throw new ServerRefused(`"${field}" must be an object of server names to servers`);
  return Object.entries(servers);
}

/** `{mcpServers: {name: {command, args, env} | {url, headers} | {type, url}}}` (Claude Desktop, Cursor, Windsurf). */
export function readMcpServers(doc: Record<string, unknown>, allocate: SlugAllocator): ReadServers {
  const read = eachServer(entriesOf(doc['mcpServers'], 'mcpServers'), allocate, (name, entry, names) => {
    if (!isPlainObject(entry)) throw new ServerRefused('is not an object with a command or a url');
    const warnings = entry['disabled'] === true ? ['the file marks it disabled; it was imported switched on'] : [];
    return { displayName: name, description: '', source: sourceOf(entry, names), warnings };
  });
  return { format: 'mcpServers', ...read };
}

interface VsCodeInput {
  id: string;
  password: boolean;
  description?: string;
  default?: string;
}

function inputsOf(raw: unknown): Map<string, VsCodeInput> {
  const inputs = new Map<string, VsCodeInput>();
  if (!Array.isArray(raw)) return inputs;
  for (const i of raw) {
    if (!isPlainObject(i) || typeof i['id'] !== 'string') continue;
    inputs.set(i['id'], {
      id: i['id'],
      password: i['password'] === true,
      ...(typeof i['description'] === 'string' ? { description: i['description'] } : {}),
      ...(typeof i['default'] === 'string' ? { default: i['default'] } : {}),
    });
  }
  return inputs;
}

/** VS Code: `{servers: {name: {type, command, args, env, cwd} | {type:"http", url, headers}}, inputs: [...]}` (or settings.json's `mcp`). */
export function readVsCode(doc: Record<string, unknown>, allocate: SlugAllocator): ReadServers {
  const root = isPlainObject(doc['mcp']) && !doc['servers'] ? doc['mcp'] : doc;
  const inputs = inputsOf(root['inputs']);
  const read = eachServer(entriesOf(root['servers'], 'servers'), allocate, (name, entry, names) => {
    if (!isPlainObject(entry)) throw new ServerRefused('is not an object with a command or a url');
    const warnings: string[] = [];
    if (entry['envFile'] !== undefined) warnings.push('its envFile was not read; set those variables on the bundle');
    // ${input:id}: a password input is a secret the person sets; another one's default is its value.
    const vars = (inner: string): string | undefined => {
      const id = /^input:(.+)$/.exec(inner)?.[1];
      if (id === undefined) return undefined;
      const input = inputs.get(id);
      if (!input) throw new ServerRefused(`refers to \${input:${id}}, which the file's "inputs" do not define`);
      if (!input.password && input.default !== undefined) return input.default;
      return names.needed(id, input.description);
    };
    return { displayName: name, description: '', source: sourceOf(entry, names, vars), warnings };
  });
  return { format: 'vscode', ...read };
}
