/**
 * The order a pipeline's steps may run in (the safety tiers' run policy): a step depends on the
 * earlier steps its arguments read (`${steps.<id>.value…}`); a read-only step starts as soon as
 * those are done, beside other ready read-only steps (at most PIPELINE_MAX_PARALLEL_STEPS at
 * once); any other step runs alone: it waits for every step before it, and no step after it
 * starts until it is done. So side effects happen one at a time, in the declared order.
 */
import { parseRef, templatePlaceholders } from '../../../../shared/tool-types/pipeline-templates.js';

interface StepShape {
  id: string;
  args?: Record<string, unknown>;
}

/** For each step, the indices of the earlier steps its arguments read, ascending. */
export function stepDependencies(steps: readonly StepShape[]): number[][] {
  const indexOf = new Map<string, number>();
  return steps.map((step, i) => {
    const deps = new Set<number>();
    for (const p of templatePlaceholders(step.args ?? {}, 'args')) {
      const ref = parseRef(p.expr);
      const at = ref.kind === 'step' ? indexOf.get(ref.id) : undefined;
      if (at !== undefined) deps.add(at);
    }
    // Registered after its own args are read: a step never depends on itself or a later one.
    if (!indexOf.has(step.id)) indexOf.set(step.id, i);
    return [...deps].sort((a, b) => a - b);
  });
}

type StepState = 'waiting' | 'running' | 'done';

/** Which steps may start now, given which are running and done. */
export class StepSchedule {
  private readonly states: StepState[];

  /**
   * @param deps each step's dependencies (stepDependencies)
   * @param alone per step: true when it must run alone (not read-only, or its tool is not known)
   */
  constructor(
    private readonly deps: readonly (readonly number[])[],
    private readonly alone: readonly boolean[],
    private readonly maxAtOnce: number,
  ) {
    this.states = deps.map(() => 'waiting');
  }

  /** The steps that may start now, in declared order; the caller starts them all. */
  ready(): number[] {
    const out: number[] = [];
    let busy = this.states.filter((s) => s === 'running').length;
    for (let i = 0; i < this.states.length; i++) {
      const state = this.states[i];
      if (this.alone[i] && state !== 'done') {
        // Nothing after a step that runs alone starts before it ends; it starts once all before it ended.
        if (state === 'waiting' && busy === 0 && this.states.slice(0, i).every((s) => s === 'done')) out.push(i);
        break;
      }
      if (state !== 'waiting') continue;
      if (busy >= this.maxAtOnce) break;
      if (this.deps[i]!.every((d) => this.states[d] === 'done')) {
        out.push(i);
        busy++;
      }
    }
    for (const i of out) this.states[i] = 'running';
    return out;
  }

  finished(index: number): void {
    this.states[index] = 'done';
  }
}
