/**
 * tool.json as the original spec writes it, read as Toolwright's: `"type":"go"` is a `function`
 * tool and its `impl.goFunc` the function's name; `tags`, `safety`, `card` and `limits`, which
 * the spec does not have, take their defaults. Only in memory: the file keeps what its author
 * wrote, and a change to it (switching it on or off) writes back only the changed field.
 */
import { normalizeToolType } from './catalog.js';
import { defaultSafetyOf } from './default-safety.js';
import { isPlainObject } from '../plain-object.js';

/** The impl in Toolwright's spelling: a function tool's `goFunc` becomes `function`. */
export function implFromSpec(type: string, impl: unknown): unknown {
  if (normalizeToolType(type) !== 'function' || !isPlainObject(impl) || !Object.hasOwn(impl, 'goFunc') || Object.hasOwn(impl, 'function')) return impl;
  const { goFunc, ...rest } = impl;
  return { function: goFunc, ...rest };
}

/** A tool.json value as the store holds it in memory; anything that is not an object is returned as it is, for the schema to refuse. */
export function toolFromSpec(value: unknown): unknown {
  if (!isPlainObject(value) || typeof value['type'] !== 'string') return value;
  const type = normalizeToolType(value['type']);
  const impl = implFromSpec(value['type'], value['impl']);
  return {
    ...value,
    type,
    impl,
    tags: value['tags'] ?? [],
    safety: value['safety'] ?? defaultSafetyOf(type, isPlainObject(impl) ? impl : {}),
    card: value['card'] ?? { enabled: true },
    limits: value['limits'] ?? {},
  };
}
