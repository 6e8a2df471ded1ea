/**
 * In-process functions by name. Each function's argSchema is checked against JSON Schema's
 * meta-schema at registration and compiled (ajv) on the function's first call, so a process that
 * calls none pays no compile and a call pays only for the validation itself.
 */
import type { ValidateFunction } from 'ajv';
import type { FunctionInfo } from '../../../shared/types.js';
import type { FieldIssue } from '../../../shared/errors.js';
import { FunctionImpl } from '../../../shared/schemas.js';
import { makeUserAjv } from '../validation.js';
import { apiIssues } from '../../../shared/json-schema/issues.js';
import type { AnyFunctionDef } from './types.js';

const NAME_PATTERN = new RegExp(FunctionImpl.properties.function.pattern ?? '^.+$');

export class FunctionRegistry {
  private readonly defs = new Map<string, AnyFunctionDef>();
  private readonly argValidators = new Map<string, ValidateFunction>();
  private readonly ajv = makeUserAjv();

  /** Adds a function; a bad name, a duplicate or an argSchema that does not compile is a programming error. */
  register(def: AnyFunctionDef): void {
    if (!NAME_PATTERN.test(def.name)) {
      throw new Error(`function name '${def.name}' is invalid: use dotted names such as 'core.calc'`);
    }
    if (this.defs.has(def.name)) throw new Error(`function ${def.name} is already registered`);
    // Fails loudly now rather than in the engine later (the catalog's schemas are compiled by a test).
    for (const [what, schema] of [
      ['argSchema', def.argSchema],
      ['outputSchema', def.outputSchema],
    ] as const) {
      if (!this.ajv.validateSchema(schema)) throw new Error(`function ${def.name}: its ${what} is not a JSON Schema: ${this.ajv.errorsText(this.ajv.errors)}`);
    }
    this.defs.set(def.name, def);
  }

  get(name: string): AnyFunctionDef | undefined {
    return this.defs.get(name);
  }

  has(name: string): boolean {
    return this.defs.has(name);
  }

  list(): FunctionInfo[] {
    return [...this.defs.values()]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((d) => ({ name: d.name, description: d.description, argSchema: d.argSchema, outputSchema: d.outputSchema, safety: d.safety }));
  }

  /** Issues of `args` against the function's own argSchema; empty when valid or the name is unknown. */
  checkArgs(name: string, args: unknown): FieldIssue[] {
    const def = this.defs.get(name);
    if (!def) return [];
    let validate = this.argValidators.get(name);
    if (!validate) {
      validate = this.ajv.compile(def.argSchema);
      this.argValidators.set(name, validate);
    }
    if (validate(args)) return [];
    return apiIssues(validate.errors, 'args');
  }
}
