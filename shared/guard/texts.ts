/**
 * Every piece of text an agent reads of a tool, with where it is: the name, title, description,
 * the server's instructions, and everything in the schemas that is words rather than structure
 * (descriptions, titles, defaults, enums, examples, `x-` fields, property names, unknown keywords).
 */
import type { GuardDefinition } from './types.js';
import { isPlainObject } from '../plain-object.js';

export type TextKind =
  /** The tool's name. */
  | 'name'
  /** Prose: title, description, instructions, a schema's description or title. */
  | 'prose'
  /** A property's name (an agent reads it as a hint of what to send). */
  | 'property-name'
  /** A value: default, const, enum, example, an `x-` field's strings. */
  | 'value';

export interface TextField {
  pointer: string;
  kind: TextKind;
  text: string;
  /** For a property name or a value under one: the property's name. */
  property?: string;
}

/** JSON pointer escaping (RFC 6901). */
export const pointerToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Keywords whose values are structure, not words an agent is meant to read as text. */
const STRUCTURAL = new Set([
  'type',
  'format',
  '$ref',
  '$schema',
  '$id',
  '$anchor',
  '$dynamicRef',
  'required',
  'pattern',
  'contentEncoding',
  'contentMediaType',
]);
const PROSE_KEYS = new Set(['description', 'title', '$comment', 'markdownDescription']);
const VALUE_KEYS = new Set(['default', 'const', 'enum', 'examples', 'example']);
const PROPERTY_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** Stop walking absurd schemas: what a client would refuse anyway. */
const MAX_DEPTH = 64;

function values(value: unknown, pointer: string, out: TextField[], property: string | undefined, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    if (value) out.push({ pointer, kind: 'value', text: value, ...(property !== undefined ? { property } : {}) });
  } else if (Array.isArray(value)) value.forEach((v, i) => values(v, `${pointer}/${i}`, out, property, depth + 1));
  else if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      out.push({ pointer: `${pointer}/${pointerToken(k)}`, kind: 'property-name', text: k, ...(property !== undefined ? { property } : {}) });
      values(v, `${pointer}/${pointerToken(k)}`, out, property, depth + 1);
    }
  }
}

function schema(node: unknown, pointer: string, out: TextField[], property: string | undefined, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(node)) {
    node.forEach((n, i) => schema(n, `${pointer}/${i}`, out, property, depth + 1));
    return;
  }
  if (!isPlainObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    const at = `${pointer}/${pointerToken(key)}`;
    if (STRUCTURAL.has(key)) continue;
    if (PROSE_KEYS.has(key) && typeof value === 'string') {
      if (value) out.push({ pointer: at, kind: 'prose', text: value, ...(property !== undefined ? { property } : {}) });
    } else if (VALUE_KEYS.has(key) || key.startsWith('x-')) {
      values(value, at, out, property, depth + 1);
    } else if (PROPERTY_MAPS.has(key) && isPlainObject(value)) {
      for (const [name, sub] of Object.entries(value)) {
        const subAt = `${at}/${pointerToken(name)}`;
        if (key === 'properties') out.push({ pointer: subAt, kind: 'property-name', text: name, property: name });
        schema(sub, subAt, out, key === 'properties' ? name : property, depth + 1);
      }
    } else if (typeof value === 'string') {
      // An unknown keyword's text still reaches the model.
      if (value) out.push({ pointer: at, kind: 'prose', text: value, ...(property !== undefined ? { property } : {}) });
    } else if (typeof value === 'object' && value !== null) {
      schema(value, at, out, property, depth + 1);
    }
  }
}

/** The texts of a definition, in reading order. */
export function definitionTexts(def: GuardDefinition): TextField[] {
  const out: TextField[] = [{ pointer: '/name', kind: 'name', text: def.name }];
  if (def.title) out.push({ pointer: '/title', kind: 'prose', text: def.title });
  if (def.description) out.push({ pointer: '/description', kind: 'prose', text: def.description });
  if (def.instructions) out.push({ pointer: '/instructions', kind: 'prose', text: def.instructions });
  if (isPlainObject(def.annotations) && typeof def.annotations['title'] === 'string' && def.annotations['title']) {
    out.push({ pointer: '/annotations/title', kind: 'prose', text: def.annotations['title'] });
  }
  schema(def.inputSchema, '/inputSchema', out, undefined, 0);
  schema(def.outputSchema, '/outputSchema', out, undefined, 0);
  return out;
}

/** The names of the properties of the input schema (top level and nested), which text may quote without naming a tool. */
export function propertyNames(inputSchema: unknown): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || !isPlainObject(node)) return;
    if (isPlainObject(node['properties'])) {
      for (const [k, v] of Object.entries(node['properties'])) {
        names.add(k);
        walk(v, depth + 1);
      }
    }
    if (isPlainObject(node['items'])) walk(node['items'], depth + 1);
  };
  walk(inputSchema, 0);
  return names;
}
