/**
 * ajv set-up and translation of ajv's errors into field issues a person (or a model) can act
 * on. Two instances: `contractAjv` validates our own schemas (shared/), strict; `userAjv`
 * compiles the JSON Schemas users write (argSchema/outputSchema), lenient about unknown
 * keywords (annotations such as "x-order" are common) but with meta-schema validation on.
 */
import AjvModule, { type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import type { FieldIssue } from '../../shared/errors.js';
import { apiIssues } from '../../shared/json-schema/issues.js';
import { linearRegex, type LinearRegex } from '../../shared/json-schema/linear-regex.js';

// ajv and ajv-formats are CommonJS with a default export; under ESM the class sits on .default.
const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as typeof AjvModule;
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;
export type AjvInstance = InstanceType<typeof Ajv>;

function makeContractAjv(): AjvInstance {
  // Our own schemas skip the meta-schema check on compile (it was a third of a start's first
  // compile): a test checks each against the meta-schema instead, and strict mode still refuses
  // unknown keywords and types.
  const ajv = new Ajv({ allErrors: true, ownProperties: true, strict: true, strictTypes: false, allowUnionTypes: true, validateSchema: false });
  addFormats(ajv);
  ajv.addKeyword({
    keyword: 'instanceofUint8Array',
    schemaType: 'boolean',
    validate: (_s: boolean, data: unknown) => data instanceof Uint8Array,
    errors: false,
  });
  return ajv;
}

/**
 * ajv's regex engine for user schemas: RE2, so `pattern` and `patternProperties` match in linear
 * time whatever the author wrote (shared/json-schema/linear-regex.ts). A pattern RE2 cannot express fails to
 * compile, which makes the schema refused at save.
 */
const linearRegExp = Object.assign(
  (pattern: string, _u: string) => {
    let rx: LinearRegex;
    try {
      rx = linearRegex(pattern);
    } catch (e) {
      throw new Error(`pattern ${JSON.stringify(pattern)} ${(e as Error).message}`);
    }
    // ajv keys compiled patterns by toString(): one entry per pattern text.
    return { test: (s: string) => rx.test(s), toString: () => `/${pattern}/` };
  },
  { code: 'linearRegExp' },
);

export function makeUserAjv(): AjvInstance {
  const ajv = new Ajv({ allErrors: true, ownProperties: true, strict: false, validateSchema: true, allowUnionTypes: true, code: { regExp: linearRegExp } });
  addFormats(ajv);
  return ajv;
}

export const contractAjv = makeContractAjv();

const compiled = new WeakMap<TSchema, ValidateFunction>();
let compiledCount = 0;

/** A contract schema's validator, compiled on its first use (compiling is most of what ajv costs). */
export function validatorFor(schema: TSchema): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    v = contractAjv.compile(schema);
    compiled.set(schema, v);
    compiledCount++;
  }
  return v;
}

/** How many contract schemas this process has compiled (tests hold start-up to the ones it uses). */
export function compiledContractSchemas(): number {
  return compiledCount;
}

/** Validates a value against a contract schema; returns issues (empty when valid). */
export function checkAgainst(schema: TSchema, value: unknown, prefix = ''): FieldIssue[] {
  const v = validatorFor(schema);
  return v(value) ? [] : apiIssues(v.errors, prefix);
}
