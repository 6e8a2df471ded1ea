/**
 * The validator behind the tester's form (rjsf's ValidatorType), on @cfworker/json-schema.
 *
 * Why not @rjsf/validator-ajv8: ajv compiles every schema to JavaScript with `new Function`,
 * which the app's CSP (`script-src 'self'`, no 'unsafe-eval') forbids — the Electron shell and
 * the browser build would both throw EvalError on the first validation. @cfworker/json-schema
 * is a maintained interpreter (built for Cloudflare Workers, where eval is banned too) covering
 * drafts 4, 7, 2019-09 and 2020-12. Default draft is 7, like the server's ajv, so the form and
 * the server agree; a schema's `$schema` picks another.
 */
import { Validator, type OutputUnit, type Schema, type SchemaDraft } from '@cfworker/json-schema';
import {
  ROOT_SCHEMA_PREFIX,
  createErrorHandler,
  getDefaultFormState,
  toErrorSchema,
  unwrapErrorHandler,
  validationDataMerge,
  withIdRefPrefix,
  type CustomValidator,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  type UiSchema,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';

/** Keywords whose error only says "a child failed"; the child's own error is reported instead. */
const WRAPPER_KEYWORDS = new Set([
  'properties',
  'items',
  'prefixItems',
  'additionalItems',
  'allOf',
  '$ref',
  '$recursiveRef',
  '$dynamicRef',
  'additionalProperties',
  'patternProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'dependentSchemas',
  'dependencies',
  'then',
  'else',
  'contains',
  'propertyNames',
]);

export function draftOf(schema: unknown): SchemaDraft {
  const s = typeof schema === 'object' && schema !== null ? String((schema as Record<string, unknown>)['$schema'] ?? '') : '';
  if (s.includes('draft-04')) return '4';
  if (s.includes('2019-09')) return '2019-09';
  if (s.includes('2020-12')) return '2020-12';
  return '7';
}

/** "#/a/0/b" → ".a.0.b" (rjsf's property path form; "" for the root). */
function propertyPath(instanceLocation: string): string {
  const parts = instanceLocation.replace(/^#\/?/, '').split('/').filter(Boolean);
  return parts.map((p) => '.' + decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~')).join('');
}

/** cfworker's messages, reworded the way people read form errors. */
function friendlyMessage(unit: OutputUnit): { message: string; missing?: string } {
  const e = unit.error;
  let m: RegExpExecArray | null;
  if ((m = /^Instance does not have required property "(.*)"\.$/.exec(e))) return { message: `must have required property '${m[1]}'`, missing: m[1] };
  if ((m = /^Instance type "(.*)" is invalid\. Expected "(.*)"\.$/.exec(e))) return { message: `must be ${m[2]!.split('", "').join(' or ')}` };
  if ((m = /^Instance does not match any of (.*)\.$/.exec(e))) return { message: `must be one of ${m[1]}` };
  if ((m = /^String is too short \((\d+) < (\d+)\)\.$/.exec(e))) return { message: `must have at least ${m[2]} characters` };
  if ((m = /^String is too long \((\d+) > (\d+)\)\.$/.exec(e))) return { message: `must have at most ${m[2]} characters` };
  if (/^String does not match pattern\.$/.test(e)) return { message: 'does not match the required pattern' };
  if ((m = /^String does not match format "(.*)"\.$/.exec(e))) return { message: `must be a valid ${m[1]}` };
  if ((m = /^Array has too few items \((\d+) < (\d+)\)\.$/.exec(e))) return { message: `must have at least ${m[2]} items` };
  if ((m = /^Array has too many items \((\d+) > (\d+)\)\.$/.exec(e))) return { message: `must have at most ${m[2]} items` };
  if ((m = /^\S+ is less than or equal to\s+(\S+)\.$/.exec(e))) return { message: `must be greater than ${m[1]}` };
  if ((m = /^\S+ is less than\s+(\S+)\.$/.exec(e))) return { message: `must be at least ${m[1]}` };
  if ((m = /^\S+ is greater than or equal to\s+(\S+)\.$/.exec(e))) return { message: `must be less than ${m[1]}` };
  if ((m = /^\S+ is greater than\s+(\S+)\.$/.exec(e))) return { message: `must be at most ${m[1]}` };
  if ((m = /^\S+ is not a multiple of (\S+)\.$/.exec(e))) return { message: `must be a multiple of ${m[1]}` };
  if (/^Instance does not match any subschemas\.$/.test(e)) return { message: 'must match one of the allowed shapes (anyOf)' };
  if ((m = /^Instance does not match exactly one subschema \((\d+) matches\)\.$/.exec(e)))
    return { message: `must match exactly one of the allowed shapes (oneOf; ${m[1]} match)` };
  return { message: e.replace(/^Instance /, '').replace(/\.$/, '') };
}

function unitsToErrors(units: OutputUnit[]): RJSFValidationError[] {
  const out: RJSFValidationError[] = [];
  const seen = new Set<string>();
  // An anyOf/oneOf failure also reports each branch's own failures; keep the summary only.
  const combinators = units.filter((u) => u.keyword === 'anyOf' || u.keyword === 'oneOf').map((u) => u.keywordLocation);
  for (const u of units) {
    if (WRAPPER_KEYWORDS.has(u.keyword)) continue;
    if (combinators.some((c) => u.keywordLocation !== c && u.keywordLocation.startsWith(c + '/'))) continue;
    const { message, missing } = friendlyMessage(u);
    let property = propertyPath(u.instanceLocation);
    if (missing !== undefined) property = `${property}.${missing}`;
    const key = `${property}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      name: u.keyword,
      property,
      message,
      stack: `${property ? property.slice(1) + ' ' : ''}${message}`,
      schemaPath: u.keywordLocation,
      params: missing ? { missingProperty: missing } : {},
    });
  }
  return out;
}

export class CspSafeValidator implements ValidatorType<unknown, RJSFSchema> {
  private cache = new WeakMap<object, WeakMap<object, Validator>>();
  private plainCache = new WeakMap<object, Validator>();

  private validatorFor(schema: RJSFSchema, rootSchema?: RJSFSchema): Validator {
    if (!rootSchema || rootSchema === schema) {
      let v = this.plainCache.get(schema);
      if (!v) {
        v = new Validator(structuredClone(schema) as Schema, draftOf(schema), false);
        this.plainCache.set(schema, v);
      }
      return v;
    }
    let byRoot = this.cache.get(rootSchema);
    if (!byRoot) {
      byRoot = new WeakMap();
      this.cache.set(rootSchema, byRoot);
    }
    let v = byRoot.get(schema);
    if (!v) {
      // Sub-schemas refer to the root's definitions ("#/$defs/x"); prefix them so they resolve against the root.
      // cfworker annotates the schema objects it is given (resolved $ref URIs), so it gets copies.
      v = new Validator(structuredClone(withIdRefPrefix(schema)) as Schema, draftOf(rootSchema), false);
      v.addSchema(structuredClone(rootSchema) as Schema, ROOT_SCHEMA_PREFIX);
      byRoot.set(schema, v);
    }
    return v;
  }

  rawValidation<Result = unknown>(schema: RJSFSchema, formData?: unknown): { errors?: Result[]; validationError?: Error } {
    try {
      const result = this.validatorFor(schema).validate(formData);
      return { errors: (result.valid ? undefined : result.errors) as Result[] | undefined };
    } catch (e) {
      return { validationError: e as Error };
    }
  }

  validateFormData(
    formData: unknown,
    schema: RJSFSchema,
    customValidate?: CustomValidator<unknown, RJSFSchema>,
    transformErrors?: ErrorTransformer<unknown, RJSFSchema>,
    uiSchema?: UiSchema<unknown, RJSFSchema>,
  ): ValidationData<unknown> {
    const raw = this.rawValidation<OutputUnit>(schema, formData);
    let errors = unitsToErrors(raw.errors ?? []);
    if (raw.validationError) errors.push({ stack: `the argument schema cannot be used: ${raw.validationError.message}` });
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    const errorSchema = toErrorSchema<unknown>(errors);
    if (!customValidate) return { errors, errorSchema };
    const withDefaults = getDefaultFormState<unknown, RJSFSchema>(this, schema, formData, schema, true);
    const handler = customValidate(withDefaults, createErrorHandler<unknown>(withDefaults), uiSchema, errorSchema);
    return validationDataMerge<unknown>({ errors, errorSchema }, unwrapErrorHandler<unknown>(handler));
  }

  isValid(schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema): boolean {
    try {
      return this.validatorFor(schema, rootSchema).validate(formData).valid;
    } catch {
      return false;
    }
  }

  reset(): void {
    this.cache = new WeakMap();
    this.plainCache = new WeakMap();
  }
}

export const cspSafeValidator = new CspSafeValidator();

/** Validates arguments outside the form (raw JSON mode); returns messages such as "city: must be string". */
export function validateArgs(schema: unknown, value: unknown): string[] {
  if (typeof schema === 'boolean') return schema ? [] : ['this tool accepts no arguments (argSchema is false)'];
  if (typeof schema !== 'object' || schema === null) return [];
  const { errors } = cspSafeValidator.validateFormData(value, schema as RJSFSchema);
  return errors.map((e) => e.stack);
}
