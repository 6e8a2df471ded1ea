/** Recent invocations of a tool, newest first; each can be loaded into the form or run again. */
import { useHistory, toolRefOf } from '../api/queries.js';
import { Badge } from '../components/States.js';
import { absoluteTime, duration, relativeTime } from '../app/format.js';
import { errorMessage } from '../api/client.js';
import type { HistoryEntry, ToolView } from '../../../shared/types.js';

export function HistoryPanel({
  tool,
  onLoad,
  onRerun,
  busy,
}: {
  tool: ToolView;
  onLoad(e: HistoryEntry): void;
  onRerun(e: HistoryEntry): void;
  busy: boolean;
}) {
  const history = useHistory(toolRefOf(tool));
  const items = history.data?.items ?? [];
  return (
    <section className="panel history" aria-labelledby="history-title" data-testid="history-panel">
      <div className="panel-head">
        <h2 id="history-title" className="panel-title">
          Recent runs
        </h2>
      </div>
      <div className="panel-body">
        {history.isPending && <p className="muted">Loading…</p>}
        {history.isError && <p className="field-error">{errorMessage(history.error)}</p>}
        {history.isSuccess && items.length === 0 && <p className="muted">No runs yet.</p>}
        <ol className="history-list">
          {items.map((e) => (
            <li key={e.invocationID} className="history-item">
              <Badge tone={e.status === 'ok' ? 'ok' : e.status === 'cancelled' ? 'neutral' : 'danger'}>{e.status}</Badge>
              <span className="history-when" title={absoluteTime(e.startedAt)}>
                {relativeTime(e.startedAt)}
              </span>
              <span className="muted">{duration(e.durationMs)}</span>
              <code className="history-args" title={JSON.stringify(e.args)}>
                {JSON.stringify(e.args)}
              </code>
              <span className="history-actions">
                <button type="button" className="btn btn-small" onClick={() => onLoad(e)} aria-label={`Load arguments of the run ${relativeTime(e.startedAt)}`}>
                  Load
                </button>
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => onRerun(e)}
                  disabled={busy}
                  aria-label={`Run again with the arguments of ${relativeTime(e.startedAt)}`}
                  data-testid="history-rerun"
                >
                  Re-run
                </button>
              </span>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
