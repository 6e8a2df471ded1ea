/** A run's arguments from the command line: --args JSON, repeated --arg name=value (typed by the argSchema) or stdin. */
import { CliFailure } from './failure.js';

function typedArg(value: string, schema: unknown): unknown {
  const type = typeof schema === 'object' && schema !== null ? (schema as { type?: unknown }).type : undefined;
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('integer') || types.includes('number')) {
    const n = Number(value);
    if (value.trim() !== '' && Number.isFinite(n)) return n;
  }
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  if (types.includes('null') && value === 'null') return null;
  if (types.includes('object') || types.includes('array')) {
    try {
      return JSON.parse(value);
    } catch {
      throw new CliFailure({ code: 'INVALID_ARGS', message: `--arg value '${value.slice(0, 60)}' must be JSON for an ${types.join('/')} argument` });
    }
  }
  return value;
}

export function parseArgs(argSchema: unknown, json: string | undefined, pairs: string[], stdin?: string): Record<string, unknown> {
  let args: Record<string, unknown> = {};
  const text = json ?? (pairs.length === 0 && stdin?.trim() ? stdin : undefined);
  if (text !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new CliFailure({ code: 'INVALID_ARGS', message: `the arguments are not valid JSON; pass an object such as --args '{"city":"Lyon"}'` });
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new CliFailure({ code: 'INVALID_ARGS', message: 'the arguments must be a JSON object' });
    }
    args = parsed as Record<string, unknown>;
  }
  const properties =
    (typeof argSchema === 'object' && argSchema !== null ? (argSchema as { properties?: Record<string, unknown> }).properties : undefined) ?? {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliFailure({ code: 'INVALID_ARGS', message: `--arg '${pair}' must be name=value` });
    const name = pair.slice(0, eq);
    args[name] = typedArg(pair.slice(eq + 1), Object.hasOwn(properties, name) ? properties[name] : undefined);
  }
  return args;
}

/** commander's collector for a repeatable option. */
export const collect = (value: string, previous: string[]) => [...previous, value];
