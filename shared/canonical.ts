/**
 * Pretty JSON with a stable key order: the listed keys first, in that order, then any other
 * keys sorted. Only the top level is reordered: nested objects (JSON Schemas the user wrote)
 * keep the order the user gave, because property order is meaningful to people and forms.
 */
export function canonicalJson(value: Record<string, unknown>, keyOrder: readonly string[]): string {
  const out: Record<string, unknown> = {};
  for (const key of keyOrder) {
    if (value[key] !== undefined) out[key] = value[key];
  }
  for (const key of Object.keys(value)
    .filter((k) => !keyOrder.includes(k))
    .sort()) {
    if (value[key] !== undefined) out[key] = value[key];
  }
  return JSON.stringify(out, null, 2) + '\n';
}

/**
 * Compact JSON with the keys of every object, at every depth, in code-unit order: the same value
 * always gives the same text whatever order it was written in, for digests (an MCP tool's pinned
 * definition, an approval bound to one call).
 */
export function sortedKeysJson(value: unknown): string {
  // Every audit record's hash and every call's argument digest goes through here: plain data is
  // written directly; anything else (toJSON, class instances, integer-like keys, cycles) as before.
  try {
    return plainSortedJson(value, false) as string;
  } catch {
    return sortedKeysJsonByReplacer(value);
  }
}

/** The definition: JSON.stringify with every object's keys sorted (what plainSortedJson must equal). */
export function sortedKeysJsonByReplacer(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** A key JSON.stringify puts first wherever it stands (an array index: integer keys lead an object's order). */
const INDEX_KEY = /^(?:0|[1-9]\d*)$/;
const NOT_PLAIN = new Error('not plain data');

/**
 * Plain data (strings, numbers, booleans, null, arrays, objects whose prototype is Object's or
 * null, without toJSON or integer-like keys) exactly as sortedKeysJsonByReplacer writes it;
 * throws for anything else. Undefined where JSON.stringify leaves a value out.
 */
function plainSortedJson(v: unknown, inArray: boolean): string | undefined {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? JSON.stringify(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return inArray ? 'null' : undefined;
    case 'object': {
      if (v === null) return 'null';
      if (typeof (v as { toJSON?: unknown }).toJSON === 'function') throw NOT_PLAIN;
      if (Array.isArray(v)) {
        let out = '[';
        for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + (plainSortedJson(v[i], true) as string);
        return out + ']';
      }
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
      let out = '{';
      for (const key of Object.keys(v).sort()) {
        if (INDEX_KEY.test(key)) throw NOT_PLAIN;
        const text = plainSortedJson((v as Record<string, unknown>)[key], false);
        if (text === undefined) continue;
        out += (out.length > 1 ? ',' : '') + JSON.stringify(key) + ':' + text;
      }
      return out + '}';
    }
    default:
      throw NOT_PLAIN;
  }
}
