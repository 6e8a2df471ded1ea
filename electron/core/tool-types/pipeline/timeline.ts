/** The steps of one pipeline run, as the tester shows them live and the history keeps them. */
import { performance } from 'node:perf_hooks';
import type { ApiError } from '../../../../shared/errors.js';
import type { PipelineStepRecord } from '../../../../shared/types.js';
import type { PipelineStep, StepToolRef } from '../../../../shared/tool-types/pipeline.js';
import type { RunContext } from '../../invoke/types.js';

/** Now as ISO 8601; steps that take microseconds start within one millisecond, and formatting is the slow part. */
let isoAt = { ms: 0, text: '' };
function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoAt.ms) isoAt = { ms, text: new Date(ms).toISOString() };
  return isoAt.text;
}

export function refOf(ref: StepToolRef, ownBundleID: string): PipelineStepRecord['tool'] {
  return { bundleID: (ref.bundleID ?? ownBundleID).toLowerCase(), slug: ref.slug, version: ref.version };
}

/**
 * One record per step, kept by its place in the pipeline: steps may start out of order (read-only
 * ones run side by side), but the answer, the history and keepPartial list them as declared.
 */
export class Timeline {
  private readonly slots: (PipelineStepRecord | undefined)[];
  private readonly started = new Map<PipelineStepRecord, number>();

  constructor(
    private readonly steps: readonly PipelineStep[],
    private readonly ownBundleID: string,
    private readonly ctx: RunContext,
  ) {
    this.slots = steps.map(() => undefined);
  }

  /** The steps started or skipped so far, in declared order. */
  get records(): PipelineStepRecord[] {
    return this.slots.filter((r): r is PipelineStepRecord => r !== undefined);
  }

  start(index: number, tool: PipelineStepRecord['tool'], args: unknown): PipelineStepRecord {
    const record: PipelineStepRecord = { id: this.steps[index]!.id, tool, status: 'running', startedAt: isoNow() };
    if (args !== undefined) record.args = args;
    this.slots[index] = record;
    this.started.set(record, performance.now());
    this.publish(record);
    return record;
  }

  /** Ends a running step; a step already ended (by a stop) stays as it is. */
  finish(record: PipelineStepRecord, status: PipelineStepRecord['status'], patch: { value?: unknown; error?: ApiError }): void {
    if (record.status !== 'running') return;
    record.status = status;
    record.durationMs = Math.round((performance.now() - (this.started.get(record) ?? performance.now())) * 100) / 100;
    if (patch.value !== undefined) record.value = patch.value;
    if (patch.error) record.error = patch.error;
    this.publish(record);
  }

  running(): PipelineStepRecord[] {
    return this.records.filter((r) => r.status === 'running');
  }

  /** The steps that never started. */
  skipRest(): void {
    this.steps.forEach((step, i) => {
      if (this.slots[i]) return;
      const record: PipelineStepRecord = { id: step.id, tool: refOf(step.tool, this.ownBundleID), status: 'skipped' };
      this.slots[i] = record;
      this.publish(record);
    });
  }

  private publish(record: PipelineStepRecord): void {
    if (this.ctx.emit) this.ctx.emit({ type: 'step', step: { ...record } });
    this.ctx.keepPartial?.({ steps: this.records });
  }
}
