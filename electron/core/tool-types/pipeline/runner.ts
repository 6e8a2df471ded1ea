/**
 * The runner of `pipeline` tools: each step calls an existing tool through the engine (every
 * gate: kill switch, switches, availability, rate limit, argument validation, history with the
 * caller `pipeline:<slug>`), its arguments filled from the pipeline's input and the values of
 * earlier steps (shared/tool-types/pipeline-templates.ts). The result is `output` filled in, or the last step's value.
 *
 * - Steps run as plan.ts orders them: read-only steps that do not read each other side by side,
 *   any other step alone, in its declared place. Each keeps its identity throughout: records,
 *   `steps.<id>` values, history and `step` events; the answer lists them as declared.
 * - A failing step stops the pipeline with an error naming it; the steps running beside it are
 *   cancelled (each through its own signal) and waited for, those not started are recorded as
 *   skipped. The steps so far reach the answer and the history whatever ends the run
 *   (RunContext.keepPartial), and go out as `step` events as they start and end.
 * - A stop (the engine's signal) cancels the running steps, through their own engine calls, and
 *   the rest never start; one timer (impl.timeoutSeconds) bounds the whole run the same way.
 * - Availability and safety look through the steps to the tools they call, as those are now:
 *   a pipeline is unavailable when a step's tool is missing or cannot run, and as dangerous as
 *   its most dangerous step. A pipeline reaching itself through its steps is caught both while
 *   those are worked out and, for runs, by the chain of pipelines a call runs inside of
 *   (RunContext.chain, handed on to each step's call).
 */
import type { Safety, ToolFile } from '../../../../shared/schemas.js';
import type { ApiError } from '../../../../shared/errors.js';
import type { Availability, InvokeResult } from '../../../../shared/types.js';
import {
  PIPELINE_DEFAULT_TIMEOUT_SECONDS,
  PIPELINE_MAX_DEPTH,
  PIPELINE_MAX_PARALLEL_STEPS,
  PipelineImpl,
  type PipelineStep,
} from '../../../../shared/tool-types/pipeline.js';
import {
  compileTemplate,
  SAFETY_LEVELS,
  stepToolLabel,
  TemplateError,
  type CompiledTemplate,
  type TemplateScope,
} from '../../../../shared/tool-types/pipeline-templates.js';
import { apiIssues } from '../../../../shared/json-schema/issues.js';
import { CoreError, summariseIssues, toApiError } from '../../errors.js';
import { abortError } from '../../util/abort.js';
import { validatorFor } from '../../validation.js';
import { maskMarked } from '../../invoke/post-process.js';
import type { RunContext, RunOutput, Runner } from '../../invoke/types.js';
import { StepSchedule, stepDependencies } from './plan.js';
import type { StepInvoker, StepTarget } from './step-invoker.js';
import { refOf, Timeline } from './timeline.js';
import { pipelineCaller } from '../../../../shared/caller.js';

const SAFETY_WORDS: Record<Safety, string> = { readOnly: 'read-only', sideEffecting: 'side-effecting', privileged: 'privileged' };

// A tool file in memory is replaced, never changed, when its tool.json changes: the verdict on
// an impl object holds as long as the object lives.
const verdicts = new WeakMap<object, PipelineImpl | { problem: string }>();

function implOf(tool: ToolFile): PipelineImpl | { problem: string } {
  const known = verdicts.get(tool.impl);
  if (known) return known;
  const valid = validatorFor(PipelineImpl);
  const verdict = valid(tool.impl)
    ? (tool.impl as PipelineImpl)
    : { problem: `its impl is not a valid pipeline (${summariseIssues(apiIssues(valid.errors, 'impl').slice(0, 3))}); fix tool.json` };
  verdicts.set(tool.impl, verdict);
  return verdict;
}

// Templates compiled once per step and output object (immutable in memory, like the impl).
const compiled = new WeakMap<object, CompiledTemplate>();

function fill(owner: object, template: unknown, scope: TemplateScope): unknown {
  let c = compiled.get(owner);
  if (!c) compiled.set(owner, (c = compileTemplate(template)));
  return c(scope);
}

/** Why a step failed, as the pipeline's error names it. */
interface StepFailure {
  step: PipelineStep;
  label: string;
  error: ApiError;
}

/** How one step's run ended: well, failed, or with an unexpected throw (a bug, passed on). */
interface StepOutcome {
  index: number;
  failure?: StepFailure;
  thrown?: { error: unknown };
}

function named(tool: ToolFile): string {
  return `pipeline ${tool.slug} ${tool.version}`;
}

/** `steps` is the composition root's late-bound invoker (RunnerServices.steps); without it pipelines are unavailable. */
export function createPipelineRunner(steps?: () => StepInvoker): Runner {
  /** Pipelines whose availability or safety is being worked out right now (both are synchronous). */
  const evaluating = new Set<string>();

  function within<T>(tool: ToolFile, onCycle: () => T, work: () => T): T {
    if (evaluating.has(tool.toolID)) return onCycle();
    evaluating.add(tool.toolID);
    try {
      return work();
    } finally {
      evaluating.delete(tool.toolID);
    }
  }

  function availability(tool: ToolFile): Availability {
    const impl = implOf(tool);
    if ('problem' in impl) return { ok: false, reason: impl.problem };
    if (!steps) return { ok: false, reason: 'pipelines cannot run in this process (no step invoker)' };
    return within(
      tool,
      () => ({ ok: false, reason: `${named(tool)} calls itself through its steps` }),
      () => {
        const invoker = steps();
        for (const step of impl.steps) {
          const found = invoker.find(step.tool, tool.bundleID);
          if ('missing' in found) return { ok: false, reason: `step "${step.id}": ${found.missing}` };
          const a = invoker.availability(found);
          if (!a.ok) return { ok: false, reason: `step "${step.id}" (${stepToolLabel(step.tool, found.bundle.slug)}): ${a.reason ?? 'unavailable'}` };
        }
        return { ok: true };
      },
    );
  }

  function safety(tool: ToolFile): { safety: Safety; because?: string } {
    const impl = implOf(tool);
    if ('problem' in impl || !steps) return { safety: tool.safety };
    return within(
      tool,
      () => ({ safety: tool.safety }),
      () => {
        const invoker = steps();
        let worst: { safety: Safety; because?: string } = { safety: 'readOnly' };
        for (const step of impl.steps) {
          const found = invoker.find(step.tool, tool.bundleID);
          if ('missing' in found) continue;
          const s = invoker.safety(found).safety;
          if (SAFETY_LEVELS.indexOf(s) > SAFETY_LEVELS.indexOf(worst.safety)) {
            worst = { safety: s, because: `its step "${step.id}" (${stepToolLabel(step.tool, found.bundle.slug)}) is ${SAFETY_WORDS[s]}` };
          }
        }
        return worst;
      },
    );
  }

  async function run(ctx: RunContext): Promise<RunOutput> {
    const tool = ctx.tool;
    const impl = implOf(tool);
    if ('problem' in impl) throw new CoreError('TOOL_UNAVAILABLE', `${named(tool)} cannot run: ${impl.problem}`);
    if (!steps) throw new CoreError('TOOL_UNAVAILABLE', `${named(tool)} cannot run: pipelines cannot run in this process (no step invoker)`);
    const invoker = steps();
    const outer = ctx.chain ?? [];
    const path = [...outer, tool].map((t) => t.slug).join(' → ');
    if (outer.some((t) => t.toolID === tool.toolID)) {
      throw new CoreError('TOOL_UNAVAILABLE', `${named(tool)} calls itself (${path}); a pipeline cannot call itself, directly or through others`);
    }
    if (outer.length + 1 > PIPELINE_MAX_DEPTH) {
      throw new CoreError('TOOL_UNAVAILABLE', `pipelines nest deeper than ${PIPELINE_MAX_DEPTH} levels (${path}); flatten them`);
    }
    const chain = [...outer, { toolID: tool.toolID, slug: tool.slug }];

    // One signal for every step's call: the engine's stop or the pipeline's own timeout.
    const stop = new AbortController();
    const signal = stop.signal;
    const seconds = impl.timeoutSeconds ?? PIPELINE_DEFAULT_TIMEOUT_SECONDS;
    const timeout = setTimeout(
      () => stop.abort(new CoreError('TIMEOUT', `${named(tool)} ran longer than its ${seconds} s (impl.timeoutSeconds)`)),
      seconds * 1000,
    );
    timeout.unref();
    const timeline = new Timeline(impl.steps, tool.bundleID, ctx);
    // Registered before the first await, so before the engine's own listener: by the time the
    // engine answers a stop, the running steps read cancelled and the rest skipped.
    const onStop = () => {
      for (const running of timeline.running()) timeline.finish(running, 'cancelled', { error: toApiError(abortError(ctx.signal)) });
      timeline.skipRest();
      stop.abort(ctx.signal.reason);
    };
    if (ctx.signal.aborted) onStop();
    else ctx.signal.addEventListener('abort', onStop, { once: true });

    // Each step's tool and whether it must run alone, judged once as the run starts.
    const targets = impl.steps.map((step) => invoker.find(step.tool, tool.bundleID));
    const alone = targets.map((found) => 'missing' in found || invoker.safety(found).safety !== 'readOnly');
    const deps = stepDependencies(impl.steps);
    const values: (TemplateScope['steps'][string] | undefined)[] = impl.steps.map(() => undefined);

    /** One step, start to end; its failure as the pipeline reports it, or nothing when it went well. */
    const runStep = async (index: number, stepSignal: AbortSignal): Promise<StepFailure | undefined> => {
      const step = impl.steps[index]!;
      const found = targets[index]!;
      if ('missing' in found) {
        const record = timeline.start(index, refOf(step.tool, tool.bundleID), undefined);
        const error: ApiError = { code: 'TOOL_UNAVAILABLE', message: found.missing };
        timeline.finish(record, 'error', { error });
        return { step, label: stepToolLabel(step.tool, step.tool.bundleSlug), error };
      }
      const target: StepTarget = found;
      const label = stepToolLabel(step.tool, target.bundle.slug);
      const stepTool = { bundleID: target.bundle.bundleID, slug: target.tool.file.slug, version: target.tool.file.version };
      // Only the steps it depends on: a step reading any other (a hand edit) fails the same way every run.
      const scope: TemplateScope = { input: ctx.args, steps: {} };
      for (const d of deps[index]!) scope.steps[impl.steps[d]!.id] = values[d]!;
      let args: unknown;
      try {
        args = fill(step, step.args ?? {}, scope);
      } catch (e) {
        if (!(e instanceof TemplateError)) throw e;
        const record = timeline.start(index, stepTool, undefined);
        const error: ApiError = { code: 'INVALID_ARGS', message: `its arguments cannot be filled: ${e.message}` };
        timeline.finish(record, 'error', { error });
        return { step, label, error };
      }
      const record = timeline.start(index, stepTool, maskMarked(args, target.tool.file.argSchema));
      let result: InvokeResult;
      try {
        result = await invoker.invoke(target, {
          args,
          confirm: ctx.confirmed === true,
          caller: pipelineCaller(tool.slug),
          signal: stepSignal,
          chain,
          card: false,
        });
      } catch (e) {
        // A refusal before the step ran (a gate, its arguments): the pipeline fails with it.
        result = { ok: false, invocationID: '', durationMs: 0, error: toApiError(e, { unexpected: 'the step failed' }) };
      }
      if (!result.ok) {
        const error = result.error ?? { code: 'INTERNAL', message: 'the step failed without saying why' };
        timeline.finish(record, error.code === 'CANCELLED' ? 'cancelled' : 'error', { error });
        return { step, label, error };
      }
      timeline.finish(record, 'ok', { value: result.value });
      values[index] = { value: result.value };
      return undefined;
    };

    const schedule = new StepSchedule(deps, alone, PIPELINE_MAX_PARALLEL_STEPS);
    const running = new Map<number, { cancel: AbortController; outcome: Promise<StepOutcome> }>();
    let failed: StepFailure | undefined;
    let thrown: { error: unknown } | undefined;
    try {
      for (;;) {
        if (!failed && !thrown && !signal.aborted) {
          for (const index of schedule.ready()) {
            const cancel = new AbortController();
            const outcome = runStep(index, AbortSignal.any([signal, cancel.signal])).then(
              (failure): StepOutcome => ({ index, failure }),
              (error: unknown): StepOutcome => ({ index, thrown: { error } }),
            );
            running.set(index, { cancel, outcome });
          }
        }
        if (running.size === 0) break;
        const done = await Promise.race([...running.values()].map((r) => r.outcome));
        running.delete(done.index);
        schedule.finished(done.index);
        if ((done.failure || done.thrown) && !failed && !thrown) {
          failed = done.failure;
          thrown = done.thrown;
          // The steps beside it stop too (each through its own engine call), and are waited for.
          const name = impl.steps[done.index]!.id;
          for (const other of running.values()) other.cancel.abort(new CoreError('CANCELLED', `stopped because step "${name}" failed`));
        }
      }
      if (thrown) throw thrown.error;
      if (failed || signal.aborted) {
        timeline.skipRest();
        if (ctx.signal.aborted || !failed) throw abortError(ctx.signal.aborted ? ctx.signal : signal);
        throw new CoreError(failed.error.code, `step "${failed.step.id}" (${failed.label}) failed: ${failed.error.message}`, {
          step: failed.step.id,
          tool: failed.label,
        });
      }
      let value: unknown = values[values.length - 1]?.value;
      if (impl.output !== undefined) {
        const scope: TemplateScope = { input: ctx.args, steps: {} };
        impl.steps.forEach((step, i) => (scope.steps[step.id] = values[i]!));
        try {
          value = fill(impl, impl.output, scope);
        } catch (e) {
          if (!(e instanceof TemplateError)) throw e;
          throw new CoreError('INVALID_OUTPUT', `${named(tool)}'s output cannot be filled: ${e.message}; fix impl.output`);
        }
      }
      return { value, steps: timeline.records };
    } finally {
      clearTimeout(timeout);
      ctx.signal.removeEventListener('abort', onStop);
    }
  }

  return {
    type: 'pipeline',
    availability: (tool) => availability(tool),
    safety,
    run,
  };
}
