/**
 * The safety a tool gets when its file or its input does not say, judged from its impl. Plain
 * (no TypeBox), so the store can fill a hand-written file in memory and the core's tool types
 * use the same judgement when a tool is saved.
 */
import type { Safety } from '../schemas.js';
import type { TOOL_TYPE_NAMES } from './constants.js';

type ImplFields = Record<string, unknown>;

/** One judgement per type of constants.ts (the registry line of each type): a type added there and missing here is a compile error. */
export const DEFAULT_SAFETY: { readonly [T in (typeof TOOL_TYPE_NAMES)[number]]: (impl: ImplFields) => Safety } = {
  function: () => 'readOnly',
  http(impl) {
    const m = String(impl['method'] ?? 'GET').toUpperCase();
    return m === 'GET' || m === 'HEAD' || m === 'OPTIONS' ? 'readOnly' : 'sideEffecting';
  },
  container(impl) {
    // A container with no network and a read-only root cannot change anything outside itself.
    const sandbox = (impl['sandbox'] ?? {}) as ImplFields;
    return sandbox['network'] === 'bridge' || sandbox['writable'] === true ? 'sideEffecting' : 'readOnly';
  },
  // Raised at save to the most dangerous step's, and at run time by the runner.
  pipeline: () => 'readOnly',
  // Set at sync from the upstream's annotations; a tool.json without one is judged as MCP does.
  mcp: () => 'sideEffecting',
};

/** The default safety of a tool of this type and impl; an unknown type is treated as the most dangerous. */
export function defaultSafetyOf(type: string, impl: ImplFields): Safety {
  return Object.hasOwn(DEFAULT_SAFETY, type) ? DEFAULT_SAFETY[type as keyof typeof DEFAULT_SAFETY](impl) : 'privileged';
}
