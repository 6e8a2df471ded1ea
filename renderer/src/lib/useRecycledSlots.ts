/**
 * Slots for the rows of a virtualised list, so that scrolling reuses row elements instead of
 * building new ones: a row keeps its slot while it stays in view, and a row coming into view takes
 * the slot of one that left (React then updates that element's text and attributes in place). A
 * wheel turn that brings 40 new rows into view cost 40 unmounts and 40 mounts of a row's ~25
 * elements before (removeChild, createElement and the new elements' style recalculation were most
 * of a scroll frame in a profile); now it is 40 updates.
 *
 * `retire`: a row whose element must not show another row once it leaves view (the focused row:
 * its element goes away with it, as before, rather than keep the focus while showing another tool).
 */
import { useRef } from 'react';

export function assignSlots(ids: readonly string[], previous: ReadonlyMap<string, number>, retire?: string): { slots: number[]; byId: Map<string, number> } {
  const byId = new Map<string, number>();
  const taken = new Set<number>();
  for (const id of ids) {
    const slot = previous.get(id);
    if (slot !== undefined) {
      byId.set(id, slot);
      taken.add(slot);
    }
  }
  const retired = retire !== undefined && !byId.has(retire) ? previous.get(retire) : undefined;
  if (retired !== undefined) taken.add(retired);
  const free = [...previous.values()].filter((slot) => !taken.has(slot)).sort((a, b) => a - b);
  let nextFree = 0;
  let fresh = 0;
  const slots = ids.map((id) => {
    let slot = byId.get(id);
    if (slot === undefined) {
      if (nextFree < free.length) slot = free[nextFree++]!;
      else {
        while (taken.has(fresh)) fresh++;
        slot = fresh;
      }
      taken.add(slot);
      byId.set(id, slot);
    }
    return slot;
  });
  return { slots, byId };
}

/** The slot of each row id in view, stable across renders (see assignSlots). */
export function useRecycledSlots(ids: readonly string[], retire?: string): number[] {
  const previous = useRef<ReadonlyMap<string, number>>(new Map());
  const { slots, byId } = assignSlots(ids, previous.current, retire);
  // Written during render: the same ids give the same slots when a render runs twice (StrictMode);
  // a render React throws away only costs some rows a fresh element, never two rows one key.
  previous.current = byId;
  return slots;
}
