/** The virtualised list's row slots (renderer/src/lib/useRecycledSlots.ts): rows scrolled in reuse the elements of rows scrolled out. */
import { describe, expect, it } from 'vitest';
import { assignSlots } from '../../renderer/src/lib/useRecycledSlots.js';

const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `t${from + i}`);

describe('assignSlots', () => {
  it('numbers the first rows from 0, and a row keeps its slot while it stays in view', () => {
    const first = assignSlots(ids(0, 5), new Map());
    expect(first.slots).toEqual([0, 1, 2, 3, 4]);
    const next = assignSlots(ids(2, 7), first.byId);
    expect(next.slots.slice(0, 3)).toEqual([2, 3, 4]);
  });

  it('gives rows scrolled in the slots of rows scrolled out, so no slot (element) is added or dropped', () => {
    const first = assignSlots(ids(0, 36), new Map());
    // A wheel turn past the whole window: every row is new, every slot is reused.
    const jump = assignSlots(ids(46, 82), first.byId);
    expect([...jump.slots].sort((a, b) => a - b)).toEqual(first.slots);
    const small = assignSlots(ids(47, 83), jump.byId);
    expect(new Set(small.slots).size).toBe(36);
    expect(small.slots.slice(0, 35)).toEqual(jump.slots.slice(1));
    expect(small.slots[35]).toBe(jump.slots[0]);
  });

  it('never gives the slot of the retired row (the focused one) to another row once it left view', () => {
    const first = assignSlots(ids(0, 4), new Map());
    const after = assignSlots(ids(4, 8), first.byId, 't1');
    expect(after.slots).not.toContain(first.byId.get('t1'));
    expect(new Set(after.slots).size).toBe(4);
    // While the retired row is in view it keeps its slot like any other.
    expect(assignSlots(ids(1, 5), first.byId, 't1').slots[0]).toBe(first.byId.get('t1'));
  });

  it('gives the same slots when the same rows render twice (StrictMode renders twice)', () => {
    const first = assignSlots(ids(0, 10), new Map());
    const once = assignSlots(ids(5, 15), first.byId);
    const twice = assignSlots(ids(5, 15), once.byId);
    expect(twice.slots).toEqual(once.slots);
  });
});
