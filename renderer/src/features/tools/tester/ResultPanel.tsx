/** The outcome of a run: its output live while it runs; then status, duration, value tree, other content, HTTP exchange and the card. */
import { JsonTree } from '../../../components/JsonTree.js';
import { CardFrame } from '../../card/CardFrame.js';
import { useCopy } from '../../../lib/useCopy.js';
import { valueText } from '../../../../../shared/format.js';
import { GuardedResult } from './GuardedResult.js';
import { curlOf, secretVariablesOf } from './curl.js';
import { Badge } from '../../../components/States.js';
import { duration, plural } from '../../../lib/format.js';
import { fillCardTitle } from '../../../../../shared/template.js';
import type { ToolView, HttpExchange, PipelineStepRecord, ProgressUpdate } from '../../../../../shared/types.js';
import type { RunOutcome } from './run-outcome.js';
import { LiveOutput, outputBytes } from './LiveOutput.js';
import { RunProgress } from './RunProgress.js';
import { PipelineTimeline, plannedSteps } from './PipelineTimeline.js';
import { ResultContent } from './ResultContent.js';
import './ResultPanel.css';

function Headers({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers);
  if (!entries.length) return <p className="muted">No headers</p>;
  return (
    <table className="kv">
      <tbody>
        {entries.map(([k, v]) => (
          <tr key={k}>
            <th scope="row" className="mono">
              {k}
            </th>
            <td className="mono">{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function Exchange({ http }: { http: HttpExchange }) {
  const status = http.response?.status;
  return (
    <details className="exchange" data-testid="http-exchange">
      <summary>
        HTTP exchange · <span className="mono">{http.request.method}</span>{' '}
        {status !== undefined && <Badge tone={status < 400 ? 'ok' : 'danger'}>{status}</Badge>}
        {http.attempts > 1 && <span className="muted"> · {plural(http.attempts, 'attempt')}</span>}
      </summary>
      <div className="exchange-body">
        <h4>Request</h4>
        <p className="mono break">
          {http.request.method} {http.request.url}
        </p>
        <Headers headers={http.request.headers} />
        {http.request.body !== undefined && <pre className="code-block">{prettyBody(http.request.body)}</pre>}
        <h4>Response</h4>
        {http.response ? (
          <>
            <p>
              Status <strong>{http.response.status}</strong>
              {http.response.truncated && <span className="muted"> · body truncated</span>}
            </p>
            <Headers headers={http.response.headers} />
            <pre className="code-block">{prettyBody(http.response.body)}</pre>
          </>
        ) : (
          <p className="muted">No response (the request failed before one arrived).</p>
        )}
        <p className="field-hint">Secret values are masked by the core before they reach this view.</p>
      </div>
    </details>
  );
}

export function ResultPanel({
  tool,
  outcome,
  running,
  output = '',
  steps,
  progress,
}: {
  tool: ToolView;
  outcome: RunOutcome | null;
  running: boolean;
  output?: string;
  /** A pipeline's steps as they go (from its `step` events), shown while it runs. */
  steps?: readonly PipelineStepRecord[];
  /** The latest progress the tool's server reported while it runs. */
  progress?: ProgressUpdate | undefined;
}) {
  const result = outcome?.result;
  const error = result?.error ?? outcome?.error;
  const ok = result?.ok === true;
  const args = (outcome?.args && typeof outcome.args === 'object' ? outcome.args : {}) as Record<string, unknown>;
  const card = result?.card;
  const showCard = !!card && (!!card.html || !!card.text);
  const copy = useCopy();
  return (
    <section className="panel result" aria-labelledby="result-title" aria-busy={running} data-testid="result-panel">
      <div className="panel-head">
        <h2 id="result-title" className="panel-title">
          Result
        </h2>
        {outcome && (
          <div className="result-meta" aria-live="polite">
            <Badge tone={ok ? 'ok' : 'danger'}>{ok ? 'ok' : error?.code === 'CANCELLED' ? 'cancelled' : 'error'}</Badge>
            {result && <span className="muted">{duration(result.durationMs)}</span>}
            {result && ok && (
              <button type="button" className="btn btn-small" onClick={() => void copy(valueText(result.value), 'Result copied')} data-testid="copy-result">
                Copy result
              </button>
            )}
            {result?.http && (
              <button
                type="button"
                className="btn btn-small"
                onClick={() => void copy(curlOf(result.http!.request), 'cURL command copied (secrets stay masked)')}
                data-testid="copy-curl"
              >
                Copy as cURL
              </button>
            )}
            {result?.http && secretVariablesOf(result.http.request).length > 0 && (
              <button
                type="button"
                className="btn btn-small"
                title="The secrets become shell variables named like them: set those first, and no secret value is copied."
                onClick={() => {
                  const names = secretVariablesOf(result.http!.request);
                  void copy(
                    curlOf(result.http!.request, { secretsAsVariables: true }),
                    `cURL command copied; it reads ${names.map((n) => `$${n}`).join(', ')} from your shell`,
                  );
                }}
                data-testid="copy-curl-variables"
              >
                Copy as cURL with $secrets
              </button>
            )}
          </div>
        )}
      </div>
      <div className="panel-body">
        {!outcome && !running && <p className="muted">Run the tool to see its result here.</p>}
        {running && !outcome && progress && <RunProgress update={progress} />}
        {running && !outcome && (!!output || !steps?.length) && <LiveOutput output={output} running />}
        {running && !outcome && !!steps?.length && (
          <PipelineTimeline steps={steps} planned={plannedSteps(tool.impl, tool.bundleID)} live testId="pipeline-timeline-live" />
        )}
        {outcome && !ok && error && (
          <div className="result-error" role="alert" data-testid="result-error">
            <code>{error.code}</code> {error.message}
            {error.details?.issues && (
              <ul>
                {error.details.issues.map((i) => (
                  <li key={`${i.field}:${i.message}`}>
                    <code>{i.field}</code> {i.message}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        {!running && !!result?.steps?.length && <PipelineTimeline steps={result.steps} />}
        {card?.note && (
          <p className="field-warning" data-testid="card-note">
            {card.note.charAt(0).toUpperCase() + card.note.slice(1)}
          </p>
        )}
        {showCard && (
          <CardFrame
            title={fillCardTitle(tool.card.title ?? '', args) || card.title || tool.displayName || tool.slug}
            accentColor={tool.card.accentColor}
            backgroundColor={tool.card.backgroundColor}
            html={card.html}
            text={card.text}
            testId="result-card"
          />
        )}
        {result && ok && (
          <div className="result-value" data-testid="result-value">
            {!!result.steps?.length && <h3 className="report-heading">Output</h3>}
            {result.truncated && <p className="field-warning">Output truncated: it was {plural(result.truncated.originalBytes, 'byte')}.</p>}
            <JsonTree value={result.value} />
          </div>
        )}
        {result && ok && result.guard && <GuardedResult result={result} />}
        {result && ok && !!result.content?.length && <ResultContent content={result.content} />}
        {result?.http && <Exchange http={result.http} />}
        {outcome && output && (
          <details className="exchange" data-testid="streamed-output">
            <summary>
              Output as it streamed <span className="muted">· {outputBytes(output)}</span>
            </summary>
            <LiveOutput output={output} running={false} testId="streamed-output-log" label="Output as it streamed" />
          </details>
        )}
      </div>
    </section>
  );
}
