/**
 * How a pipeline reaches the tools its steps call. The pipeline runner knows nothing of the
 * store or the engine: it gets this interface (through RunnerServices.steps, a thunk, because the
 * engine is built from the runners) and every step goes through the engine's gates like any
 * other call. engine-steps.ts is the implementation the composition root builds.
 */
import type { BundleFile, Safety } from '../../../../shared/schemas.js';
import type { StepToolRef } from '../../../../shared/tool-types/pipeline.js';
import type { Availability, InvokeResult } from '../../../../shared/types.js';
import type { EngineTool, InvokeInput } from '../../invoke/engine.js';

/** The tool a step calls, found, with its bundle. */
export interface StepTarget {
  tool: EngineTool;
  bundle: BundleFile;
}

export interface StepInvoker {
  /** The tool a step names: in `ref.bundleID`, else in the pipeline's own bundle; or why there is none. */
  find(ref: StepToolRef, ownBundleID: string): StepTarget | { missing: string };
  /** Whether a call would be admitted now as far as the tool goes: its switches, its bundle's, and the engine's availability. */
  availability(target: StepTarget): Availability;
  /** The safety a call has now (a nested pipeline: its most dangerous step's). */
  safety(target: StepTarget): { safety: Safety; because?: string };
  /** One call through the engine: every gate, validation, limits, history. Throws the refusals the engine throws. */
  invoke(target: StepTarget, input: InvokeInput): Promise<InvokeResult>;
}
