/** Running a tool: invoke, cancel, and its history. */
import { Type } from '@sinclair/typebox';
import type { InvokeResult, HistoryEntry } from '../types.js';
import { op, ToolRef, INVOKE_ERRORS } from './op.js';

export const runsOperations = {
  'tools.invoke': op<InvokeResult>()({
    summary: 'Run a tool with arguments',
    input: Type.Object(
      {
        ...ToolRef,
        args: Type.Optional(Type.Unknown()),
        confirm: Type.Optional(Type.Boolean()),
        invocationID: Type.Optional(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })),
      },
      { additionalProperties: false },
    ),
    errors: INVOKE_ERRORS,
  }),
  'tools.cancel': op<{ cancelled: boolean }>()({
    summary: 'Cancel a running invocation',
    input: Type.Object({ invocationID: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT'],
  }),
  'tools.history': op<{ items: HistoryEntry[] }>()({
    summary: 'Recent invocations of a tool, newest first',
    input: Type.Object({ ...ToolRef, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
} as const;
