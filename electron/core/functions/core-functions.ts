/**
 * The in-process functions that tools of type "function" run: the built-in `core` ones (and the
 * schedule tools of the built-in `schedules` bundle).
 * createFunctionRegistry() returns a registry holding them; the function tool type
 * (tool-types/function.ts) builds its runner over it, and functions.list lists it.
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
import { fileWriteFunction, fileEditFunction, fileDeleteFunction } from './files-write.js';
import { globFunction } from './glob.js';
import { fileSearchFunction } from './file-search.js';
import { webFetchFunction } from './web/web-fetch.js';
import { shellExecFunction } from './shell/shell-exec.js';
import { webSearchFunction } from './web/web-search.js';
import { SCHEDULE_FUNCTIONS } from './schedules.js';

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
  fileSearchFunction,
  globFunction,
  fileWriteFunction,
  fileEditFunction,
  fileDeleteFunction,
  webFetchFunction,
  shellExecFunction,
  webSearchFunction,
  ...SCHEDULE_FUNCTIONS,
];

export function createFunctionRegistry(): FunctionRegistry {
  const registry = new FunctionRegistry();
  for (const def of CORE_FUNCTIONS) registry.register(def);
  return registry;
}
