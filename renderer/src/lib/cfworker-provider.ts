/**
 * The renderer's provider of the shared validator interface (shared/json-schema/validator.ts),
 * on @cfworker/json-schema: its output units are turned into ajv's error shape, so the one
 * wording module (shared/json-schema/issues.ts) words form errors here as it does in the core.
 */
import { Validator, type OutputUnit, type Schema, type SchemaDraft } from '@cfworker/json-schema';
import type { CompiledSchema, SchemaError, SchemaValidatorProvider } from '../../../shared/json-schema/validator.js';

/** "#/a/0/b" → "/a/0/b" (ajv's instancePath). */
function instancePath(location: string): string {
  return location.replace(/^#/, '');
}

const number = (s: string | undefined): number | string => (s !== undefined && s !== '' && Number.isFinite(Number(s)) ? Number(s) : (s ?? ''));

/** Reads the facts ajv keeps in `params` back out of cfworker's message. */
export function unitToSchemaError(unit: OutputUnit): SchemaError {
  const e = unit.error;
  const base = { instancePath: instancePath(unit.instanceLocation), schemaPath: unit.keywordLocation, message: e };
  let m: RegExpExecArray | null;
  if ((m = /^Instance does not have required property "(.*)"\.$/.exec(e))) return { ...base, keyword: 'required', params: { missingProperty: m[1] } };
  if ((m = /^Instance type "(.*)" is invalid\. Expected "(.*)"\.$/.exec(e)))
    return { ...base, keyword: 'type', params: { type: m[2]!.split('", "').join(',') } };
  if ((m = /^Instance does not match any of (.*)\.$/.exec(e))) {
    let allowedValues: unknown[];
    try {
      allowedValues = JSON.parse(m[1]!) as unknown[];
    } catch {
      allowedValues = [m[1]];
    }
    return { ...base, keyword: 'enum', params: { allowedValues: Array.isArray(allowedValues) ? allowedValues : [allowedValues] } };
  }
  if ((m = /^String is too short \((\d+) < (\d+)\)\.$/.exec(e))) return { ...base, keyword: 'minLength', params: { limit: number(m[2]) } };
  if ((m = /^String is too long \((\d+) > (\d+)\)\.$/.exec(e))) return { ...base, keyword: 'maxLength', params: { limit: number(m[2]) } };
  if (/^String does not match pattern\.$/.test(e)) return { ...base, keyword: 'pattern', params: {} };
  if ((m = /^String does not match format "(.*)"\.$/.exec(e))) return { ...base, keyword: 'format', params: { format: m[1] } };
  if ((m = /^Array has too few items \((\d+) < (\d+)\)\.$/.exec(e))) return { ...base, keyword: 'minItems', params: { limit: number(m[2]) } };
  if ((m = /^Array has too many items \((\d+) > (\d+)\)\.$/.exec(e))) return { ...base, keyword: 'maxItems', params: { limit: number(m[2]) } };
  if ((m = /^\S+ is less than or equal to\s+(\S+)\.$/.exec(e))) return { ...base, keyword: 'exclusiveMinimum', params: { limit: number(m[1]) } };
  if ((m = /^\S+ is less than\s+(\S+)\.$/.exec(e))) return { ...base, keyword: 'minimum', params: { limit: number(m[1]) } };
  if ((m = /^\S+ is greater than or equal to\s+(\S+)\.$/.exec(e))) return { ...base, keyword: 'exclusiveMaximum', params: { limit: number(m[1]) } };
  if ((m = /^\S+ is greater than\s+(\S+)\.$/.exec(e))) return { ...base, keyword: 'maximum', params: { limit: number(m[1]) } };
  if ((m = /^\S+ is not a multiple of (\S+)\.$/.exec(e))) return { ...base, keyword: 'multipleOf', params: { multipleOf: number(m[1]) } };
  if (/^Instance does not match any subschemas\.$/.test(e)) return { ...base, keyword: 'anyOf', params: {} };
  if ((m = /^Instance does not match exactly one subschema \((\d+) matches\)\.$/.exec(e)))
    return { ...base, keyword: 'oneOf', params: { passingCount: number(m[1]) } };
  return { ...base, keyword: unit.keyword, params: {} };
}

export function draftOf(schema: unknown): SchemaDraft {
  const s = typeof schema === 'object' && schema !== null ? String((schema as Record<string, unknown>)['$schema'] ?? '') : '';
  if (s.includes('draft-04')) return '4';
  if (s.includes('2019-09')) return '2019-09';
  if (s.includes('2020-12')) return '2020-12';
  return '7';
}

export const cfworkerProvider: SchemaValidatorProvider = {
  compile(schema) {
    // cfworker annotates the schema objects it is given (resolved $ref URIs), so it gets a copy.
    const validator = new Validator(structuredClone(schema) as Schema, draftOf(schema), false);
    const compiled: CompiledSchema = (value: unknown) => {
      const result = validator.validate(value);
      compiled.errors = result.valid ? null : result.errors.map(unitToSchemaError);
      return result.valid;
    };
    return compiled;
  },
};
