/**
 * In-process functions by name. Each function's argSchema is compiled once at registration
 * (ajv), so a call pays only for the validation itself.
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
    this.argValidators.set(def.name, this.ajv.compile(def.argSchema));
    this.ajv.compile(def.outputSchema); // fails loudly now rather than in the engine later
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
    const validate = this.argValidators.get(name);
    if (!validate || validate(args)) return [];
    return apiIssues(validate.errors, 'args');
  }
}
