/** impl of a `function` tool: the name of an in-process function registered in the core. */
import { Type, type Static } from '@sinclair/typebox';

export const FunctionImpl = Type.Object(
  { function: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]*(\\.[A-Za-z0-9_-]+)+$', maxLength: 128 }) },
  { additionalProperties: false },
);
export type FunctionImpl = Static<typeof FunctionImpl>;
