/**
 * "Accept findings": a person's acceptance of the definition guard's errors on a tool, shown with
 * the findings in the tool's view (tools.guard, tools.acceptGuard). The confirmation names the
 * tool and the classes accepted; the acceptance carries the digest of the definition the view
 * showed, so one changed meanwhile is refused, and any later change is checked again.
 */
import { useToolGuard, toolRefOf } from '../../api/queries.js';
import { useAcceptGuard } from '../../api/mutations.js';
import { useConfirm } from '../../components/Dialog.js';
import { Badge } from '../../components/States.js';
import { absoluteTime, plural, relativeTime } from '../../lib/format.js';
import type { ToolView } from '../../../../shared/types.js';
import './AcceptFindings.css';

export function AcceptFindings({ tool }: { tool: ToolView }) {
  const review = useToolGuard(toolRefOf(tool));
  const accept = useAcceptGuard();
  const confirm = useConfirm();
  const r = review.data;
  if (!r || !r.classes.length) return null;
  const name = tool.displayName || tool.slug;
  const classes = r.classes.join(', ');
  const errors = r.findings.filter((f) => f.severity === 'error').length;

  if (r.accepted?.current) {
    return (
      <p className="guard-accepted" data-testid="guard-accepted">
        <Badge tone="ok">accepted</Badge> {r.accepted.by ? `by ${r.accepted.by} ` : ''}
        <span title={absoluteTime(r.accepted.acceptedAt)}>{relativeTime(r.accepted.acceptedAt)}</span>: {classes}. A change of its definition is checked again.
      </p>
    );
  }

  const ask = async () => {
    const ok = await confirm({
      title: `Accept the guard's findings on ${name}?`,
      message: (
        <div className="guard-accept-confirm" data-testid="guard-accept-confirm">
          <p>
            You accept {plural(errors, 'error')} of the definition guard — <strong>{classes}</strong> — in what agents read of <strong>{name}</strong>{' '}
            <span className="mono">
              ({tool.slug}@{tool.version})
            </span>
            , as its definition is now.
          </p>
          {r.withheld ? <p>Its bundle withholds such tools: once accepted, agents are offered it again.</p> : null}
          <p className="muted">Any later change of its definition is checked again. The audit log records who accepted.</p>
        </div>
      ),
      confirmLabel: 'Accept findings',
      danger: true,
    });
    if (ok) accept.mutate({ tool, digest: r.digest });
  };

  return (
    <div className="guard-accept" data-testid="guard-accept-bar">
      <p>
        {r.withheld
          ? 'Withheld from agents until a person accepts these findings.'
          : 'Agents are offered it (its bundle only warns); accepting records that a person reviewed these findings.'}
        {r.accepted ? ' An earlier acceptance was of another definition and no longer holds.' : ''}
      </p>
      <button type="button" className="btn btn-danger btn-small" onClick={() => void ask()} disabled={accept.isPending} data-testid="guard-accept">
        {accept.isPending ? 'Accepting…' : 'Accept findings…'}
      </button>
    </div>
  );
}
