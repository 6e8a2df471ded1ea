/**
 * The MCP client configuration Toolwright hands out, one way for every place that shows it
 * (Connect an agent, a profile's page, `toolwright doctor`): the server entry a client needs, under the name given.
 */
import type { McpLaunch } from '../types.js';

export type McpClient = 'claude' | 'cursor' | 'vscode' | 'command' | 'http';

export interface McpServerEntry {
  /** The key the server is filed under in the client's configuration. */
  name: string;
  /** How to start this install's stdio server. */
  launch: McpLaunch;
  /** The Streamable HTTP address, when a host serves one. */
  httpUrl?: string;
  bearer?: string;
}

/** This install's stdio server, answering as one profile. */
export function profileLaunch(launch: McpLaunch, slug: string): McpLaunch {
  return { command: launch.command, args: [...launch.args, '--profile', slug] };
}

/** A profile's Streamable HTTP address on a host reached at this origin. */
export function profileHttpUrl(origin: string, slug: string): string {
  return `${origin.replace(/\/+$/, '')}/mcp/p/${slug}`;
}

/** The text to paste into a client's configuration (or to run, for `command`). */
export function mcpClientConfig(client: McpClient, entry: McpServerEntry): string {
  const stdio = { command: entry.launch.command, args: entry.launch.args };
  switch (client) {
    case 'claude':
    case 'cursor':
      return JSON.stringify({ mcpServers: { [entry.name]: stdio } }, null, 2);
    case 'vscode':
      return JSON.stringify({ servers: { [entry.name]: { type: 'stdio', ...stdio } } }, null, 2);
    case 'command':
      return [entry.launch.command, ...entry.launch.args].map((a) => (/[\s"'\\]/.test(a) ? JSON.stringify(a) : a)).join(' ');
    case 'http':
      return entry.httpUrl
        ? JSON.stringify(
            { mcpServers: { [entry.name]: { type: 'http', url: entry.httpUrl, headers: { Authorization: `Bearer ${entry.bearer ?? '<token>'}` } } } },
            null,
            2,
          )
        : 'The desktop app serves MCP over stdio; run `npm run serve` (or `toolwright serve`) for the HTTP endpoint at /mcp.';
  }
}
