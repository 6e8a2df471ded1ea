/**
 * ajv set-up and translation of ajv's errors into field issues a person (or a model) can act
 * on. Two instances: `contractAjv` validates our own schemas (shared/), strict; `userAjv`
 * compiles the JSON Schemas users write (argSchema/outputSchema), lenient about unknown
 * keywords (annotations such as "x-order" are common) but with meta-schema validation on.
 */
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import type { FieldIssue } from '../../shared/errors.js';

// ajv and ajv-formats are CommonJS with a default export; under ESM the class sits on .default.
const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as typeof AjvModule;
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;
export type AjvInstance = InstanceType<typeof Ajv>;

function makeContractAjv(): AjvInstance {
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addKeyword({
    keyword: 'instanceofUint8Array',
    schemaType: 'boolean',
    validate: (_s: boolean, data: unknown) => data instanceof Uint8Array,
    errors: false,
  });
  return ajv;
}

export function makeUserAjv(): AjvInstance {
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: true, allowUnionTypes: true });
  addFormats(ajv);
  return ajv;
}

export const contractAjv = makeContractAjv();

const compiled = new WeakMap<TSchema, ValidateFunction>();

export function validatorFor(schema: TSchema): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    v = contractAjv.compile(schema);
    compiled.set(schema, v);
  }
  return v;
}

function fieldOf(instancePath: string, prefix: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const joined = parts.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('');
  const field = (prefix + joined).replace(/^\./, '');
  return field;
}

/** Turns ajv errors into one issue per field, without anyOf noise. */
export function ajvIssues(errors: ErrorObject[] | null | undefined, prefix = ''): FieldIssue[] {
  if (!errors?.length) return [];
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    const list = byPath.get(e.instancePath) ?? [];
    list.push(e);
    byPath.set(e.instancePath, list);
  }
  const issues: FieldIssue[] = [];
  for (const [path, errs] of byPath) {
    const consts = errs.filter((e) => e.keyword === 'const').map((e) => JSON.stringify(e.params['allowedValue']));
    const specific = errs.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'const' && e.keyword !== 'oneOf');
    if (consts.length > 1 || (consts.length === 1 && specific.length === 0)) {
      issues.push({ field: fieldOf(path, prefix), message: `must be one of ${consts.join(', ')}` });
      continue;
    }
    for (const e of specific.length ? specific : errs) {
      issues.push({ field: fieldOf(path, prefix), message: describe(e, fieldOf(path, prefix)) });
    }
  }
  // An anyOf over types gives one issue per branch; keep the first per field+message.
  const seen = new Set<string>();
  return issues.filter((i) => {
    const k = i.field + '\u0000' + i.message;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function describe(e: ErrorObject, field: string): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties':
      return `unknown field '${String(p['additionalProperty'])}'${field ? ` in ${field}` : ''}; remove it or check its spelling`;
    case 'required':
      return `missing required field '${String(p['missingProperty'])}'`;
    case 'type':
      return `must be ${String(p['type'])}`;
    case 'pattern':
      return `has an invalid format (must match ${String(p['pattern'])})`;
    case 'format':
      return `must be a valid ${String(p['format'])}`;
    case 'maxLength':
      return `must be at most ${String(p['limit'])} characters long`;
    case 'minLength':
      return Number(p['limit']) === 1 ? 'must not be empty' : `must be at least ${String(p['limit'])} characters long`;
    case 'maximum':
      return `must be ≤ ${String(p['limit'])}`;
    case 'minimum':
      return `must be ≥ ${String(p['limit'])}`;
    case 'exclusiveMinimum':
      return `must be > ${String(p['limit'])}`;
    case 'maxItems':
      return `must have at most ${String(p['limit'])} items`;
    case 'minItems':
      return `must have at least ${String(p['limit'])} items`;
    case 'enum':
      return `must be one of ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return e.message ?? 'is invalid';
  }
}

/** Validates a value against a contract schema; returns issues (empty when valid). */
export function checkAgainst(schema: TSchema, value: unknown, prefix = ''): FieldIssue[] {
  const v = validatorFor(schema);
  return v(value) ? [] : ajvIssues(v.errors, prefix);
}
