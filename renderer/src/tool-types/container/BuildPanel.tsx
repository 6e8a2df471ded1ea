/**
 * Building a container tool's image from the app: the image the tool runs (whether its files
 * were built, its size), Build / Rebuild without cache, and the build's log as it comes. The log
 * arrives as `build.log` store events for the buildID chosen here, over the one event stream the
 * app already holds (IPC or GET /tools/events); the answer of tools.build ends it. A failed build
 * shows Docker's reason with the failing step, and that step is marked in the log.
 */
import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiCallError, errorMessage } from '../../api/errors.js';
import { buildToolImage } from '../../api/operations.js';
import { keys, toolRefOf, useToolImage } from '../../api/queries.js';
import { onStoreEvent } from '../../api/events.js';
import { absoluteTime, duration, relativeTime } from '../../lib/format.js';
import { formatBytes } from '../../../../shared/format.js';
import type { BuildResult, ToolView } from '../../../../shared/types.js';
import './container.css';

interface BuildState {
  buildID: string;
  running: boolean;
  lines: string[];
  startedAt: number;
  result?: BuildResult;
  /** A refusal before any build ran (Docker unreachable, no Dockerfile). */
  refused?: string;
}

const STEP = /^Step (\d+)\/(\d+) : /;

function ImageStatus({ tool }: { tool: ToolView }) {
  const image = useToolImage(tool);
  if (image.isPending) return <p className="muted build-status">Asking Docker about the image…</p>;
  if (image.isError) {
    return (
      <p className="field-warning build-status" data-testid="image-status">
        {errorMessage(image.error)}
      </p>
    );
  }
  const { image: info, upToDate, ref } = image.data;
  if (!info) {
    return (
      <p className="muted build-status" data-testid="image-status">
        Not built yet. Build it now, or the first run builds it (as <span className="mono">{ref.split(':')[0]}</span>).
      </p>
    );
  }
  return (
    <p className="build-status" data-testid="image-status">
      <span className={`badge ${upToDate ? 'badge-ok' : 'badge-warn'}`}>{upToDate ? 'up to date' : 'older files'}</span>{' '}
      <span className="mono break">{info.ref}</span> · <strong data-testid="image-size">{formatBytes(info.sizeBytes)}</strong> · built{' '}
      <span title={absoluteTime(info.createdAt)}>{relativeTime(info.createdAt)}</span>
      {!upToDate && <span className="muted"> — the files changed since; build again (or the next run will).</span>}
    </p>
  );
}

export function BuildPanel({ tool, unsaved, saveAll }: { tool: ToolView; unsaved: number; saveAll(): Promise<boolean> }) {
  const qc = useQueryClient();
  const [build, setBuild] = useState<BuildState | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const logRef = useRef<HTMLPreElement>(null);
  const stopListening = useRef<(() => void) | null>(null);

  useEffect(() => () => stopListening.current?.(), []);
  useEffect(() => {
    if (!build?.running) return;
    const timer = setInterval(() => setElapsed(performance.now() - build.startedAt), 250);
    return () => clearInterval(timer);
  }, [build?.running, build?.startedAt]);
  // Follow the log's end while it grows, unless the person scrolled up to read.
  useEffect(() => {
    const el = logRef.current;
    if (el && el.scrollHeight - el.scrollTop - el.clientHeight < 80) el.scrollTop = el.scrollHeight;
  }, [build?.lines.length]);

  const start = async (noCache: boolean) => {
    if (build?.running) return;
    if (unsaved > 0 && !(await saveAll())) return;
    const buildID = crypto.randomUUID();
    stopListening.current?.();
    setBuild({ buildID, running: true, lines: [], startedAt: performance.now() });
    setElapsed(0);
    stopListening.current = onStoreEvent((e) => {
      if (e.type === 'build.log' && e.buildID === buildID) setBuild((b) => (b && b.buildID === buildID ? { ...b, lines: [...b.lines, ...e.lines] } : b));
      // Lines may trail the answer a little on another channel; the end event says they are all in.
      if (e.type === 'build.finished' && e.buildID === buildID) setTimeout(() => stopListening.current?.(), 500);
    });
    try {
      const result = await buildToolImage({ ...toolRefOf(tool), buildID, ...(noCache ? { noCache: true } : {}) });
      setBuild((b) => (b && b.buildID === buildID ? { ...b, running: false, result } : b));
    } catch (e) {
      setBuild((b) => (b && b.buildID === buildID ? { ...b, running: false, refused: e instanceof ApiCallError ? e.message : errorMessage(e) } : b));
    } finally {
      void qc.invalidateQueries({ queryKey: keys.toolImage(tool.toolID) });
      void qc.invalidateQueries({ queryKey: keys.tools });
    }
  };

  const result = build?.result;
  const failedStep = result && !result.ok ? result.error?.step : undefined;
  const lines = build ? (build.lines.length || !result?.error ? build.lines : result.error.logTail.split('\n')) : [];
  const currentStep = lines
    .filter((l) => STEP.test(l))
    .pop()
    ?.replace(/ : .*/, '');

  return (
    <section className="build-panel" aria-labelledby="build-title" data-testid="build-panel">
      <div className="build-head">
        <h2 id="build-title" className="build-title">
          Image
        </h2>
        <div className="spacer" />
        <button
          type="button"
          className="btn"
          onClick={() => void start(true)}
          disabled={build?.running}
          title="Build every step again, ignoring Docker's layer cache"
        >
          Rebuild without cache
        </button>
        <button type="button" className="btn btn-primary" onClick={() => void start(false)} disabled={build?.running} data-testid="build-image">
          {build?.running ? (
            <>
              <span className="spinner spinner-inline" aria-hidden="true" /> Building…
            </>
          ) : unsaved > 0 ? (
            `Save ${unsaved === 1 ? 'file' : `${unsaved} files`} and build`
          ) : (
            'Build image'
          )}
        </button>
      </div>
      <ImageStatus tool={tool} />
      {build && (
        <div className="build-run">
          {build.running && (
            <p className="muted" data-testid="build-progress">
              <span role="status">Building…</span> {/* The clock and the step change every moment: shown, not announced. */}
              <span aria-hidden="true">
                {duration(elapsed)}
                {currentStep ? ` · ${currentStep}` : ''}
              </span>
            </p>
          )}
          {result?.ok && result.image && (
            <p className="build-ok" role="status" data-testid="build-result">
              <span className="badge badge-ok">built</span> {result.image.built ? `in ${duration(result.durationMs)}` : 'already built from these files'} ·{' '}
              {formatBytes(result.image.sizeBytes)}
            </p>
          )}
          {result && !result.ok && result.error && (
            <div className="result-error" role="alert" data-testid="build-error">
              <strong>
                The build failed
                {failedStep?.index !== undefined
                  ? ` at step ${failedStep.index} of ${failedStep.total}`
                  : failedStep?.line !== undefined
                    ? ` at line ${failedStep.line} of the Dockerfile`
                    : ''}
                .
              </strong>
              {failedStep?.instruction && (
                <div>
                  <code>{failedStep.instruction}</code>
                </div>
              )}
              <div>{result.error.reason}</div>
              <div className="muted">Fix the Dockerfile (or the files it copies) and build again.</div>
            </div>
          )}
          {build.refused && (
            <div className="result-error" role="alert" data-testid="build-error">
              {build.refused}
            </div>
          )}
        </div>
      )}
      {build && lines.length > 0 && (
        // A region to read at will, not a live log: a build prints hundreds of lines a screen reader should not recite.
        <pre ref={logRef} className="build-log" role="region" aria-label="Build log" tabIndex={0} data-testid="build-log">
          {lines.map((line, i) => {
            const m = STEP.exec(line);
            const failed = m && failedStep?.index === Number(m[1]);
            return (
              <span key={i} className={m ? (failed ? 'log-step log-failed' : 'log-step') : undefined}>
                {line}
                {'\n'}
              </span>
            );
          })}
        </pre>
      )}
    </section>
  );
}
