/**
 * Opening a core compiles no operation's contract schema: the dispatcher compiles one on the
 * operation's first call (ajv's compile of all of them was most of a CLI process's start). Every
 * schema still compiles under the strict contract instance, checked here instead of at start.
 */
import { describe, expect, it } from 'vitest';
import { operations, type OpName } from '../../../../shared/operations.js';
import { createDispatcher, type Handlers } from '../../../../electron/core/operations/dispatch.js';
import { compiledContractSchemas, validatorFor } from '../../../../electron/core/validation.js';

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
});
