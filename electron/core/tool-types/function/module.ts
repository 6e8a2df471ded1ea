/** `function` tools: an in-process function registered by name (functions/core-functions.ts). */
import { FunctionImpl } from '../../../../shared/tool-types/function.js';
import { createFunctionRunner } from './runner.js';
import type { ToolTypeModule } from '../tool-type.js';
import type { ContainerRunner } from '../container/runner.js';
import { defaultSafetyOf } from '../../../../shared/tool-types/default-safety.js';

export const functionType: ToolTypeModule<'function'> = {
  type: 'function',
  implSchema: FunctionImpl,
  defaultSafety: (impl) => defaultSafetyOf('function', impl),
  check: () => [],
  secretNames: () => [],
  createRunner: ({ functions, config, http, runners, operations }) =>
    createFunctionRunner(functions, config, {
      ...(http ? { http } : {}),
      // The container runner's sandbox runs shell-exec's commands: one engine, one set of limits and clean-ups.
      sandbox: () => (runners?.().find((r) => r.type === 'container') as ContainerRunner | undefined)?.commands,
      ...(operations ? { operations } : {}),
    }),
};
