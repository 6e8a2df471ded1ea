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
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
