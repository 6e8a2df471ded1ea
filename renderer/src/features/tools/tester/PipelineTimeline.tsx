/**
 * A pipeline run, step by step: each step's tool, status, duration, the arguments it was given
 * and its value or error. Fed by `result.steps` once a run ends, by a history entry, or live by
 * the `step` events of a streamed run (useLiveRun keeps one record per step, the latest). Steps
 * show in the pipeline's order, several running at once when read-only steps run side by side.
 */
import { useBundles } from '../../../api/queries.js';
import { Badge } from '../../../components/States.js';
import { JsonTree } from '../../../components/JsonTree.js';
import { duration } from '../../../lib/format.js';
import type { PipelineStepRecord } from '../../../../../shared/types.js';
import '../pipelines.css';

/** A step as the timeline shows it: a record, or (live) one of the pipeline's steps that has not started yet. */
type Shown = Omit<PipelineStepRecord, 'status'> & { status: PipelineStepRecord['status'] | 'waiting' };

const TONE: Record<Shown['status'], 'ok' | 'danger' | 'neutral' | 'info' | 'warn'> = {
  running: 'info',
  ok: 'ok',
  error: 'danger',
  cancelled: 'warn',
  skipped: 'neutral',
  waiting: 'neutral',
};

/** The steps a pipeline's impl lists, as the live timeline announces them before they start. */
export function plannedSteps(impl: unknown, ownBundleID: string): { id: string; tool: PipelineStepRecord['tool'] }[] {
  const steps = (impl as { steps?: unknown } | undefined)?.steps;
  if (!Array.isArray(steps)) return [];
  return steps.flatMap((s: { id?: unknown; tool?: { bundleID?: string; slug?: string; version?: string } }) =>
    typeof s?.id === 'string' && s.tool?.slug && s.tool.version
      ? [{ id: s.id, tool: { bundleID: (s.tool.bundleID ?? ownBundleID).toLowerCase(), slug: s.tool.slug, version: s.tool.version } }]
      : [],
  );
}

export function PipelineTimeline({
  steps: records,
  planned,
  live,
  testId = 'pipeline-timeline',
}: {
  steps: readonly PipelineStepRecord[];
  /** Live: every step of the pipeline, so those not started yet show as waiting. */
  planned?: readonly { id: string; tool: PipelineStepRecord['tool'] }[];
  live?: boolean;
  testId?: string;
}) {
  const bundles = useBundles();
  const slugOf = (bundleID: string) => bundles.data?.find((b) => b.bundleID === bundleID)?.slug;
  // Live, in the pipeline's own order: read-only steps run side by side and may start out of it.
  const steps: Shown[] = planned?.length
    ? [
        ...planned.map((p): Shown => records.find((r) => r.id === p.id) ?? { ...p, status: 'waiting' }),
        ...records.filter((r) => !planned.some((p) => p.id === r.id)),
      ]
    : [...records];
  const done = steps.filter((s) => s.status === 'ok').length;
  return (
    <div className="timeline-wrap" data-testid={testId}>
      <h3 className="report-heading">
        Steps · {done} of {steps.length} done{live ? ' so far' : ''}
      </h3>
      <ol className="timeline" aria-live={live ? 'polite' : undefined}>
        {steps.map((s, i) => {
          const bundle = slugOf(s.tool.bundleID);
          return (
            <li key={s.id} className={`timeline-step is-${s.status}`} data-testid={`timeline-step-${s.id}`} data-status={s.status}>
              <span className="timeline-dot" aria-hidden="true">
                {s.status === 'running' ? <span className="spinner spinner-inline" /> : i + 1}
              </span>
              <div className="timeline-main">
                <div className="timeline-head">
                  <strong className="mono">{s.id}</strong>
                  <code className="muted timeline-tool">
                    {bundle ? `${bundle}/` : ''}
                    {s.tool.slug}@{s.tool.version}
                  </code>
                  <Badge tone={TONE[s.status]}>{s.status}</Badge>
                  {s.durationMs !== undefined && <span className="muted">{duration(s.durationMs)}</span>}
                </div>
                {s.error && (
                  <div className="timeline-error" role={live ? undefined : 'note'}>
                    <code>{s.error.code}</code> {s.error.message}
                  </div>
                )}
                {(s.args !== undefined || s.value !== undefined) && (
                  <details className="timeline-details" open={s.status === 'error'}>
                    <summary>{s.value !== undefined ? 'Arguments and value' : 'Arguments'}</summary>
                    <div className="timeline-io">
                      {s.args !== undefined && (
                        <div>
                          <h4>Arguments</h4>
                          <JsonTree value={s.args} />
                        </div>
                      )}
                      {s.value !== undefined && (
                        <div>
                          <h4>Value</h4>
                          <JsonTree value={s.value} />
                        </div>
                      )}
                    </div>
                  </details>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
