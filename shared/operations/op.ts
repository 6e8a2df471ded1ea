/** The shape every operation's entry takes, and the schema pieces several domains share. */
import { Type, type TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '../errors.js';
import { Uuid } from '../schemas.js';

export interface OpDef<I extends TSchema, O> {
  input: I;
  errors: readonly ErrorCode[];
  /** Phantom: carries the output type only. */
  output?: O;
  /** Human summary, shown in docs and errors. */
  summary: string;
}

export function op<O>() {
  return <I extends TSchema>(def: Omit<OpDef<I, O>, 'output'>): OpDef<I, O> => def;
}

export const Ids = Type.Array(Uuid, { maxItems: 1000 });
export const PageSize = Type.Integer({ minimum: 1, maximum: 1000 });
export const PageToken = Type.String({ maxLength: 2048 });
export const ToolRef = { bundleID: Uuid, slug: Type.String({ minLength: 1, maxLength: 1024 }), version: Type.String({ minLength: 1, maxLength: 1024 }) };
export const EnabledPatch = Type.Object({ isEnabled: Type.Boolean() }, { additionalProperties: false });
/** If-Match of a write: the file's ETag (as answered, unquoted), `*`, or its modifiedAt (the older form). */
export const IfMatch = Type.Optional(Type.String({ maxLength: 64 }));
/** What a run can be refused with before it starts (tools.invoke, schedules.run). */
export const INVOKE_ERRORS: readonly ErrorCode[] = [
  'INVALID_INPUT',
  'INVALID_ARGS',
  'NOT_FOUND',
  'TOOLS_DISABLED',
  'CONFIRMATION_REQUIRED',
  'RATE_LIMITED',
  'TOOL_UNAVAILABLE',
  'BUNDLE_DISABLED',
  'BUNDLE_DELETED',
  'TOOL_DISABLED',
  'CONFLICT',
];
