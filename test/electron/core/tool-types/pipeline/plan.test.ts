/** The pipeline step plan on its own: dependencies read from templates, and which steps may start when. */
import { describe, expect, it } from 'vitest';
import { StepSchedule, stepDependencies } from '../../../../../electron/core/tool-types/pipeline/plan.js';
import { PIPELINE_MAX_PARALLEL_STEPS } from '../../../../../shared/tool-types/pipeline.js';

describe('stepDependencies', () => {
  it('reads the earlier steps a step names, however deep in its arguments, and nothing else', () => {
    const deps = stepDependencies([
      { id: 'a' },
      { id: 'b', args: { x: '${input.q}' } },
      { id: 'c', args: { x: 'from ${steps.a.value.name}', y: [{ z: '${steps.b.value}' }], self: '${steps.c.value}' } },
      { id: 'd', args: { later: '${steps.e.value}', odd: '${nonsense}' } },
      { id: 'e', args: { x: '${steps.c.value}' } },
    ]);
    expect(deps).toEqual([[], [], [0, 1], [], [2]]);
  });
});

describe('StepSchedule', () => {
  it(`starts at most ${PIPELINE_MAX_PARALLEL_STEPS} read-only steps at once, the next as one ends`, () => {
    const schedule = new StepSchedule(
      Array.from({ length: 6 }, () => []),
      Array.from({ length: 6 }, () => false),
      PIPELINE_MAX_PARALLEL_STEPS,
    );
    expect(schedule.ready()).toEqual([0, 1, 2, 3]);
    expect(schedule.ready()).toEqual([]);
    schedule.finished(2);
    expect(schedule.ready()).toEqual([4]);
  });

  it('runs a step that is not read-only alone, after everything before it and before everything after it', () => {
    const schedule = new StepSchedule([[], [], [], [], []], [false, false, true, false, false], 4);
    expect(schedule.ready()).toEqual([0, 1]);
    schedule.finished(1);
    expect(schedule.ready()).toEqual([]);
    schedule.finished(0);
    expect(schedule.ready()).toEqual([2]);
    expect(schedule.ready()).toEqual([]);
    schedule.finished(2);
    expect(schedule.ready()).toEqual([3, 4]);
  });

  it('lets an independent read-only step pass one that waits for its dependency', () => {
    const schedule = new StepSchedule([[], [0], []], [false, false, false], 4);
    expect(schedule.ready()).toEqual([0, 2]);
    schedule.finished(0);
    expect(schedule.ready()).toEqual([1]);
  });
});
