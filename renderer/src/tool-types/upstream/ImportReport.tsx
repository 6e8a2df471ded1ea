/**
 * What an MCP configuration import did with each server: the bundle made for it, the secrets
 * moved into the secrets store, the ones the person still has to set, the first sync, or why
 * the server was not imported.
 */
import type { ImportReport, McpServerImportItem } from '../../../../shared/types.js';
import './ImportReport.css';

/** The report's servers, when the import was of MCP servers (nothing otherwise). */
export function UpstreamImportSection({ report }: { report: ImportReport }) {
  return report.mcpServers && report.mcpServers.length > 0 ? <UpstreamImportReport items={report.mcpServers} /> : null;
}

export function UpstreamImportReport({ items }: { items: McpServerImportItem[] }) {
  return (
    <section className="mcp-servers-report" data-testid="report-mcp-servers">
      <h3>MCP servers</h3>
      <ul>
        {items.map((s, i) =>
          s.status === 'skipped' ? (
            <li key={`${i}-${s.name}`} className="mcp-server skipped">
              <span className="mono">{s.name}</span> <span className="muted">— not imported: {s.reason}</span>
            </li>
          ) : (
            <li key={`${i}-${s.name}`} className="mcp-server">
              <span className="mono">{s.slug}</span> <span className="muted">({s.transport})</span>
              {s.secretsStored && s.secretsStored.length > 0 && (
                <div className="muted">
                  Secrets stored: <code>{s.secretsStored.join(', ')}</code>
                </div>
              )}
              {s.secretsNeeded && s.secretsNeeded.length > 0 && (
                <div className="field-warning">
                  Set in Settings → Secrets: {s.secretsNeeded.map((n) => (n.description ? `${n.name} (${n.description})` : n.name)).join(', ')}
                </div>
              )}
              {s.sync?.status === 'synced' && <div className="muted">Synced: {s.sync.tools?.length ?? 0} tools, switched off until you enable them</div>}
              {s.sync && s.sync.status !== 'synced' && <div className="field-warning">Not synced: {s.sync.error}</div>}
            </li>
          ),
        )}
      </ul>
    </section>
  );
}
