/**
 * Schemas of an OpenAPI document as the JSON Schemas tools validate with (draft 7, ajv).
 *
 * - OpenAPI 3.0's dialect is converted by @openapi-contrib/openapi-schema-to-json-schema (the
 *   OpenAPI Initiative's contributors' converter: `nullable` with or without `type`,
 *   `example`, readOnly/writeOnly, OpenAPI-only keywords); it writes draft 4, so boolean
 *   `exclusiveMinimum`/`exclusiveMaximum` are then turned into draft 7's numbers here.
 *   OpenAPI 3.1 schemas already are JSON Schema and stay as they are.
 * - In an imported outputSchema `format` is an annotation, not a rule: a real API's own
 *   answers break it (a relative URI in a `format: uri` field), and a tool must not fail on
 *   the API it wraps. Arguments keep `format` strict.
 */
import { fromSchema } from '@openapi-contrib/openapi-schema-to-json-schema';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);

/** Keywords whose values are data, not schemas: never walked as schemas. */
export const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'enum', 'const']);

/** Draft 4's boolean exclusive bounds as draft 7's numeric ones, everywhere in a schema. */
function draft7Bounds(node: unknown, depth = 0): unknown {
  if (depth > 200) return node;
  if (Array.isArray(node)) return node.map((n) => draft7Bounds(n, depth + 1));
  const o = obj(node);
  if (!o) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) out[k] = DATA_KEYWORDS.has(k) ? v : draft7Bounds(v, depth + 1);
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else if (typeof out[flag] === 'boolean') delete out[flag];
  }
  return out;
}

export function toJsonSchema(schema: unknown, openapi30: boolean): Json {
  const o = obj(schema);
  if (!o) return typeof schema === 'boolean' ? (schema ? {} : { not: {} }) : {};
  if (!openapi30) return o;
  const converted = fromSchema(o as never, { cloneSchema: true, supportPatternProperties: true }) as Json;
  delete converted['$schema'];
  return draft7Bounds(converted) as Json;
}

/** `format` kept as words in the description, no longer a rule (for outputSchemas). */
export function formatsAsAnnotations(node: unknown, depth = 0): unknown {
  if (depth > 200) return node;
  if (Array.isArray(node)) return node.map((n) => formatsAsAnnotations(n, depth + 1));
  const o = obj(node);
  if (!o) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) out[k] = DATA_KEYWORDS.has(k) ? v : formatsAsAnnotations(v, depth + 1);
  if (typeof out['format'] === 'string') {
    const format = out['format'];
    delete out['format'];
    out['description'] = typeof out['description'] === 'string' && out['description'] ? `${out['description']} (format: ${format})` : `format: ${format}`;
  }
  return out;
}
