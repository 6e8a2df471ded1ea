/**
 * Bounds on what a request or a file may carry, so no input can exhaust the stack, the CPU or
 * the size of an answer. Named once here; docs/limits.md lists them all.
 */

/** Deepest nesting of an argSchema or outputSchema, and of a tool's arguments. */
export const MAX_SCHEMA_DEPTH = 64;
export const MAX_ARGS_DEPTH = 64;
/** Deepest nesting of any operation input (a tool body wraps its schemas in a few levels). */
export const MAX_INPUT_DEPTH = 100;
/** An error lists at most this many issues, then says how many there were. */
export const MAX_ISSUES = 20;
/** Longest excerpt of a value or key quoted in an error or a problem. */
export const MAX_QUOTE_CHARS = 200;

/**
 * Where a value nests deeper than `max` levels (objects and arrays), as a path such as
 * "argSchema.properties.a.properties.a…" (cut to a readable length), or undefined. Iterative: a
 * value 100,000 levels deep is measured without recursion.
 */
export function depthExceeded(value: unknown, max: number, root = ''): string | undefined {
  const stack: { v: unknown; depth: number; path: string[] }[] = [{ v: value, depth: 0, path: root ? [root] : [] }];
  while (stack.length) {
    const { v, depth, path } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return describePath(path);
    const entries: [string, unknown][] = Array.isArray(v) ? v.map((x, i) => [`[${i}]`, x]) : Object.entries(v);
    for (const [k, x] of entries) if (x !== null && typeof x === 'object') stack.push({ v: x, depth: depth + 1, path: [...path.slice(-12), k] });
  }
  return undefined;
}

function describePath(parts: string[]): string {
  const joined = parts.map((p, i) => (p.startsWith('[') || i === 0 ? p : `.${quoteKey(p)}`)).join('');
  return parts.length >= 13 ? `…${joined}` : joined;
}

/** A key or value as an error may quote it: at most MAX_QUOTE_CHARS characters, then "…". */
export function quoteKey(s: string, max = MAX_QUOTE_CHARS): string {
  return s.length <= max ? s : `${s.slice(0, max)}…`;
}

/** Upstream MCP servers not called for this long are stopped, unless config.upstreamIdleMinutes says otherwise. */
export const DEFAULT_UPSTREAM_IDLE_MINUTES = 10;
export const MAX_UPSTREAM_IDLE_MINUTES = 7 * 24 * 60;
