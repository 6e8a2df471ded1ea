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
import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { formIssues } from '../../../shared/json-schema/issues.js';
import { draftOf, unitToSchemaError } from './cfworker-provider.js';

export { draftOf };
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

/** cfworker's units in ajv's shape, worded by the shared module (the same words as the core's). */
function unitsToErrors(units: OutputUnit[]): RJSFValidationError[] {
  return formIssues(units.map(unitToSchemaError)).map((i) => ({
    name: i.keyword,
    property: i.property,
    message: i.message,
    stack: `${i.property ? i.property.slice(1) + ' ' : ''}${i.message}`,
    schemaPath: i.schemaPath,
    params: i.missingProperty !== undefined ? { missingProperty: i.missingProperty } : {},
  }));
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
