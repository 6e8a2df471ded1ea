/** `pipeline` tools: steps that each call an existing tool, through the engine's gates. */
import { PipelineImpl } from '../../../../shared/tool-types/pipeline.js';
import { checkPipelineStructure, schemaPropertyNames } from '../../../../shared/tool-types/pipeline-templates.js';
import { createPipelineRunner } from './runner.js';
import { checkPipelineReferences, stepsSafety } from './refs.js';
import { pipelineTransfer } from './transfer.js';
import type { ToolTypeModule } from '../tool-type.js';
import { defaultSafetyOf } from '../../../../shared/tool-types/default-safety.js';

export const pipelineType: ToolTypeModule<'pipeline'> = {
  type: 'pipeline',
  implSchema: PipelineImpl,
  // Raised at save to the most dangerous step's (safetyFloor), and at run time by the runner.
  defaultSafety: (impl) => defaultSafetyOf('pipeline', impl),
  safetyFloor: (impl, ctx) => (ctx.tools ? stepsSafety(impl, ctx.bundleID, ctx.tools) : 'readOnly'),
  check(impl, ctx) {
    const issues = checkPipelineStructure(impl, schemaPropertyNames(ctx.argSchema));
    if (ctx.tools) issues.push(...checkPipelineReferences(impl, ctx, ctx.tools));
    return issues;
  },
  secretNames: () => [],
  transfer: pipelineTransfer,
  createRunner: ({ steps }) => createPipelineRunner(steps),
};
