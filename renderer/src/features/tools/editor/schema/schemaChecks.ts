/**
 * Checks of a JSON Schema as the user types, with the path of each problem so the editor can
 * underline the exact key. The server compiles the schema for real on save; these catch the
 * usual slips early (a misspelt type, required names that do not exist, a bad regex).
 */
import type { JsonIssue } from '../../../../components/code/JsonEditor.js';
import { isPlainObject } from '../../../../../../shared/plain-object.js';

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const SCHEMA_MAP_KEYS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LIST_KEYS = ['oneOf', 'anyOf', 'allOf', 'prefixItems'];
const SCHEMA_KEYS = [
  'not',
  'if',
  'then',
  'else',
  'additionalProperties',
  'contains',
  'propertyNames',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
];
const NUMBER_KEYS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const COUNT_KEYS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'];

type Path = (string | number)[];

function walk(schema: unknown, path: Path, out: JsonIssue[], depth: number): void {
  if (depth > 64) return;
  if (typeof schema === 'boolean') return;
  if (!isPlainObject(schema)) {
    out.push({ path, message: 'a schema must be an object (or true/false)' });
    return;
  }
  const type = schema['type'];
  if (type !== undefined) {
    const list = Array.isArray(type) ? type : [type];
    list.forEach((t, i) => {
      if (typeof t !== 'string' || !TYPES.has(t)) {
        out.push({
          path: Array.isArray(type) ? [...path, 'type', i] : [...path, 'type'],
          message: `unknown type ${JSON.stringify(t)}; use one of ${[...TYPES].join(', ')}`,
        });
      }
    });
  }
  for (const key of SCHEMA_MAP_KEYS) {
    const map = schema[key];
    if (map === undefined) continue;
    if (!isPlainObject(map)) {
      out.push({ path: [...path, key], message: `${key} must be an object of schemas` });
      continue;
    }
    for (const [name, sub] of Object.entries(map)) {
      if (key === 'patternProperties') checkRegex(name, [...path, key, name], out);
      walk(sub, [...path, key, name], out, depth + 1);
    }
  }
  for (const key of SCHEMA_LIST_KEYS) {
    const list = schema[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || (key !== 'prefixItems' && list.length === 0)) {
      out.push({ path: [...path, key], message: `${key} must be a non-empty array of schemas` });
      continue;
    }
    list.forEach((sub, i) => walk(sub, [...path, key, i], out, depth + 1));
  }
  for (const key of SCHEMA_KEYS) if (schema[key] !== undefined) walk(schema[key], [...path, key], out, depth + 1);
  const items = schema['items'];
  if (Array.isArray(items)) items.forEach((sub, i) => walk(sub, [...path, 'items', i], out, depth + 1));
  else if (items !== undefined) walk(items, [...path, 'items'], out, depth + 1);

  const required = schema['required'];
  if (required !== undefined) {
    if (!Array.isArray(required) || required.some((r) => typeof r !== 'string')) {
      out.push({ path: [...path, 'required'], message: 'required must be an array of property names' });
    } else if (isPlainObject(schema['properties'])) {
      const props = schema['properties'];
      required.forEach((r, i) => {
        if (!(r in props)) out.push({ path: [...path, 'required', i], message: `"${r}" is required but not listed in properties`, severity: 'warning' });
      });
    }
  }
  const en = schema['enum'];
  if (en !== undefined && (!Array.isArray(en) || en.length === 0)) out.push({ path: [...path, 'enum'], message: 'enum must be a non-empty array' });
  if (typeof schema['pattern'] === 'string') checkRegex(schema['pattern'], [...path, 'pattern'], out);
  else if (schema['pattern'] !== undefined) out.push({ path: [...path, 'pattern'], message: 'pattern must be a string' });
  for (const key of NUMBER_KEYS) {
    const v = schema[key];
    if (v !== undefined && typeof v !== 'number' && !(typeof v === 'boolean' && key.startsWith('exclusive'))) {
      out.push({ path: [...path, key], message: `${key} must be a number` });
    }
  }
  for (const key of COUNT_KEYS) {
    const v = schema[key];
    if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < 0))
      out.push({ path: [...path, key], message: `${key} must be a non-negative integer` });
  }
  if (schema['$ref'] !== undefined && typeof schema['$ref'] !== 'string') out.push({ path: [...path, '$ref'], message: '$ref must be a string' });
}

function checkRegex(source: string, path: Path, out: JsonIssue[]): void {
  try {
    new RegExp(source, 'u');
  } catch (e) {
    out.push({ path, message: `not a valid regular expression: ${(e as Error).message}` });
  }
}

export function checkJsonSchema(value: unknown): JsonIssue[] {
  const out: JsonIssue[] = [];
  walk(value, [], out, 0);
  return out;
}

/** Arguments always arrive as one JSON object, so the top of argSchema should say so. */
export function checkArgSchema(value: unknown): JsonIssue[] {
  const out = checkJsonSchema(value);
  if (isPlainObject(value) && value['type'] !== undefined && value['type'] !== 'object') {
    out.push({ path: ['type'], message: 'arguments are passed as one JSON object; use "type": "object" with properties' });
  }
  return out;
}

/** Property names of an argSchema (the names `${…}` and `{{…}}` placeholders may use). */
export function argNames(argSchema: unknown): string[] {
  if (!isPlainObject(argSchema) || !isPlainObject(argSchema['properties'])) return [];
  return Object.keys(argSchema['properties']);
}
