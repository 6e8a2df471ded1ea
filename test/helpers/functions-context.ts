/** Shared set-up for the function tests: a RunContext for a function tool and an outputSchema check. */
import { expect } from 'vitest';
import type { RunContext } from '../../electron/core/invoke/types.js';
import type { SecretsReader } from '../../electron/core/secrets/types.js';
import { DEFAULT_CONFIG, type Config, type ToolFile } from '../../shared/schemas.js';
import type { AnyFunctionDef } from '../../electron/core/functions/types.js';
import { makeUserAjv } from '../../electron/core/validation.js';
import { CoreError } from '../../electron/core/errors.js';

export const noSecrets: SecretsReader = { get: () => undefined, has: () => false, values: () => [] };

export function functionTool(functionName: string, overrides: Partial<ToolFile> = {}): ToolFile {
  return {
    schemaVersion: '1',
    toolID: '0190a000-0000-7000-8000-0000000000aa',
    bundleID: '0190a000-0000-7000-8000-0000000000bb',
    slug: 'test-tool',
    version: 'v1',
    displayName: 'Test tool',
    description: '',
    type: 'function',
    isEnabled: true,
    isBuiltIn: false,
    tags: [],
    safety: 'readOnly',
    argSchema: { type: 'object' },
    outputSchema: {},
    impl: { function: functionName },
    card: { enabled: true },
    limits: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    modifiedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  } as ToolFile;
}

export function contextFor(
  functionName: string,
  args: Record<string, unknown>,
  opts: { config?: Partial<Config>; signal?: AbortSignal; tool?: ToolFile } = {},
): RunContext {
  return {
    invocationID: 'test-invocation',
    tool: opts.tool ?? functionTool(functionName),
    toolDir: '/nonexistent-tool-dir',
    args,
    config: { ...DEFAULT_CONFIG, ...opts.config },
    secrets: noSecrets,
    signal: opts.signal ?? new AbortController().signal,
  };
}

const ajv = makeUserAjv();

/** Fails the test when `value` does not match the function's declared outputSchema. */
export function expectMatchesOutputSchema(def: AnyFunctionDef, value: unknown): void {
  const validate = ajv.compile(def.outputSchema);
  const ok = validate(value);
  expect(ok ? [] : validate.errors).toEqual([]);
}

/** Runs fn and returns the CoreError it throws (fails when it does not throw one). */
export async function coreErrorOf(fn: () => unknown): Promise<CoreError> {
  try {
    await fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CoreError);
    return e as CoreError;
  }
  throw new Error('expected a CoreError, but the call succeeded');
}
