/**
 * The live tester: arguments as a generated form (rjsf) or raw JSON, validated before every run;
 * Run/Stop with an invocation ID the core can cancel (tools.cancel, wherever the run is); the
 * output growing live while it runs (streamed invoke); a confirmation for privileged tools; the
 * result, its HTTP exchange and its card; and the tool's recent invocations, each re-runnable.
 *
 * Values are taken at the moment of running from the form's own submit (rjsf validates the
 * state that includes every queued change) or from the editor text, never from a render-time
 * copy, so a run never sends stale values.
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { isPlainObject } from '../../../../../shared/plain-object.js';
import Form from '@rjsf/core';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { useQueryClient } from '@tanstack/react-query';
import { ApiCallError } from '../../../api/errors.js';
import { cancelInvocation, invokeToolStreamed } from '../../../api/operations.js';
import { keys, toolRefOf } from '../../../api/queries.js';
import { useConfirm } from '../../../components/Dialog.js';
import { Loading } from '../../../components/States.js';
import { cspSafeValidator, validateArgs } from '../../../lib/schemaValidator.js';
import { ResultPanel } from './ResultPanel.js';
import { HistoryPanel } from './HistoryPanel.js';
import { useLiveRun } from './useLiveRun.js';
import type { RunOutcome } from './run-outcome.js';
import type { ToolView, InvokeResult, HistoryEntry, InvokeStreamEvent } from '../../../../../shared/types.js';
import type { ApiError } from '../../../../../shared/errors.js';
import './Tester.css';
import '../../../components/rjsf.css';

const UI_SCHEMA: UiSchema = { 'ui:submitButtonOptions': { norender: true } };

// CodeMirror loads when raw JSON is asked for (or a tool takes no form), not with every tool page:
// the card frame beside it shares no chunk with an editor.
const JsonEditor = lazy(() => import('../../../components/code/JsonEditor.js').then((m) => ({ default: m.JsonEditor })));

function formSchemaOf(argSchema: unknown): RJSFSchema | null {
  if (argSchema === true) return { type: 'object' };
  if (typeof argSchema !== 'object' || argSchema === null) return null;
  return argSchema as RJSFSchema;
}

function hasProperties(schema: RJSFSchema | null): boolean {
  return !!schema && (Object.keys(schema.properties ?? {}).length > 0 || !!schema.oneOf || !!schema.anyOf || !!schema.allOf || !!schema.$ref);
}

function newInvocationID(): string {
  return crypto.randomUUID();
}

/** Arguments given by the address (JSON text), when they parse to an object. */
function parseInitialArgs(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return isPlainObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Longer arguments stay out of the address (links stay shareable, and browsers cap URLs). */
const MAX_ARGS_IN_URL = 4000;

export function Tester({
  tool,
  onEvent,
  initialArgs,
  onArgsChange,
}: {
  tool: ToolView;
  /** Every event of a run as it streams (pipeline steps…). */ onEvent?: (event: InvokeStreamEvent) => void;
  /** The arguments from the address (JSON text), to start from. */
  initialArgs?: string;
  /** Told the arguments (JSON text, or undefined when empty) shortly after they change, for the address. */
  onArgsChange?(argsJson: string | undefined): void;
}) {
  const qc = useQueryClient();
  const confirm = useConfirm();
  const schema = useMemo(() => formSchemaOf(tool.argSchema), [tool.argSchema]);
  const [mode, setMode] = useState<'form' | 'json'>(schema ? 'form' : 'json');
  const [formData, setFormData] = useState<unknown>(() => parseInitialArgs(initialArgs));
  const [rawText, setRawText] = useState(() => JSON.stringify(parseInitialArgs(initialArgs) ?? {}, null, 2));
  const [rawErrors, setRawErrors] = useState<string[]>([]);
  const [running, setRunning] = useState<{ invocationID: string; stopping: boolean } | null>(null);
  const [outcome, setOutcome] = useState<RunOutcome | null>(null);
  const formRef = useRef<Form>(null);
  const { live, push, reset } = useLiveRun(onEvent);
  // A pipeline runs as its most dangerous step, which may have changed since it was saved.
  const safety = tool.effectiveSafety ?? tool.safety;
  const runRef = useRef<(args: unknown) => Promise<void>>(null);
  const disabledReason = !tool.isEnabled
    ? 'This tool is switched off.'
    : !tool.availability.ok
      ? `Unavailable: ${tool.availability.reason ?? 'unknown reason'}`
      : undefined;

  const run = async (args: unknown) => {
    if (running) return;
    const problems = validateArgs(tool.argSchema, args);
    if (problems.length) {
      setRawErrors(problems);
      return;
    }
    setRawErrors([]);
    let confirmed = false;
    if (safety === 'privileged') {
      confirmed = await confirm({
        title: `Run ${tool.displayName || tool.slug}?`,
        message: (
          <>
            <p>
              {tool.safety === 'privileged' ? (
                <>
                  This tool is marked <strong>privileged</strong>: it can change things outside Toolwright.
                </>
              ) : (
                <>
                  One of this pipeline&apos;s steps is <strong>privileged</strong>: it can change things outside Toolwright.
                </>
              )}
            </p>
            <pre className="confirm-args">{JSON.stringify(args, null, 2)}</pre>
          </>
        ),
        confirmLabel: 'Run it',
        danger: true,
      });
      if (!confirmed) return;
    }
    let invocationID = newInvocationID();
    setRunning({ invocationID, stopping: false });
    setOutcome(null);
    reset();
    const started = performance.now();
    try {
      let result: InvokeResult;
      try {
        result = await invokeToolStreamed({ ...toolRefOf(tool), args, invocationID, ...(confirmed ? { confirm: true } : {}) }, push);
      } catch (e) {
        // The core may require a confirmation the tool's label did not announce (e.g. a privileged function).
        if (e instanceof ApiCallError && e.code === 'CONFIRMATION_REQUIRED' && !confirmed) {
          const ok = await confirm({ title: 'Confirmation required', message: e.message, confirmLabel: 'Run it', danger: true });
          if (!ok) {
            setOutcome({ args, error: e.error });
            return;
          }
          invocationID = newInvocationID();
          setRunning({ invocationID, stopping: false });
          result = await invokeToolStreamed({ ...toolRefOf(tool), args, invocationID, confirm: true }, push);
        } else throw e;
      }
      setOutcome({ args, result });
    } catch (e) {
      const error: ApiError = e instanceof ApiCallError ? e.error : { code: 'INTERNAL', message: String(e) };
      setOutcome({ args, error, result: { ok: false, invocationID, error, durationMs: performance.now() - started } });
    } finally {
      setRunning(null);
      void qc.invalidateQueries({ queryKey: keys.history(toolRefOf(tool)) });
      void qc.invalidateQueries({ queryKey: ['tools', 'one'] });
    }
  };
  runRef.current = run;

  const onRunClick = () => {
    if (mode === 'form' && formRef.current) {
      formRef.current.submit();
      return;
    }
    let args: unknown;
    try {
      args = rawText.trim() ? JSON.parse(rawText) : {};
    } catch (e) {
      setRawErrors([`Arguments are not valid JSON: ${(e as Error).message}`]);
      return;
    }
    void run(args);
  };

  const stop = async () => {
    if (!running) return;
    setRunning({ ...running, stopping: true });
    try {
      await cancelInvocation({ invocationID: running.invocationID });
    } catch {
      // the run may have finished meanwhile; its own result arrives either way
    }
  };

  const switchMode = (next: 'form' | 'json') => {
    if (next === mode) return;
    if (next === 'json') {
      setRawText(JSON.stringify(formData ?? {}, null, 2));
      setRawErrors([]);
      setMode('json');
      return;
    }
    try {
      setFormData(rawText.trim() ? JSON.parse(rawText) : undefined);
      setRawErrors([]);
      setMode('form');
    } catch (e) {
      setRawErrors([`Fix the JSON before switching to the form: ${(e as Error).message}`]);
    }
  };

  const loadArgs = (entry: HistoryEntry, thenRun: boolean) => {
    touched.current = true;
    setFormData(entry.args);
    setRawText(JSON.stringify(entry.args ?? {}, null, 2));
    if (thenRun) void run(entry.args);
  };

  // The address follows the arguments (debounced), so a reload or a shared link brings them back.
  // Only what the person typed or loaded goes there, not the defaults the form fills in by itself.
  const argsNow = mode === 'form' ? formData : rawText;
  const onArgsChangeRef = useRef(onArgsChange);
  onArgsChangeRef.current = onArgsChange;
  const touched = useRef(!!initialArgs);
  useEffect(() => {
    if (!touched.current) return;
    const timer = setTimeout(() => {
      let value: unknown = argsNow;
      if (typeof argsNow === 'string') {
        try {
          value = JSON.parse(argsNow);
        } catch {
          return; // half-typed JSON: the address keeps the last arguments that parsed
        }
      }
      const empty = value === undefined || (typeof value === 'object' && value !== null && Object.keys(value).length === 0);
      const text = empty ? undefined : JSON.stringify(value);
      onArgsChangeRef.current?.(text && text.length <= MAX_ARGS_IN_URL ? text : undefined);
    }, 300);
    return () => clearTimeout(timer);
  }, [argsNow]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
        e.preventDefault();
        if (!running && !disabledReason) onRunClick();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <div className="tester" data-testid="tester">
      <section className="tester-args panel" aria-labelledby="args-title" onInput={() => (touched.current = true)} onChange={() => (touched.current = true)}>
        <div className="panel-head">
          <h2 id="args-title" className="panel-title">
            Arguments
          </h2>
          <div className="segmented" role="group" aria-label="Argument input mode">
            <button type="button" aria-pressed={mode === 'form'} onClick={() => switchMode('form')} disabled={!schema} data-testid="mode-form">
              Form
            </button>
            <button type="button" aria-pressed={mode === 'json'} onClick={() => switchMode('json')} data-testid="mode-json">
              JSON
            </button>
          </div>
        </div>
        <div className="panel-body">
          {mode === 'form' && schema ? (
            hasProperties(schema) ? (
              <Form
                ref={formRef}
                schema={schema}
                uiSchema={UI_SCHEMA}
                validator={cspSafeValidator}
                formData={formData}
                onChange={(e) => setFormData(e.formData)}
                onSubmit={(e) => void runRef.current?.(e.formData ?? {})}
                // Errors are shown at their fields; nothing to log.
                onError={() => undefined}
                showErrorList={false}
                noHtml5Validate
                focusOnFirstError
                className="rjsf"
                idPrefix="arg"
              />
            ) : (
              <p className="muted">This tool takes no arguments.</p>
            )
          ) : (
            <Suspense fallback={<Loading label="Opening the JSON editor…" />}>
              <JsonEditor label="Arguments (JSON)" value={rawText} onChange={setRawText} minLines={8} testId="args-json" />
            </Suspense>
          )}
          {rawErrors.length > 0 && (
            <div className="form-alert" role="alert" data-testid="args-errors">
              {rawErrors.map((m) => (
                <div key={m}>{m}</div>
              ))}
            </div>
          )}
        </div>
        <div className="panel-foot">
          {disabledReason && <span className="field-warning">{disabledReason}</span>}
          <div className="spacer" />
          {running ? (
            <button type="button" className="btn btn-danger" onClick={() => void stop()} disabled={running.stopping} data-testid="stop">
              {running.stopping ? 'Stopping…' : 'Stop'}
            </button>
          ) : null}
          <button type="button" className="btn btn-primary" onClick={onRunClick} disabled={!!running || !!disabledReason} title="Ctrl+Enter" data-testid="run">
            {running ? (
              <>
                <span className="spinner spinner-inline" aria-hidden="true" /> Running…
              </>
            ) : safety === 'privileged' ? (
              'Run… (asks first)'
            ) : (
              'Run'
            )}
          </button>
        </div>
      </section>
      <div className="tester-side">
        <ResultPanel tool={tool} outcome={outcome} running={!!running} output={live.output} steps={live.steps} progress={live.progress} />
        <HistoryPanel tool={tool} onLoad={(e) => loadArgs(e, false)} onRerun={(e) => loadArgs(e, true)} busy={!!running || !!disabledReason} />
      </div>
    </div>
  );
}
