/** `function` tools: an in-process function registered by name (functions/core-functions.ts). */
import { FunctionImpl } from '../../../../shared/tool-types/function.js';
import { createFunctionRunner } from './runner.js';
import type { ToolTypeModule } from '../tool-type.js';
import { defaultSafetyOf } from '../../../../shared/tool-types/default-safety.js';

export const functionType: ToolTypeModule<'function'> = {
  type: 'function',
  implSchema: FunctionImpl,
  defaultSafety: (impl) => defaultSafetyOf('function', impl),
  check: () => [],
  secretNames: () => [],
  createRunner: ({ functions, config }) => createFunctionRunner(functions, config),
};
