/** What a server said when the connection was tested: who it is, which protocol, and its tools. */
import { Badge } from '../../components/States.js';
import { SAFETY_LABEL, SAFETY_TONE, plural } from '../../lib/format.js';
import type { ServerProbe } from '../../../../shared/upstream.js';
import './AddUpstream.css';

export function ProbeResult({ probe }: { probe: ServerProbe }) {
  if (probe.needsAuthorization) {
    return (
      <p className="notice notice-info" role="status" data-testid="probe-needs-authorization">
        This server needs you to sign in (OAuth) before it lists its tools. Add it, then choose <strong>Sign in</strong> on its panel.
      </p>
    );
  }
  return (
    <section className="probe-result" aria-label="What the server offers" data-testid="probe-result">
      <p className="probe-server" role="status">
        <span className="avail avail-ok">connected</span> <strong>{probe.server?.title || probe.server?.name || 'An unnamed server'}</strong>
        {probe.server?.version && <span className="mono muted"> {probe.server.version}</span>}
        {probe.protocolVersion && <span className="muted"> · protocol {probe.protocolVersion}</span>}
        <span className="muted"> · {plural(probe.tools.length, 'tool')}</span>
      </p>
      {probe.instructions && <p className="muted probe-instructions">{probe.instructions}</p>}
      {probe.tools.length === 0 ? (
        <p className="muted">The server offers no tools.</p>
      ) : (
        <ul className="probe-tools">
          {probe.tools.map((t) => (
            <li key={t.name} data-testid={`probe-tool-${t.name}`}>
              <div className="probe-tool-head">
                <span className="mono">{t.name}</span>
                {t.title && t.title !== t.name && <span>{t.title}</span>}
                <Badge tone={SAFETY_TONE[t.safety]}>{SAFETY_LABEL[t.safety]}</Badge>
              </div>
              {t.description && <p className="muted probe-tool-desc">{t.description}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
