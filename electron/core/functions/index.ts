/**
 * The in-process functions that tools of type "function" run, and the runner for them.
 * createFunctionRegistry() returns a registry holding the built-in `core` functions; the
 * composition root hands it to createFunctionRunner() and to the functions.list operation.
 */
import { FunctionRegistry } from './registry.js';
import type { AnyFunctionDef } from './types.js';
import { calcFunction } from './calc.js';
import { nowFunction, convertTimeFunction } from './time.js';
import { uuidFunction } from './uuid.js';
import { jsonPathFunction } from './jsonpath.js';
import { textStatsFunction } from './text-stats.js';
import { regexTestFunction } from './regex.js';
import { readFileFunction, listDirFunction } from './files.js';

export { FunctionRegistry } from './registry.js';
export { createFunctionRunner } from './runner.js';
export { defineFunction } from './types.js';
export type { FunctionDef, FunctionResult, FunctionCard, AnyFunctionDef } from './types.js';
export { defaultRegexSandbox } from './regex.js';

export const CORE_FUNCTIONS: readonly AnyFunctionDef[] = [
  calcFunction,
  nowFunction,
  convertTimeFunction,
  uuidFunction,
  jsonPathFunction,
  textStatsFunction,
  regexTestFunction,
  readFileFunction,
  listDirFunction,
];

export function createFunctionRegistry(): FunctionRegistry {
  const registry = new FunctionRegistry();
  for (const def of CORE_FUNCTIONS) registry.register(def);
  return registry;
}
