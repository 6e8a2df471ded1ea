/**
 * Opening a core compiles no operation's contract schema: the dispatcher compiles one on the
 * operation's first call (ajv's compile of all of them was most of a CLI process's start). Every
 * schema still compiles under the strict contract instance, checked here instead of at start.
 */
import { describe, expect, it } from 'vitest';
import { operations, type OpName } from '../../../../shared/operations.js';
import { createDispatcher, type Handlers } from '../../../../electron/core/operations/dispatch.js';
import { compiledContractSchemas, makeUserAjv, validatorFor } from '../../../../electron/core/validation.js';
import { BundleFile, Config, ToolFile } from '../../../../shared/schemas.js';
import { PipelineImpl } from '../../../../shared/tool-types/pipeline.js';
import { TOOL_TYPE_MODULES } from '../../../../electron/core/tool-types/registry.js';

describe('operation validators', () => {
  it('a dispatcher compiles an operation’s input schema on its first call, once', async () => {
    const before = compiledContractSchemas();
    const dispatch = createDispatcher({ 'system.info': () => ({}) } as unknown as Handlers, () => undefined);
    expect(compiledContractSchemas()).toBe(before);
    await dispatch('system.info', {});
    const afterFirst = compiledContractSchemas();
    expect(afterFirst - before).toBeLessThanOrEqual(1);
    await dispatch('system.info', {});
    expect(compiledContractSchemas()).toBe(afterFirst);
  });

  it('every operation’s input schema compiles under the strict contract instance', () => {
    for (const name of Object.keys(operations) as OpName[]) expect(() => validatorFor(operations[name].input), name).not.toThrow();
  });

  it('every contract schema is a valid JSON Schema (the contract instance skips that check when it compiles)', () => {
    const meta = makeUserAjv();
    const schemas: [string, unknown][] = [
      ['BundleFile', BundleFile],
      ['ToolFile', ToolFile],
      ['Config', Config],
      ['PipelineImpl', PipelineImpl],
      ...Object.values(TOOL_TYPE_MODULES).map((m): [string, unknown] => [`${m.type} implSchema`, m.implSchema]),
      ...(Object.keys(operations) as OpName[]).map((name): [string, unknown] => [name, operations[name].input]),
    ];
    for (const [name, schema] of schemas) expect(meta.validateSchema(schema as object), `${name}: ${meta.errorsText(meta.errors)}`).toBe(true);
  });
});
