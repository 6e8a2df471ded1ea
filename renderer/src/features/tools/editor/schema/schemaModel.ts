/**
 * The visual argument-schema builder's view of a JSON Schema, and its edits. The JSON text stays
 * the truth: the builder reads it into a model of what it can show (properties with type,
 * required, description, enum, default; nested objects and array items), and every change is a
 * minimal text edit (jsonc-parser's modify, as VS Code does it), so keywords the builder does not
 * know, key order and the rest of the formatting are left exactly as written. What the builder
 * cannot show (oneOf, $ref, a list of types…) is reported and left alone.
 */
import { applyEdits, modify, type FormattingOptions, type JSONPath } from 'jsonc-parser';
import { isPlainObject } from '../../../../../../shared/plain-object.js';

export const BUILDER_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array'] as const;
export type BuilderType = (typeof BUILDER_TYPES)[number];

/** Keywords the builder shows and edits; any other keyword is kept as it is and named as an extra. */
const KNOWN = new Set(['type', 'description', 'enum', 'default', 'properties', 'required', 'items', 'additionalProperties']);
/** Keywords that change what a schema means in ways the builder's rows cannot show. */
const STRUCTURAL = ['$ref', 'oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else', 'patternProperties', 'dependentSchemas', 'prefixItems'];
/** Nested objects and items are shown this deep (the root is level 0); deeper ones are edited in the JSON. */
export const MAX_DEPTH = 3;

type Obj = Record<string, unknown>;

export interface SchemaNode {
  /** Path of this schema in the document. */
  path: JSONPath;
  /** The builder's type, or null when the schema has none it can show (no type, several, unknown). */
  type: BuilderType | null;
  /** The type keyword as written, when it is not one of BUILDER_TYPES. */
  typeText?: string;
  description: string;
  enumValues?: unknown[];
  hasDefault: boolean;
  defaultValue?: unknown;
  /** Keywords kept as written that the builder does not show (minLength, format…). */
  extras: string[];
  /** Why the builder does not show this schema's structure (it uses oneOf, $ref…); null when it does. */
  blocked: string | null;
  /** For type object: its properties. */
  object?: ObjectNode;
  /** For type array: the schema of its items. */
  items?: SchemaNode;
}

export interface PropertyNode extends SchemaNode {
  name: string;
  required: boolean;
}

export interface ObjectNode {
  /** Path of the object schema (its properties are under path + 'properties'). */
  path: JSONPath;
  properties: PropertyNode[];
  /** false: no other properties allowed; true/undefined: allowed; 'schema': they follow a schema (JSON only). */
  additional: boolean | undefined | 'schema';
  /** Deeper than MAX_DEPTH: shown as a count only. */
  tooDeep: boolean;
}

export type SchemaModel = { ok: true; root: SchemaNode & { object: ObjectNode }; notes: string[] } | { ok: false; reason: string };

function describeType(t: unknown): string {
  return Array.isArray(t) ? t.map((x) => String(x)).join(' | ') : String(t);
}

function readObject(schema: Obj, path: JSONPath, depth: number): ObjectNode {
  const props = isPlainObject(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required']) ? schema['required'].filter((r): r is string => typeof r === 'string') : [];
  const ap = schema['additionalProperties'];
  return {
    path,
    tooDeep: depth > MAX_DEPTH,
    additional: ap === undefined ? undefined : typeof ap === 'boolean' ? ap : 'schema',
    properties:
      depth > MAX_DEPTH
        ? []
        : Object.keys(props).map((name) => ({ ...readNode(props[name], [...path, 'properties', name], depth), name, required: required.includes(name) })),
  };
}

function readNode(schema: unknown, path: JSONPath, depth: number): SchemaNode {
  if (!isPlainObject(schema)) {
    return {
      path,
      type: null,
      typeText: JSON.stringify(schema),
      description: '',
      hasDefault: false,
      extras: [],
      blocked: typeof schema === 'boolean' ? `the schema is just ${String(schema)}` : 'the schema is not an object',
    };
  }
  const t = schema['type'];
  const type = typeof t === 'string' && (BUILDER_TYPES as readonly string[]).includes(t) ? (t as BuilderType) : null;
  const structural = STRUCTURAL.filter((k) => k in schema);
  const blocked = structural.length
    ? `uses ${structural.join(', ')}`
    : t !== undefined && type === null
      ? `its type is ${describeType(t)}`
      : type === 'array' && Array.isArray(schema['items'])
        ? 'its items are a list of schemas'
        : null;
  const node: SchemaNode = {
    path,
    type,
    ...(t !== undefined && type === null ? { typeText: describeType(t) } : {}),
    description: typeof schema['description'] === 'string' ? schema['description'] : '',
    ...(Array.isArray(schema['enum']) ? { enumValues: schema['enum'] } : {}),
    hasDefault: 'default' in schema,
    ...('default' in schema ? { defaultValue: schema['default'] } : {}),
    extras: Object.keys(schema).filter((k) => !KNOWN.has(k) && !STRUCTURAL.includes(k)),
    blocked,
  };
  if (!blocked && type === 'object') node.object = readObject(schema, path, depth + 1);
  if (!blocked && type === 'array' && (schema['items'] === undefined || isPlainObject(schema['items'])))
    node.items = readNode(schema['items'] ?? {}, [...path, 'items'], depth + 1);
  return node;
}

/** What the builder can show of an argument schema (always an object schema at the top). */
export function readSchema(text: string): SchemaModel {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: `The JSON does not parse yet (${(e as Error).message}); the builder follows once it does.` };
  }
  if (!isPlainObject(value)) return { ok: false, reason: 'The argument schema is not an object schema; edit it in the JSON.' };
  if (value['type'] !== undefined && value['type'] !== 'object')
    return { ok: false, reason: `Arguments are one JSON object, but this schema's type is ${describeType(value['type'])}; edit it in the JSON.` };
  const root = readNode({ ...value, type: 'object' }, [], 0);
  const notes: string[] = [];
  if (root.blocked) notes.push(`The schema ${root.blocked} at the top; the builder shows its properties and leaves the rest as written.`);
  return { ok: true, root: { ...root, blocked: null, object: readObject(value, [], 1) }, notes };
}

// ---- edits -------------------------------------------------------------------------------------

const FORMAT: FormattingOptions = { insertSpaces: true, tabSize: 2, eol: '\n' };

function set(text: string, path: JSONPath, value: unknown, getInsertionIndex?: (keys: string[]) => number): string {
  return applyEdits(text, modify(text, path, value, { formattingOptions: FORMAT, ...(getInsertionIndex ? { getInsertionIndex } : {}) }));
}

function valueAt(text: string, path: JSONPath): unknown {
  let v: unknown = JSON.parse(text);
  for (const seg of path) {
    if (isPlainObject(v) && typeof seg === 'string' && Object.hasOwn(v, seg)) v = v[seg];
    else if (Array.isArray(v) && typeof seg === 'number') v = v[seg];
    else return undefined;
  }
  return v;
}

function requiredOf(text: string, objPath: JSONPath): string[] {
  const r = valueAt(text, [...objPath, 'required']);
  return Array.isArray(r) ? r.filter((x): x is string => typeof x === 'string') : [];
}

function setRequiredList(text: string, objPath: JSONPath, names: string[]): string {
  return set(text, [...objPath, 'required'], names.length ? names : undefined);
}

export function propertyNames(text: string, objPath: JSONPath): string[] {
  const p = valueAt(text, [...objPath, 'properties']);
  return isPlainObject(p) ? Object.keys(p) : [];
}

/** A name not used yet among the object's properties: `name`, `name2`, … */
export function freshName(text: string, objPath: JSONPath, base = 'argument'): string {
  const taken = new Set(propertyNames(text, objPath));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}${i}`)) return `${base}${i}`;
}

export function addProperty(text: string, objPath: JSONPath, name: string, type: BuilderType = 'string'): string {
  if (propertyNames(text, objPath).includes(name)) throw new Error(`there is already a property named ${name}`);
  return set(text, [...objPath, 'properties', name], { type });
}

export function removeProperty(text: string, objPath: JSONPath, name: string): string {
  const next = set(text, [...objPath, 'properties', name], undefined);
  const req = requiredOf(next, objPath);
  return req.includes(name)
    ? setRequiredList(
        next,
        objPath,
        req.filter((r) => r !== name),
      )
    : next;
}

/** Renames a property in place (same position, same schema) and in `required`. */
export function renameProperty(text: string, objPath: JSONPath, from: string, to: string): string {
  if (from === to) return text;
  if (!to) throw new Error('a property needs a name');
  const names = propertyNames(text, objPath);
  if (names.includes(to)) throw new Error(`there is already a property named ${to}`);
  const at = names.indexOf(from);
  if (at < 0) return text;
  const schema = valueAt(text, [...objPath, 'properties', from]);
  let next = set(text, [...objPath, 'properties', from], undefined);
  next = set(next, [...objPath, 'properties', to], schema, () => at);
  const req = requiredOf(next, objPath);
  return req.includes(from)
    ? setRequiredList(
        next,
        objPath,
        req.map((r) => (r === from ? to : r)),
      )
    : next;
}

export function setRequired(text: string, objPath: JSONPath, name: string, required: boolean): string {
  const req = requiredOf(text, objPath);
  if (required === req.includes(name)) return text;
  return setRequiredList(text, objPath, required ? [...req, name] : req.filter((r) => r !== name));
}

/**
 * Changes a schema's type. The builder's own type-specific keywords go with the old type (enum and
 * default, which were values of it; properties/required/additionalProperties of an object; items
 * of an array); keywords it does not manage stay as written.
 */
export function setType(text: string, path: JSONPath, type: BuilderType): string {
  const current = valueAt(text, path);
  if (isPlainObject(current) && current['type'] === type) return text;
  let next = set(text, [...path, 'type'], type);
  const drop = ['enum', 'default', ...(type === 'object' ? [] : ['properties', 'required', 'additionalProperties']), ...(type === 'array' ? [] : ['items'])];
  for (const key of drop) if (isPlainObject(current) && key in current) next = set(next, [...path, key], undefined);
  if (type === 'array' && !(isPlainObject(current) && isPlainObject(current['items']))) next = set(next, [...path, 'items'], { type: 'string' });
  return next;
}

export function setDescription(text: string, path: JSONPath, description: string): string {
  return set(text, [...path, 'description'], description === '' ? undefined : description);
}

export function setEnum(text: string, path: JSONPath, values: unknown[] | undefined): string {
  return set(text, [...path, 'enum'], values && values.length ? values : undefined);
}

export function setDefault(text: string, path: JSONPath, value: unknown): string {
  return set(text, [...path, 'default'], value);
}

/** additionalProperties: false (only the listed properties) or left out (others allowed). */
export function setClosed(text: string, objPath: JSONPath, closed: boolean): string {
  return set(text, [...objPath, 'additionalProperties'], closed ? false : undefined);
}

// ---- values as typed in the builder's small fields ---------------------------------------------

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function scalar(text: string, type: BuilderType | null): Parsed<unknown> {
  const t = text.trim();
  if (type === 'number' || type === 'integer') {
    const n = Number(t);
    if (t === '' || !Number.isFinite(n)) return { ok: false, message: `${JSON.stringify(t)} is not a number` };
    if (type === 'integer' && !Number.isInteger(n)) return { ok: false, message: `${t} is not a whole number` };
    return { ok: true, value: n };
  }
  if (type === 'boolean') {
    if (t === 'true' || t === 'false') return { ok: true, value: t === 'true' };
    return { ok: false, message: 'write true or false' };
  }
  if (type === 'object' || type === 'array' || type === null) {
    try {
      return { ok: true, value: JSON.parse(t) as unknown };
    } catch {
      return type === null ? { ok: true, value: t } : { ok: false, message: `write the ${type} as JSON` };
    }
  }
  return { ok: true, value: text };
}

/** Allowed values, written comma-separated (or as a JSON array for values with commas). */
export function parseEnum(text: string, type: BuilderType | null): Parsed<unknown[] | undefined> {
  const t = text.trim();
  if (t === '') return { ok: true, value: undefined };
  if (t.startsWith('[')) {
    try {
      const v = JSON.parse(t) as unknown;
      if (Array.isArray(v)) return { ok: true, value: v };
    } catch {
      // falls through to the message below
    }
    return { ok: false, message: 'not a JSON array; write values separated by commas, or a JSON array' };
  }
  const out: unknown[] = [];
  for (const part of t.split(',')) {
    const v = scalar(type === 'string' ? part.trim() : part, type === 'object' || type === 'array' ? null : type);
    if (!v.ok) return v;
    out.push(v.value);
  }
  return { ok: true, value: out };
}

export function formatEnum(values: unknown[] | undefined): string {
  if (!values) return '';
  const simple = values.every(
    (v) => (typeof v === 'string' && !v.includes(',') && v.trim() === v && v !== '') || typeof v === 'number' || typeof v === 'boolean',
  );
  return simple ? values.map(String).join(', ') : JSON.stringify(values);
}

/** A default as typed: empty means none; strings as written; other types as their JSON. */
export function parseDefault(text: string, type: BuilderType | null): Parsed<unknown> {
  if (text === '') return { ok: true, value: undefined };
  return scalar(text, type);
}

export function formatDefault(node: Pick<SchemaNode, 'hasDefault' | 'defaultValue' | 'type'>): string {
  if (!node.hasDefault) return '';
  return node.type === 'string' && typeof node.defaultValue === 'string' ? node.defaultValue : JSON.stringify(node.defaultValue);
}
