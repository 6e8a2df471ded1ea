/** An object of keys to values as JSON has them: not null, not an array (the one test for it, everywhere). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
