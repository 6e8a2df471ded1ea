/** impl of a `function` tool: the name of an in-process function registered in the core. */
import { Type, type Static } from '@sinclair/typebox';

// A dotted name (core.calc), or a Go import path as the original spec writes goFunc
// (github.com/acme/agent/tools.Weather): unavailable until a function of that name is registered.
export const FunctionImpl = Type.Object(
  { function: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]*(\\.[A-Za-z0-9_-]+)*(/[A-Za-z0-9_.~-]+)*\\.[A-Za-z_][A-Za-z0-9_-]*$', maxLength: 256 }) },
  { additionalProperties: false },
);
export type FunctionImpl = Static<typeof FunctionImpl>;
