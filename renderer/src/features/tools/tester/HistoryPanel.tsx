/**
 * Recent invocations of a tool, newest first; each can be expanded (arguments, result or error,
 * who asked), loaded into the form, run again, or compared with another run, line by line.
 */
import { useState } from 'react';
import { useHistory, toolRefOf } from '../../../api/queries.js';
import { lineDiff } from '../../../lib/lineDiff.js';
import { valueText } from '../../../../../shared/format.js';
import { Badge } from '../../../components/States.js';
import { absoluteTime, duration, relativeTime } from '../../../lib/format.js';
import { errorMessage } from '../../../api/errors.js';
import type { HistoryEntry, ToolView } from '../../../../../shared/types.js';
import { PipelineTimeline } from './PipelineTimeline.js';
import './HistoryPanel.css';

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
  const [picked, setPicked] = useState<string[]>([]);
  const pick = (id: string, on: boolean) => setPicked((p) => (on ? [...p.filter((x) => x !== id), id].slice(-2) : p.filter((x) => x !== id)));
  const compared = picked.map((id) => items.find((e) => e.invocationID === id)).filter((e): e is HistoryEntry => !!e);
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
              <label className="check history-pick" title="Pick two runs to compare">
                <input
                  type="checkbox"
                  checked={picked.includes(e.invocationID)}
                  onChange={(ev) => pick(e.invocationID, ev.target.checked)}
                  aria-label={`Compare the run ${relativeTime(e.startedAt)}`}
                  data-testid="history-pick"
                />
              </label>
              <span className="history-actions">
                <button type="button" className="btn btn-small" onClick={() => onLoad(e)} aria-label={`Load arguments of the run ${relativeTime(e.startedAt)}`}>
                  Load
                </button>
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => onRerun(e)}
                  disabled={busy}
                  aria-label={`Re-run with the arguments of ${relativeTime(e.startedAt)}`}
                  data-testid="history-rerun"
                >
                  Re-run
                </button>
              </span>
              <details className="history-details" data-testid="history-details">
                <summary>Details</summary>
                <dl className="facts">
                  {e.caller && (
                    <>
                      <dt>Asked by</dt>
                      <dd>{e.caller}</dd>
                    </>
                  )}
                  <dt>Arguments</dt>
                  <dd>
                    <pre className="code-block">{pretty(e.args)}</pre>
                  </dd>
                  <dt>{e.error ? 'Error' : 'Result'}</dt>
                  <dd>
                    <pre className="code-block">{e.error ? `${e.error.code}: ${e.error.message}` : pretty(e.result)}</pre>
                  </dd>
                  {!!e.steps?.length && (
                    <>
                      <dt>Steps</dt>
                      <dd>
                        <PipelineTimeline steps={e.steps} testId="history-timeline" />
                      </dd>
                    </>
                  )}
                </dl>
              </details>
            </li>
          ))}
        </ol>
        {compared.length === 2 && <Compare a={compared[1]!} b={compared[0]!} />}
      </div>
    </section>
  );
}

function pretty(v: unknown): string {
  return v === undefined ? '—' : valueText(v);
}

/** Two runs side by side: arguments and result (or error), the older first, differing lines marked. */
function Compare({ a, b }: { a: HistoryEntry; b: HistoryEntry }) {
  const text = (e: HistoryEntry) => `${pretty({ args: e.args })}\n${e.error ? `error ${e.error.code}: ${e.error.message}` : pretty({ result: e.result })}`;
  const [older, newer] = a.startedAt <= b.startedAt ? [a, b] : [b, a];
  const lines = lineDiff(text(older), text(newer));
  const changed = lines.filter((l) => l.kind !== 'same').length;
  return (
    <div className="history-compare" data-testid="history-compare">
      <h3 className="report-heading">
        Compare {relativeTime(older.startedAt)} with {relativeTime(newer.startedAt)} ·{' '}
        {changed ? `${changed} line${changed === 1 ? '' : 's'} differ` : 'identical'}
      </h3>
      <pre className="code-block diff">
        {lines.map((l, i) => (
          <div key={i} className={`diff-${l.kind}`}>
            {l.kind === 'removed' ? '− ' : l.kind === 'added' ? '+ ' : '  '}
            {l.text}
          </div>
        ))}
      </pre>
    </div>
  );
}
