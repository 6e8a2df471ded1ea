/**
 * The tool types' slots (./slots.ts), one line per type that fills any, and what generic screens
 * ask of them. Read at each call, not copied at load, so the list is the registry's whatever
 * registers into it (the proof test's throw-away type).
 */
import type { ToolType } from '../../../shared/tool-types/catalog.js';
import type { BundleView, ToolView } from '../../../shared/types.js';
import type { RowStatus, TypeSlots } from './slots.js';
import { upstreamSlots } from './upstream/slots.js';
import { containerSlots } from './container/slots.js';

export const TYPE_SLOTS: Partial<Record<ToolType, TypeSlots>> = {
  mcp: upstreamSlots,
  container: containerSlots,
};

type Slot = Exclude<keyof TypeSlots, 'ownsBundle' | 'rowStatus'>;

/** Every type's filling of one slot, in the registry's order, with a key for React lists. */
export function slotsOf<K extends Slot>(slot: K): { key: string; Slot: NonNullable<TypeSlots[K]> }[] {
  return Object.entries(TYPE_SLOTS).flatMap(([key, slots]) => (slots?.[slot] ? [{ key, Slot: slots[slot]! }] : []));
}

/** The slots of the type that owns a bundle (a bundle of an upstream server), or undefined for a bundle of the person's own tools. */
export function ownerOf(bundle: BundleView): TypeSlots | undefined {
  return Object.values(TYPE_SLOTS).find((slots) => slots?.ownsBundle?.(bundle));
}

/** The first type's word for a tool's row, or undefined: the generic reading stands. */
export function rowStatusOf(tool: ToolView): RowStatus | undefined {
  for (const slots of Object.values(TYPE_SLOTS)) {
    const status = slots?.rowStatus?.(tool);
    if (status) return status;
  }
  return undefined;
}
