/** A container tool's settings on their own: read (secrets as set or not), write, and test. */
import { Type } from '@sinclair/typebox';
import type { ConfigTestResult, ToolConfigView } from '../tool-config.js';
import { op, ToolRef } from './op.js';

const SettingValue = Type.Union([Type.String({ maxLength: 4096 }), Type.Number(), Type.Boolean(), Type.Null()]);

export const toolConfigOperations = {
  'toolConfig.get': op<ToolConfigView>()({
    summary: "A container tool's settings: values of the plain ones, whether each secret is set (never its value), required or not",
    input: Type.Object(ToolRef, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'toolConfig.put': op<ToolConfigView>()({
    summary:
      "Write some of a container tool's settings: each key given is set (a secret into the secrets store), null clears it, keys left out keep their value; checked against the tool's settings schema first",
    input: Type.Object(
      {
        ...ToolRef,
        settings: Type.Record(Type.String({ maxLength: 64 }), SettingValue, { maxProperties: 64 }),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'BUNDLE_DISABLED', 'BUNDLE_DELETED', 'BUILTIN_READONLY'],
  }),
  'toolConfig.test': op<ConfigTestResult>()({
    summary: "Test a container tool's configuration: which required settings are missing, which values do not fit, and whether it can run",
    input: Type.Object(ToolRef, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
} as const;
