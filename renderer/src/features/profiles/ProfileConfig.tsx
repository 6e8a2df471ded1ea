/** What a client needs to reach one profile: Streamable HTTP with its address and a token, or this install's stdio server with --profile. */
import { useSystemInfo } from '../../api/queries.js';
import { transportKind } from '../../api/session.js';
import { useCopy } from '../../lib/useCopy.js';
import { mcpClientConfig, profileHttpUrl, profileLaunch } from '../../../../shared/agents/mcp-config.js';
import { ErrorState, Loading } from '../../components/States.js';
import './Profiles.css';

/** Where this host serves MCP over HTTP: the page's own origin in the browser, the app's Agent access listener on the desktop. */
function httpOrigin(agentAccessUrl: string | undefined): string | undefined {
  if (transportKind() === 'rest') return window.location.origin;
  if (!agentAccessUrl) return undefined;
  try {
    return new URL(agentAccessUrl).origin;
  } catch {
    return undefined;
  }
}

export function ProfileConfig({ slug, token }: { slug: string; token?: string }) {
  const system = useSystemInfo();
  const copy = useCopy();
  if (system.isPending) return <Loading label="Loading…" />;
  if (system.isError) return <ErrorState error={system.error} retry={() => void system.refetch()} />;
  const origin = httpOrigin(system.data.agentAccess?.enabled ? system.data.agentAccess.url : undefined);
  const http = mcpClientConfig('http', { name: slug, launch: system.data.mcp, httpUrl: origin && profileHttpUrl(origin, slug), bearer: token ?? '<token>' });
  const stdio = mcpClientConfig('claude', { name: slug, launch: profileLaunch(system.data.mcp, slug) });
  return (
    <div className="panel" data-testid="profile-config">
      <div className="panel-head">
        <h2 className="panel-title">Client configuration</h2>
      </div>
      <div className="panel-body">
        <h3 className="field-label">Streamable HTTP</h3>
        <p className="field-hint">
          {token ? 'With the token just created; it is not shown again once you leave this page.' : 'Create a token above and put it in place of <token>.'}
        </p>
        <pre className="code-block" data-testid="profile-config-http">
          {http}
        </pre>
        <div className="row profile-config-actions">
          <button type="button" className="btn" onClick={() => void copy(http, 'HTTP configuration copied')} disabled={!origin} data-testid="profile-copy-http">
            Copy
          </button>
        </div>
        <h3 className="field-label">Stdio (Claude Desktop, Cursor and other clients that start a command)</h3>
        <pre className="code-block" data-testid="profile-config-stdio">
          {stdio}
        </pre>
        <div className="row profile-config-actions">
          <button type="button" className="btn" onClick={() => void copy(stdio, 'Stdio configuration copied')} data-testid="profile-copy-stdio">
            Copy
          </button>
        </div>
      </div>
    </div>
  );
}
