// Long on purpose: the gates of one invocation in the order they run; each step is a named method, and the runners, gate and history are modules of their own.
/**
 * The invocation engine: safety gates, argument validation, dispatch to the runner of the
 * tool's type, output validation, secret redaction, output caps, metrics and history.
 *
 * Refusals before a run throw a CoreError (the transport answers with its status); once the
 * tool ran, the answer is an InvokeResult, ok or not. Gates run in a fixed order, cheapest and
 * most global first, so a caller always learns about the kill switch before anything else.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type BundleFile, type Config, type Safety, type ToolFile } from '../../../shared/schemas.js';
import type { Availability, HistoryEntry, InvokeResult, InvokeStreamEvent, InvokeTrigger, PipelineStepRecord } from '../../../shared/types.js';
import { CoreError, cancelledError, capIssues } from '../errors.js';
import { moreDangerous } from '../../../shared/tool-types/pipeline-templates.js';
import { depthExceeded, MAX_ARGS_DEPTH } from '../../../shared/limits.js';
import { abortError, delay, raceAbort } from '../util/abort.js';
import type { HistoryStore } from './history.js';
import { SlidingWindowLimiter } from './rate-limit.js';
import type { SharedRateLimiter } from './shared-rate-limit.js';
import { RedactorCache } from '../secrets/redact.js';
import { ToolSchemaCache, type ToolValidators } from './schema-cache.js';
import { modelIssues, summarise } from '../../../shared/json-schema/issues.js';
import { historyArgs, postProcess } from './post-process.js';
import type { ChainLink, PartialOutput, RunAnswerers, RunOutput, Runner } from './types.js';
import type { SecretsReader } from '../secrets/types.js';
import { StreamGate } from './stream-gate.js';
import type { RunRegistry } from './running.js';
import { APP_CALLER, SCHEDULE_CALLER, callerLabel, historyCaller, type Caller } from '../../../shared/caller.js';
import type { RecordSink } from '../audit/changes.js';
import { argsDigest } from '../audit/record.js';

export interface EngineTool {
  file: ToolFile;
  dir: string;
  builtin: boolean;
}

export interface MetricsRecorder {
  record(toolID: string, ok: boolean, at?: Date): void;
}

export interface EngineDeps {
  runners: Runner[];
  config: () => Config;
  /** Why the definition guard's policy withholds a tool from agents (guard/definition-policy.ts), or undefined. */
  guardWithheld?: (tool: ToolFile) => string | undefined;
  secrets: SecretsReader;
  metrics: MetricsRecorder;
  history: HistoryStore;
  clock?: () => Date;
  /** App-scoped secrets a tool needs (its type says which); one that is not set makes the tool unavailable. */
  requiredSecrets?: (tool: ToolFile) => readonly string[];
  /** Where failures of background work (history writes, metrics) are reported; never thrown. */
  onBackgroundError?: (what: string, error: unknown) => void;
  /** Runs in progress across processes, so another process can cancel one (running.ts). */
  running?: RunRegistry;
  /**
   * A tool's own limits.maxCallsPerMinute, counted across processes (shared-rate-limit.ts).
   * Absent, or for tools that rely on config's default, calls are counted in this process.
   */
  sharedLimits?: SharedRateLimiter;
  /** The audit log: one record per call, with the arguments' digest, never the arguments or the result. */
  audit?: RecordSink;
}

export interface InvokeInput {
  args?: unknown;
  confirm?: boolean;
  invocationID?: string;
  /** Who asks (shared/caller.ts), for the history and the audit log; the app's, or a schedule's for a scheduled run, when absent. */
  caller?: Caller;
  /** Progress lines of the run (e.g. docker build output), for the UI. */
  onProgress?: (line: string) => void;
  /**
   * Output and pipeline steps as they happen (streaming); the answer still comes at the end.
   * Chunks are redacted and stop at maxOutputBytes, like the answer (stream-gate.ts).
   */
  onEvent?: (event: InvokeStreamEvent) => void;
  /**
   * Called once the call passed every gate, just before the run starts: from here on the answer
   * is an InvokeResult, never a refusal. A streaming transport starts its stream here.
   */
  onStart?: (invocationID: string) => void;
  trigger?: InvokeTrigger;
  scheduleID?: string;
  /**
   * The caller's own way to stop the run (a pipeline stopping its running step): aborting it
   * cancels the run as cancel(invocationID) does, and a CoreError reason (TIMEOUT) is the
   * run's error.
   */
  signal?: AbortSignal;
  /** False when the caller shows no card (a pipeline's step): the answer has none, and none is built. */
  card?: boolean;
  /** The pipelines this call is a step of, outermost first; handed to the run. */
  chain?: readonly ChainLink[];
  /** Who may answer an upstream MCP server's questions during the run; handed to the run. */
  answerers?: RunAnswerers;
}

/** Links a caller's signal to a run's controller; returns the unlink. */
function follow(signal: AbortSignal | undefined, controller: AbortController): () => void {
  if (!signal) return () => undefined;
  if (signal.aborted) {
    controller.abort(signal.reason);
    return () => undefined;
  }
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/** The steps of a run that was stopped: the one still running was cancelled. */
function stoppedSteps(partial: PartialOutput | undefined): PartialOutput | undefined {
  if (!partial?.steps) return partial;
  return { steps: partial.steps.map((s): PipelineStepRecord => (s.status === 'running' ? { ...s, status: 'cancelled' } : { ...s })) };
}

function rateLimited(file: ToolFile, limit: number, retryAfterMs: number): CoreError {
  return new CoreError('RATE_LIMITED', `tool ${file.slug} ${file.version} allows ${limit} calls per minute; try again in ${Math.ceil(retryAfterMs / 1000)} s`, {
    toolID: file.toolID,
    retryAfterMs,
    maxCallsPerMinute: limit,
  });
}

/** Who asked: the caller the call names, else a schedule's run or the app's. */
function callerOf(input: InvokeInput): Caller {
  return input.caller ?? (input.trigger === 'schedule' ? SCHEDULE_CALLER : APP_CALLER);
}

const INVOCATION_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Longest a cancelled run's answer waits for its runner to clean up. */
const CANCEL_GRACE_MS = 3000;

export class InvocationEngine {
  private readonly runners = new Map<string, Runner>();
  private readonly inflight = new Map<string, AbortController>();
  private readonly limiter = new SlidingWindowLimiter();
  private readonly schemas = new ToolSchemaCache();
  private readonly redactors = new RedactorCache();
  private readonly clock: () => Date;

  constructor(private readonly deps: EngineDeps) {
    for (const r of deps.runners) this.runners.set(r.type, r);
    this.clock = deps.clock ?? (() => new Date());
  }

  /** Why agents must not see a tool now (Runner.withheld), or undefined. */
  withheld(tool: EngineTool): string | undefined {
    try {
      return this.runners.get(tool.file.type)?.withheld?.(tool.file) ?? this.deps.guardWithheld?.(tool.file);
    } catch (e) {
      return `the check failed: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  availability(tool: EngineTool): Availability {
    // What a run would meet now: with the kill switch on, nothing runs, whatever else holds.
    if (!this.deps.config().toolsEnabled) return { ok: false, reason: 'tools are switched off (the kill switch): turn on Settings → Tools enabled' };
    const runner = this.runners.get(tool.file.type);
    if (!runner) return { ok: false, reason: `tools of type ${tool.file.type} cannot run here (no runner for it)` };
    try {
      const missing = this.deps.requiredSecrets?.(tool.file).find((name) => !this.deps.secrets.has(name));
      if (missing) return { ok: false, reason: `secret ${missing} is not set` };
      const available = runner.availability(tool.file, tool.dir, this.deps.secrets);
      const guarded = available.ok ? this.deps.guardWithheld?.(tool.file) : undefined;
      return guarded ? { ok: false, reason: guarded } : available;
    } catch (e) {
      return { ok: false, reason: `availability check failed: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  /**
   * The safety a run has now: the file's, or more when its runner says so (a pipeline whose step
   * became more dangerous since it was saved), with why. A runner that cannot tell counts as privileged.
   */
  safetyOf(tool: EngineTool): { safety: Safety; because?: string } {
    const file = tool.file;
    const runner = this.runners.get(file.type);
    if (!runner?.safety) return { safety: file.safety };
    let own: { safety: Safety; because?: string };
    try {
      own = runner.safety(file);
    } catch (e) {
      own = { safety: 'privileged', because: `its safety could not be worked out (${e instanceof Error ? e.message : String(e)})` };
    }
    const safety = moreDangerous(file.safety, own.safety);
    return safety === file.safety ? { safety } : { safety, ...(own.because ? { because: own.because } : {}) };
  }

  running(): string[] {
    return [...this.inflight.keys()];
  }

  cancel(invocationID: string): boolean {
    const controller = this.inflight.get(invocationID);
    if (!controller || controller.signal.aborted) return false;
    controller.abort(cancelledError());
    return true;
  }

  async invoke(tool: EngineTool, bundle: BundleFile, input: InvokeInput = {}): Promise<InvokeResult> {
    const file = tool.file;
    const config = this.deps.config();
    let admitted: ReturnType<InvocationEngine['admit']>;
    try {
      admitted = this.admit(tool, bundle, input, config);
      // No run without its record: while the audit log cannot be written, AUDIT_UNAVAILABLE (writer.ts).
      if (this.deps.audit) await this.deps.audit.ready();
      // Only a tool with a shared limit waits here: every other run is registered (cancellable) at once.
      if (this.sharesLimit(file)) await this.takeSharedLimit(file);
    } catch (e) {
      // A refusal is a call too, for the audit log: who asked for what, and which gate said no.
      // Answered once recorded; a record that cannot be written changes nothing (nothing ran).
      await this.audit(
        file,
        { ok: false, invocationID: '', durationMs: 0, error: { code: e instanceof CoreError ? e.code : 'INTERNAL', message: '' } },
        false,
        input.args,
        input,
      ).catch(() => undefined);
      throw e;
    }
    const { runner, validators, args, invocationID } = admitted;

    const controller = new AbortController();
    this.inflight.set(invocationID, controller);
    const unregister = this.register(file, invocationID, callerOf(input));
    const unfollow = follow(input.signal, controller);
    const deadline = this.deadline(file, config, controller);
    const startedAt = this.clock();
    const t0 = performance.now();
    const redactor = this.redactors.for(this.deps.secrets.values());
    const maxOutputBytes = file.limits?.maxOutputBytes ?? config.limits.maxOutputBytes;
    const gate = input.onEvent
      ? new StreamGate(input.onEvent, redactor, maxOutputBytes, (e) => this.deps.onBackgroundError?.('a stream listener', e))
      : undefined;
    let output: RunOutput | undefined;
    let partial: PartialOutput | undefined;
    let failure: unknown;
    let running: Promise<RunOutput> | undefined;
    try {
      this.started(input, invocationID);
      const run = runner.run({
        invocationID,
        caller: callerOf(input),
        ...(input.answerers ? { answerers: input.answerers } : {}),
        tool: file,
        toolDir: tool.dir,
        args,
        config,
        secrets: this.deps.secrets,
        signal: controller.signal,
        confirmed: input.confirm === true,
        keepPartial: (p) => {
          partial = p;
        },
        ...(input.onProgress ? { onProgress: input.onProgress } : {}),
        ...(gate ? { emit: gate.emit } : {}),
        ...(input.chain ? { chain: input.chain } : {}),
      });
      running = run;
      output = await raceAbort(run, controller.signal);
    } catch (e) {
      failure = e;
      // A stopped run answers once its runner has cleaned up (container removed, request
      // aborted), so "cancelled" means nothing is left running; a runner that ignores its
      // signal holds the answer back by CANCEL_GRACE_MS at most.
      if (controller.signal.aborted && running) await Promise.race([running.catch(() => undefined), delay(CANCEL_GRACE_MS)]);
    } finally {
      clearTimeout(deadline);
      this.inflight.delete(invocationID);
      unregister();
      unfollow();
      gate?.finish();
    }
    const stopped = controller.signal.aborted ? abortError(controller.signal) : undefined;
    const cancelled = stopped?.code === 'CANCELLED';
    const result = postProcess({
      invocationID,
      tool: file,
      args,
      validators,
      redactor,
      maxOutputBytes,
      output: stopped ? undefined : output,
      error: stopped ?? failure,
      partial: stopped ? stoppedSteps(partial) : partial,
      ...(input.card === false ? { card: false } : {}),
    });
    const streamCut = gate?.truncation();
    if (streamCut) result.streamTruncated = streamCut;
    result.durationMs = Math.round((performance.now() - t0) * 100) / 100;
    // The answer goes out only once its record is durable (group commit: concurrent calls share the
    // write). The audit record is queued before history's entry, whose write then runs while the
    // record's fdatasync is under way instead of ahead of it on the answer's path.
    const audited = this.audit(file, result, cancelled, args, input);
    this.record(file, startedAt, result, cancelled, historyArgs(args, file.argSchema, this.deps.secrets, redactor), input);
    try {
      await audited;
    } catch (e) {
      const why = e instanceof CoreError ? e.message : String(e);
      throw new CoreError(
        'AUDIT_UNAVAILABLE',
        `tool ${file.slug} ${file.version} ran, but its audit record could not be written, so its answer is withheld: ${why}`,
        {
          ...(e instanceof CoreError ? e.details : {}),
          toolID: file.toolID,
          invocationID,
        },
      );
    }
    return result;
  }

  /**
   * Every run ends by a time the engine enforces: limits.timeoutSeconds, else the runner's
   * defaultTimeout (a function tool, in-process, has no bound of its own); other types also bound themselves (impl).
   */
  private deadline(file: ToolFile, config: Config, controller: AbortController): NodeJS.Timeout | undefined {
    const own = file.limits?.timeoutSeconds;
    const fallback = own === undefined ? this.runners.get(file.type)?.defaultTimeout?.(config) : undefined;
    const seconds = own ?? fallback?.seconds;
    if (seconds === undefined) return undefined;
    const source = fallback?.source ?? 'limits.timeoutSeconds';
    const timer = setTimeout(
      () => controller.abort(new CoreError('TIMEOUT', `tool ${file.slug} ${file.version} ran longer than ${seconds} s (${source}); it was stopped`)),
      seconds * 1000,
    );
    timer.unref();
    return timer;
  }

  private started(input: InvokeInput, invocationID: string): void {
    try {
      input.onStart?.(invocationID);
    } catch (e) {
      this.deps.onBackgroundError?.('a start listener', e);
    }
  }

  private register(file: ToolFile, invocationID: string, caller: Caller): () => void {
    if (!this.deps.running) return () => undefined;
    try {
      return this.deps.running.register(
        {
          invocationID,
          toolID: file.toolID,
          bundleID: file.bundleID,
          slug: file.slug,
          version: file.version,
          caller: callerLabel(caller),
          startedAt: this.clock().toISOString(),
        },
        () => this.cancel(invocationID),
      );
    } catch (e) {
      this.deps.onBackgroundError?.('registering a running invocation', e);
      return () => undefined;
    }
  }

  /** The gates, in order. Throws the refusal; returns what the run needs. */
  private admit(
    tool: EngineTool,
    bundle: BundleFile,
    input: InvokeInput,
    config: Config,
  ): { runner: Runner; validators: ToolValidators; args: Record<string, unknown>; invocationID: string } {
    const file = tool.file;
    if (!config.toolsEnabled) {
      throw new CoreError('TOOLS_DISABLED', 'tools are switched off (the kill switch is on): turn on Settings → Tools enabled to run tools again');
    }
    if (bundle.softDeletedAt) {
      throw new CoreError('BUNDLE_DELETED', `bundle ${bundle.slug} is deleted; restore it to run its tools`, { bundleID: bundle.bundleID });
    }
    if (!bundle.isEnabled) {
      throw new CoreError('BUNDLE_DISABLED', `bundle ${bundle.slug} is disabled; enable it to run its tools`, { bundleID: bundle.bundleID });
    }
    if (!file.isEnabled) {
      throw new CoreError('TOOL_DISABLED', `tool ${file.slug} ${file.version} is disabled; enable it to run it`, { toolID: file.toolID });
    }
    const runner = this.runners.get(file.type);
    const availability = this.availability(tool);
    if (!runner || !availability.ok) {
      throw new CoreError('TOOL_UNAVAILABLE', `tool ${file.slug} ${file.version} cannot run here: ${availability.reason ?? 'unavailable'}`, {
        toolID: file.toolID,
        reason: availability.reason,
      });
    }
    const { safety, because } = this.safetyOf(tool);
    if (safety === 'privileged' && input.confirm !== true) {
      throw new CoreError(
        'CONFIRMATION_REQUIRED',
        `tool ${file.slug} ${file.version} is privileged${because ? ` (${because})` : ''}: ask the user to confirm, then call again with confirm: true`,
        { toolID: file.toolID, safety },
      );
    }
    // A tool's own limit, with a shared limiter, is taken across processes once the rest passed (takeSharedLimit).
    const shared = this.sharesLimit(file);
    const limit = file.limits?.maxCallsPerMinute ?? config.limits.maxCallsPerMinute;
    const nowMs = this.clock().getTime();
    if (!shared) {
      const retryAfterMs = this.limiter.retryAfterMs(file.toolID, limit, nowMs);
      if (retryAfterMs > 0) throw rateLimited(file, limit, retryAfterMs);
    }
    const args = this.checkArgs(file, input.args);
    const invocationID = this.newInvocationID(input.invocationID);
    // Counted only once admitted: refused calls never reach the tool or its backend.
    if (!shared) this.limiter.record(file.toolID, nowMs);
    return { runner, validators: args.validators, args: args.args, invocationID };
  }

  private sharesLimit(file: ToolFile): boolean {
    return this.deps.sharedLimits !== undefined && file.limits?.maxCallsPerMinute !== undefined;
  }

  /** The last gate for a tool with its own limit: one call of its budget, across processes. */
  private async takeSharedLimit(file: ToolFile): Promise<void> {
    const limit = file.limits!.maxCallsPerMinute!;
    const retryAfterMs = await this.deps.sharedLimits!.take(file.toolID, limit, this.clock().getTime());
    if (retryAfterMs > 0) throw rateLimited(file, limit, retryAfterMs);
  }

  private checkArgs(file: ToolFile, raw: unknown): { args: Record<string, unknown>; validators: ToolValidators } {
    const args = raw === undefined || raw === null ? {} : raw;
    if (typeof args !== 'object' || Array.isArray(args)) {
      const got = Array.isArray(args) ? 'an array' : `a ${typeof args}`;
      throw new CoreError('INVALID_ARGS', `the arguments must be a JSON object (got ${got})`, {
        issues: [{ field: '', message: `must be an object (got ${got})` }],
      });
    }
    // Measured before ajv walks it: deep arguments against a recursive $ref must not exhaust the stack.
    const deep = depthExceeded(args, MAX_ARGS_DEPTH, 'args');
    if (deep !== undefined) {
      throw new CoreError('INVALID_ARGS', `the arguments nest deeper than ${MAX_ARGS_DEPTH} levels (at ${deep}); send a flatter value`, {
        issues: [{ field: deep, message: `nests deeper than ${MAX_ARGS_DEPTH} levels` }],
      });
    }
    const validators = this.schemas.validators(file);
    if (!validators.args(args)) {
      const issues = modelIssues(validators.args.errors, args, 'the arguments');
      throw new CoreError('INVALID_ARGS', `invalid arguments for ${file.slug}: ${summarise(issues)}`, {
        ...capIssues(issues.map(({ field, message }) => ({ field, message }))),
      });
    }
    return { args: args as Record<string, unknown>, validators };
  }

  private newInvocationID(requested: string | undefined): string {
    if (requested === undefined) return randomUUID();
    if (!INVOCATION_ID.test(requested)) {
      throw new CoreError('INVALID_INPUT', 'invocationID must be 1–64 letters, digits, "-" or "_"', {
        issues: [{ field: 'invocationID', message: 'must be 1–64 letters, digits, "-" or "_"' }],
      });
    }
    if (this.inflight.has(requested)) {
      throw new CoreError('CONFLICT', `invocation ${requested} is already running; use a new invocationID`, { invocationID: requested });
    }
    return requested;
  }

  /** The call's audit record; resolves once it is durable, rejects (AUDIT_UNAVAILABLE) when it cannot be written. */
  private audit(
    file: ToolFile,
    result: Pick<InvokeResult, 'ok' | 'invocationID' | 'error' | 'durationMs'>,
    cancelled: boolean,
    args: unknown,
    input: InvokeInput,
  ): Promise<void> {
    if (!this.deps.audit) return Promise.resolve();
    try {
      const caller = callerOf(input);
      return this.deps.audit.append({
        kind: 'call',
        toolID: file.toolID,
        slug: file.slug,
        version: file.version,
        bundleID: file.bundleID,
        caller: callerLabel(caller),
        transport: caller.transport,
        ...(caller.profile ? { profile: caller.profile } : {}),
        argsDigest: argsDigest(args),
        status: result.ok ? 'ok' : cancelled ? 'cancelled' : 'error',
        ...(result.error ? { errorCode: result.error.code } : {}),
        durationMs: result.durationMs ?? 0,
        ...(result.invocationID ? { invocationID: result.invocationID } : {}),
      });
    } catch (e) {
      this.deps.onBackgroundError?.('audit', e);
      return Promise.resolve();
    }
  }

  /** Metrics and history, off the answer's path: neither is awaited, neither can fail the call. */
  private record(file: ToolFile, startedAt: Date, result: InvokeResult, cancelled: boolean, args: unknown, input: InvokeInput): void {
    try {
      this.deps.metrics.record(file.toolID, result.ok, startedAt);
    } catch (e) {
      this.deps.onBackgroundError?.('metrics', e);
    }
    try {
      const caller = historyCaller(callerOf(input));
      const entry: HistoryEntry = {
        invocationID: result.invocationID,
        toolID: file.toolID,
        startedAt: startedAt.toISOString(),
        durationMs: result.durationMs,
        status: result.ok ? 'ok' : cancelled ? 'cancelled' : 'error',
        ...(caller ? { caller } : {}),
        ...(input.trigger ? { trigger: input.trigger } : {}),
        ...(input.scheduleID ? { scheduleID: input.scheduleID } : {}),
        args,
      };
      if (result.value !== undefined) entry.result = result.value;
      if (result.error) entry.error = result.error;
      if (result.steps) entry.steps = result.steps;
      this.deps.history.append(file.toolID, entry).catch((e: unknown) => this.deps.onBackgroundError?.('history', e));
    } catch (e) {
      this.deps.onBackgroundError?.('history', e);
    }
  }
}
