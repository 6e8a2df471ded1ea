/**
 * impl of a `pipeline` tool: steps that each call an existing tool, with arguments filled from
 * the pipeline's input and earlier steps' values (template semantics: shared/tool-types/pipeline-templates.ts).
 */
import { Type, type Static } from '@sinclair/typebox';
import { SlugString, Uuid } from '../schema-primitives.js';

import { PIPELINE_MAX_STEPS, PIPELINE_MAX_TIMEOUT_SECONDS, STEP_ID_PATTERN } from './constants.js';

export {
  PIPELINE_DEFAULT_TIMEOUT_SECONDS,
  PIPELINE_MAX_DEPTH,
  PIPELINE_MAX_PARALLEL_STEPS,
  PIPELINE_MAX_STEPS,
  PIPELINE_MAX_TIMEOUT_SECONDS,
  STEP_ID_PATTERN,
} from './constants.js';

/**
 * The tool a step calls: its slug and version, in the pipeline's own bundle unless `bundleID`
 * names another. `bundleSlug` is a hint an export writes beside a `bundleID`, so an import on
 * another machine can re-link the step when that ID is not there.
 */
export const StepToolRef = Type.Object(
  {
    bundleID: Type.Optional(Uuid),
    bundleSlug: Type.Optional(SlugString),
    slug: SlugString,
    version: SlugString,
  },
  { additionalProperties: false },
);
export type StepToolRef = Static<typeof StepToolRef>;

/** A template: a string with `${…}` placeholders, or JSON whose strings are templates; other values are literal. */
const Template = Type.Unknown();

export const PipelineStep = Type.Object(
  {
    id: Type.String({ pattern: STEP_ID_PATTERN }),
    tool: StepToolRef,
    args: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 128 }), Template, { maxProperties: 128 })),
  },
  { additionalProperties: false },
);
export type PipelineStep = Static<typeof PipelineStep>;

export const PipelineImpl = Type.Object(
  {
    steps: Type.Array(PipelineStep, { minItems: 1, maxItems: PIPELINE_MAX_STEPS }),
    /** The result, filled in; left out, the result is the last step's value. */
    output: Type.Optional(Template),
    timeoutSeconds: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: PIPELINE_MAX_TIMEOUT_SECONDS })),
  },
  { additionalProperties: false },
);
export type PipelineImpl = Static<typeof PipelineImpl>;
