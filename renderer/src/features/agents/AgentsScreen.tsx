/**
 * Connect an agent: copy-ready MCP configuration for this install (Claude Desktop, Cursor, VS
 * Code and a plain stdio command, with absolute paths and this data folder), the HTTP endpoint
 * of the browser host, the agents connected right now, and which bundles agents can see.
 */
import { useState } from 'react';
import { useAgentConnections, useBundles, useConfig, useSystemInfo } from '../../api/queries.js';
import { token, transportKind } from '../../api/session.js';
import { useCopy } from '../../lib/useCopy.js';
import { ErrorState, Loading, Badge, Empty } from '../../components/States.js';
import { relativeTime, absoluteTime } from '../../lib/format.js';
import type { McpLaunch } from '../../../../shared/types.js';
import { mcpClientConfig, type McpClient } from '../../../../shared/agents/mcp-config.js';
import './AgentsScreen.css';

type Client = McpClient;

const CLIENTS: { id: Client; label: string; where: string }[] = [
  { id: 'claude', label: 'Claude Desktop', where: 'Settings → Developer → Edit Config (claude_desktop_config.json)' },
  { id: 'cursor', label: 'Cursor', where: '~/.cursor/mcp.json, or .cursor/mcp.json in a project' },
  { id: 'vscode', label: 'VS Code', where: '.vscode/mcp.json in the workspace (or "MCP: Open User Configuration")' },
  { id: 'command', label: 'Any stdio client', where: 'the command and arguments to start' },
  { id: 'http', label: 'Streamable HTTP', where: 'clients that connect to a URL with a bearer token' },
];

function snippet(client: Client, launch: McpLaunch, httpUrl: string | undefined, bearer: string): string {
  return mcpClientConfig(client, { name: 'toolwright', launch, httpUrl, bearer });
}

export function AgentsScreen() {
  const system = useSystemInfo();
  const config = useConfig();
  const bundles = useBundles('exclude');
  const connections = useAgentConnections();
  const copy = useCopy();
  const [client, setClient] = useState<Client>('claude');
  const [reveal, setReveal] = useState(false);
  if (system.isPending) return <Loading label="Loading…" />;
  if (system.isError) return <ErrorState error={system.error} retry={() => void system.refetch()} />;
  const info = system.data;
  const httpUrl = transportKind() === 'rest' ? `${window.location.origin}/mcp` : undefined;
  const bearer = token() ?? '<token>';
  const text = snippet(client, info.mcp, httpUrl, reveal ? bearer : '•'.repeat(12));
  const chosen = CLIENTS.find((c) => c.id === client)!;
  const toolsOff = config.data && !config.data.toolsEnabled;

  return (
    <section className="page agents" aria-labelledby="agents-title">
      <header className="page-header">
        <div className="page-title-row">
          <h1 className="page-title" id="agents-title">
            Connect an agent
          </h1>
        </div>
        <p className="page-sub">
          Agents reach your tools through Toolwright's MCP server. The switches here decide, live, what every connected agent sees and may run; privileged tools
          always ask you first.
        </p>
      </header>

      {toolsOff && (
        <div className="notice notice-danger" role="status">
          The kill switch is on: agents see no tools until you turn tools back on in Settings.
        </div>
      )}

      <div className="panel">
        <div className="panel-head">
          <h2 className="panel-title">Configuration</h2>
        </div>
        <div className="panel-body">
          <div className="segmented" role="tablist" aria-label="Client">
            {CLIENTS.map((c) => (
              <button
                key={c.id}
                type="button"
                role="tab"
                aria-selected={client === c.id}
                className={`segment${client === c.id ? ' is-active' : ''}`}
                onClick={() => setClient(c.id)}
                data-testid={`agent-client-${c.id}`}
              >
                {c.label}
              </button>
            ))}
          </div>
          <p className="field-hint">Paste into {chosen.where}.</p>
          <pre className="code-block" data-testid="agent-config">
            {text}
          </pre>
          <div className="row">
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => void copy(snippet(client, info.mcp, httpUrl, bearer), 'Configuration copied')}
              data-testid="agent-copy"
            >
              Copy
            </button>
            {client === 'http' && httpUrl && (
              <button type="button" className="btn" onClick={() => setReveal((r) => !r)} aria-pressed={reveal}>
                {reveal ? 'Hide token' : 'Show token'}
              </button>
            )}
          </div>
          <p className="field-hint">
            Data folder: <code>{info.dataDir}</code>. From a checkout, <code>npx toolwright mcp</code> starts the same server.
          </p>
        </div>
      </div>

      <div className="panel">
        <div className="panel-head">
          <h2 className="panel-title">Connected now</h2>
        </div>
        <div className="panel-body">
          {connections.isPending ? (
            <Loading label="Loading connections…" />
          ) : !connections.data?.length ? (
            <Empty title="No agent is connected">Agents appear here while their MCP connection is open.</Empty>
          ) : (
            <table className="data-table" data-testid="agent-connections">
              <thead>
                <tr>
                  <th scope="col">Client</th>
                  <th scope="col">Transport</th>
                  <th scope="col">Since</th>
                  <th scope="col">Calls</th>
                  <th scope="col">Last call</th>
                </tr>
              </thead>
              <tbody>
                {connections.data.map((c) => (
                  <tr key={c.connectionID}>
                    <td>{c.client}</td>
                    <td>{c.transport}</td>
                    <td title={absoluteTime(c.since)}>{relativeTime(c.since)}</td>
                    <td>{c.calls}</td>
                    <td>{c.lastCallAt ? relativeTime(c.lastCallAt) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </div>

      <div className="panel">
        <div className="panel-head">
          <h2 className="panel-title">What agents can see</h2>
        </div>
        <div className="panel-body">
          <ul className="plain-list" data-testid="agent-bundles">
            {(bundles.data ?? []).map((b) => {
              const visible = b.isEnabled && !toolsOff;
              return (
                <li key={b.bundleID}>
                  <Badge tone={visible ? 'ok' : 'neutral'}>{visible ? 'visible' : 'hidden'}</Badge> {b.displayName || b.slug}{' '}
                  <span className="muted">
                    ({b.slug}, {b.toolCount} tool{b.toolCount === 1 ? '' : 's'})
                  </span>
                </li>
              );
            })}
          </ul>
          <p className="field-hint">
            A bundle's switched-off tools stay hidden; scope a connection with <code>--bundles slug,slug</code> (or <code>/mcp?bundles=</code>).
          </p>
        </div>
      </div>
    </section>
  );
}
