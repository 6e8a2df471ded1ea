/**
 * What the foreign-format converters share (names made into slugs and secret names are
 * util/names.ts's): parameter lists made into an argSchema, fresh bundle and tool files, and the validation of a generated
 * bundle (a tool that fails the rules is left out with a warning, so one odd operation in a
 * 300-operation OpenAPI document does not block the other 299).
 */
import { Readable } from 'node:stream';
import { v7 as uuidv7 } from 'uuid';
import type { FieldIssue } from '../../../../shared/errors.js';
import { checkSlug } from '../../../../shared/slug.js';
import { SCHEMA_VERSION, type BundleFile, type Config, type ToolFile } from '../../../../shared/schemas.js';
import { CoreError, invalid } from '../../errors.js';
import { defaultSafety } from '../../tool-types/prepare.js';
import { checkToolRules, type BundleDraft, type FileSource, type Validated } from '../validate.js';

export function clip(text: unknown, max: number): string {
  return typeof text === 'string' ? [...text].slice(0, max).join('') : '';
}

const TYPE_ALIASES: Record<string, string> = {
  string: 'string',
  str: 'string',
  text: 'string',
  number: 'number',
  float: 'number',
  double: 'number',
  integer: 'integer',
  int: 'integer',
  boolean: 'boolean',
  bool: 'boolean',
  array: 'array',
  list: 'array',
  object: 'object',
  dict: 'object',
};

const PARAM_SCHEMA_KEYS = [
  'description',
  'default',
  'enum',
  'items',
  'properties',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'examples',
];

/**
 * Parameters as either a list `[{name, type, description, required, …}]` or a map
 * `{name: {type, …}}` → an argSchema object with `required`. Unknown types are issues.
 */
export function argSchemaOf(parameters: unknown, field: string): { schema: Record<string, unknown>; issues: FieldIssue[]; names: string[] } {
  const issues: FieldIssue[] = [];
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  let list: [string, Record<string, unknown>][] = [];
  // A3S (and MCP, OpenAI) write parameters as a JSON Schema of an object: taken as it is.
  const asSchema = parameters && typeof parameters === 'object' && !Array.isArray(parameters) ? (parameters as Record<string, unknown>) : undefined;
  if (
    asSchema &&
    (asSchema['type'] === 'object' || (typeof asSchema['properties'] === 'object' && asSchema['properties'] !== null && !Array.isArray(asSchema['properties'])))
  ) {
    const props = asSchema['properties'];
    if (props !== undefined && (typeof props !== 'object' || props === null || Array.isArray(props))) {
      return { schema: {}, issues: [{ field: `${field}.properties`, message: 'must be a map from parameter name to its schema' }], names: [] };
    }
    const schema: Record<string, unknown> = { ...asSchema, type: 'object', properties: props ?? {} };
    return { schema, issues, names: Object.keys((props as Record<string, unknown>) ?? {}) };
  }
  if (Array.isArray(parameters)) {
    parameters.forEach((p, i) => {
      if (!p || typeof p !== 'object' || typeof (p as { name?: unknown }).name !== 'string') {
        issues.push({ field: `${field}[${i}]`, message: 'must be an object with a "name"' });
      } else list.push([(p as { name: string }).name, p as Record<string, unknown>]);
    });
  } else if (parameters && typeof parameters === 'object') {
    list = Object.entries(parameters as Record<string, unknown>).map(([k, v]) => [
      k,
      v && typeof v === 'object' ? (v as Record<string, unknown>) : { type: v },
    ]);
  } else if (parameters !== undefined && parameters !== null) {
    issues.push({ field, message: 'must be a list of parameters or a map from name to parameter' });
  }
  for (const [name, p] of list) {
    if (!name.trim()) {
      issues.push({ field, message: 'a parameter has an empty name' });
      continue;
    }
    const rawType = typeof p['type'] === 'string' ? p['type'].toLowerCase() : 'string';
    const type = TYPE_ALIASES[rawType];
    if (!type) {
      issues.push({ field: `${field}.${name}`, message: `type '${String(p['type'])}' is not one of string, number, integer, boolean, array, object` });
      continue;
    }
    const prop: Record<string, unknown> = { type };
    for (const k of PARAM_SCHEMA_KEYS) if (p[k] !== undefined) prop[k] = p[k];
    if (type === 'array' && prop['items'] === undefined) prop['items'] = {};
    properties[name] = prop;
    if (p['required'] === true) required.push(name);
  }
  const schema: Record<string, unknown> = { type: 'object', properties };
  if (required.length) schema['required'] = required;
  return { schema, issues, names: Object.keys(properties) };
}

export function newBundleFile(slug: string, displayName: string, description: string, now: string): BundleFile {
  return {
    schemaVersion: SCHEMA_VERSION,
    bundleID: uuidv7(),
    slug,
    displayName: clip(displayName, 200) || slug,
    description: clip(description, 10000),
    isEnabled: true,
    isBuiltIn: false,
    createdAt: now,
    modifiedAt: now,
  };
}

export type ToolFields = Pick<ToolFile, 'slug' | 'version' | 'type' | 'impl'> & Partial<Omit<ToolFile, 'slug' | 'version' | 'type' | 'impl'>>;

export function newToolFile(fields: ToolFields, bundleID: string, now: string): ToolFile {
  return {
    schemaVersion: SCHEMA_VERSION,
    toolID: uuidv7(),
    bundleID,
    isEnabled: true,
    isBuiltIn: false,
    tags: [],
    safety: defaultSafety(fields.type, fields.impl as Record<string, unknown>),
    argSchema: { type: 'object', properties: {} },
    outputSchema: {},
    card: { enabled: true },
    limits: {},
    createdAt: now,
    modifiedAt: now,
    ...fields,
    displayName: clip(fields.displayName, 200) || fields.slug,
    description: clip(fields.description, 10000),
  } as ToolFile;
}

export function bytesSource(rel: string, data: string | Uint8Array, executable = false): FileSource {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
  return { rel, executable, open: async () => Readable.from([bytes]) };
}

/**
 * Validates a generated bundle: tools that break a rule are left out with a warning naming
 * the rule; if none is left, the import is refused with every issue.
 */
export function validateDrafts(draft: BundleDraft, config: Config): Validated {
  const bundleSlug = checkSlug(draft.file.slug);
  if (!bundleSlug.ok) throw invalid([{ field: 'slug', message: bundleSlug.message! }]);
  const kept: BundleDraft['tools'] = [];
  const warnings: string[] = [];
  const allIssues: FieldIssue[] = [];
  const hosts = new Set<string>();
  for (const tool of draft.tools) {
    const { issues, hosts: h } = checkToolRules(tool.file, config, tool.origin);
    if (issues.length) {
      allIssues.push(...issues);
      warnings.push(`left out ${tool.origin}: ${issues[0]!.field.replace(`${tool.origin}: `, '')} ${issues[0]!.message}`);
      continue;
    }
    for (const x of h) hosts.add(x);
    kept.push(tool);
  }
  if (!kept.length) {
    if (!allIssues.length) throw new CoreError('INVALID_INPUT', `${draft.origin} describes no tools`);
    throw invalid(allIssues.slice(0, 50), `No tool of ${draft.origin} could be imported: ${allIssues[0]!.field} ${allIssues[0]!.message}`);
  }
  return { bundles: [{ ...draft, tools: kept }], hostsToAllow: [...hosts].sort(), warnings };
}
