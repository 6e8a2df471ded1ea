/**
 * Three-way merge of JSON values, for a save that met a newer file (MODIFIED_ELSEWHERE): `base`
 * is what the edit started from, `mine` the edit, `theirs` the file as saved elsewhere since.
 * What only one side changed is taken from that side; objects merge key by key, so one person's
 * new argument and another's new description both survive; arrays, strings and numbers are
 * whole values. Where both sides changed the same value differently, the merge reports a
 * conflict (and keeps mine until the person chooses).
 */
import { isPlainObject } from '../../../../../shared/plain-object.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonPath = readonly string[];

export interface MergeConflict {
  path: JsonPath;
  /** undefined: absent on that side (added or removed there). */
  base: Json | undefined;
  mine: Json | undefined;
  theirs: Json | undefined;
}

export interface MergeResult {
  merged: Json | undefined;
  conflicts: MergeConflict[];
}

export function jsonEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as Json[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ao = a as { [key: string]: Json };
  const bo = b as { [key: string]: Json };
  const ak = Object.keys(ao);
  return ak.length === Object.keys(bo).length && ak.every((k) => Object.hasOwn(bo, k) && jsonEqual(ao[k], bo[k]));
}

/** Assignment that also works for a key named __proto__ (JSON may hold one; `o[k] = v` would set the prototype). */
function put(o: { [key: string]: Json }, key: string, value: Json): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

function own(o: { [key: string]: Json } | undefined, key: string): Json | undefined {
  return o && Object.hasOwn(o, key) ? o[key] : undefined;
}

export function threeWayMerge(base: Json | undefined, mine: Json | undefined, theirs: Json | undefined, path: JsonPath = []): MergeResult {
  if (jsonEqual(mine, theirs)) return { merged: mine, conflicts: [] };
  if (jsonEqual(mine, base)) return { merged: theirs, conflicts: [] };
  if (jsonEqual(theirs, base)) return { merged: mine, conflicts: [] };
  if (isPlainObject(mine) && isPlainObject(theirs) && (base === undefined || isPlainObject(base))) {
    const b = base;
    // Their key order first (the file on disk), then keys only I added.
    const keys = [...Object.keys(theirs), ...Object.keys(mine).filter((k) => !Object.hasOwn(theirs, k))];
    const merged: { [key: string]: Json } = {};
    const conflicts: MergeConflict[] = [];
    for (const key of keys) {
      const r = threeWayMerge(own(b, key), own(mine, key), own(theirs, key), [...path, key]);
      if (r.merged !== undefined) put(merged, key, r.merged);
      conflicts.push(...r.conflicts);
    }
    return { merged, conflicts };
  }
  return { merged: mine, conflicts: [{ path, base, mine, theirs }] };
}

/**
 * `stored` with the edits laid over it: where `edited` (the form's output after the person's
 * changes) equals `asOpened` (the form's output for `stored` untouched), the stored value goes
 * back as it is, absent included; objects are compared key by key, so a key the form never
 * writes is kept and one edited field of an object the file leaves out adds that field alone;
 * arrays and other values are whole.
 */
export function overlayEdits(asOpened: Json | undefined, edited: Json | undefined, stored: Json | undefined): Json | undefined {
  if (jsonEqual(edited, asOpened)) return stored;
  if (!isPlainObject(edited) || !isPlainObject(asOpened) || !(stored === undefined || isPlainObject(stored))) return edited;
  const base = stored ?? {};
  const out: { [key: string]: Json } = {};
  // The stored key order first (the file on disk), then keys the person added.
  for (const key of [...Object.keys(base), ...Object.keys(edited).filter((k) => !Object.hasOwn(base, k))]) {
    const value = overlayEdits(own(asOpened, key), own(edited, key), own(base, key));
    if (value !== undefined) put(out, key, value);
  }
  return out;
}

export const pathKey = (path: JsonPath): string => JSON.stringify(path);

/** Sets (or, for undefined, removes) the value at `path`, copying the objects on the way. */
export function setAt(root: Json | undefined, path: JsonPath, value: Json | undefined): Json | undefined {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const obj: { [key: string]: Json } = {};
  if (isPlainObject(root)) for (const k of Object.keys(root)) put(obj, k, root[k]!);
  const next = setAt(own(obj, head!), rest, value);
  if (next === undefined) delete obj[head!];
  else put(obj, head!, next);
  return obj;
}

/** The merge with each conflict settled: by the person's choice, mine where none was made. */
export function resolveConflicts(result: MergeResult, choices: ReadonlyMap<string, 'mine' | 'theirs'>): Json | undefined {
  let out = result.merged;
  for (const c of result.conflicts) out = setAt(out, c.path, choices.get(pathKey(c.path)) === 'theirs' ? c.theirs : c.mine);
  return out;
}

/** The top-level keys whose values differ between two objects (what one side changed). */
export function changedKeys(from: Json | undefined, to: Json | undefined): string[] {
  const a = isPlainObject(from) ? from : {};
  const b = isPlainObject(to) ? to : {};
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => !jsonEqual(own(a, k), own(b, k)));
}
