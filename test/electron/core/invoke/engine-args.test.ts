import { afterEach, describe, expect, it } from 'vitest';
import { ToolSchemaCache } from '../../../../electron/core/invoke/schema-cache.js';
import { bundleFile, engineTool, harness, refusal, toolFile, type Harness } from '../../../helpers/engine-fixtures.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

async function argsError(argSchema: object | boolean, args: unknown) {
  h ??= await harness();
  const e = await refusal(h.engine.invoke(engineTool(toolFile({ argSchema })), bundleFile(), { args }));
  expect(e.code).toBe('INVALID_ARGS');
  expect(h.runner.calls).toHaveLength(0);
  return e as { code: string; message: string; details: { issues: Array<{ field: string; message: string }> } };
}

describe('argument validation: messages a model can act on', () => {
  it('names a missing required property', async () => {
    h = await harness();
    const e = await refusal(h.engine.invoke(engineTool(), bundleFile(), { args: { days: 3 } }));
    expect(e.code).toBe('INVALID_ARGS');
    expect(e.message).toBe("invalid arguments for weather: missing required property 'city'");
    expect(e.details?.['issues']).toEqual([{ field: 'city', message: 'is required' }]);
  });

  it('states bounds, allowed values and unexpected properties, all at once', async () => {
    h = await harness();
    const e = await refusal(h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo', days: 20, unit: 'k', foo: 1 } }));
    expect(e.message).toContain("'days' must be ≤ 14");
    expect(e.message).toContain(`'unit' must be one of "c", "f"`);
    expect(e.message).toContain("unexpected property 'foo'");
    expect(e.message).not.toMatch(/instancePath|schemaPath|#\//);
    expect(e.details?.['issues']).toEqual(
      expect.arrayContaining([
        { field: 'days', message: 'must be ≤ 14' },
        { field: 'unit', message: 'must be one of "c", "f"' },
        { field: 'foo', message: 'is not an allowed property; remove it or check its spelling' },
      ]),
    );
  });

  it('says which type was expected and which was given', async () => {
    const e = await argsError({ type: 'object', properties: { days: { type: 'integer' } } }, { days: '3' });
    expect(e.message).toContain("'days' must be an integer (got a string)");
  });

  it('gives nested paths with dots and indexes', async () => {
    const schema = {
      type: 'object',
      properties: {
        address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        stops: { type: 'array', items: { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } } },
      },
    };
    const e = await argsError(schema, { address: {}, stops: [{ at: '2026-01-01T00:00:00Z' }, { at: 'tomorrow' }] });
    expect(e.message).toContain("missing required property 'address.city'");
    expect(e.message).toContain("'stops[1].at' must be a valid date-time (e.g. 2026-05-14T13:44:00Z)");
  });

  it('folds anyOf over types into one sentence', async () => {
    const e = await argsError({ type: 'object', properties: { id: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } }, { id: true });
    expect(e.details.issues).toEqual([{ field: 'id', message: 'must be a string or an integer (got a boolean)' }]);
  });

  it('folds anyOf over consts into "one of"', async () => {
    const e = await argsError({ type: 'object', properties: { mode: { anyOf: [{ const: 'fast' }, { const: 'slow' }] } } }, { mode: 'medium' });
    expect(e.message).toContain(`'mode' must be one of "fast", "slow"`);
  });

  it('describes each alternative of a mixed oneOf', async () => {
    const schema = {
      type: 'object',
      properties: {
        where: {
          oneOf: [
            { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
            { type: 'object', properties: { lat: { type: 'number' }, lon: { type: 'number' } }, required: ['lat', 'lon'], additionalProperties: false },
          ],
        },
      },
    };
    const e = await argsError(schema, { where: { lat: 1 } });
    expect(e.message).toContain(
      "'where' must match one of the allowed forms: (1) missing required property 'where.city' and unexpected property 'where.lat'; or (2) missing required property 'where.lon'",
    );
  });

  it('refuses arguments that are not a JSON object', async () => {
    h = await harness();
    for (const args of [[1, 2], 'city=Oslo', 42]) {
      const e = await refusal(h.engine.invoke(engineTool(), bundleFile(), { args }));
      expect(e.code).toBe('INVALID_ARGS');
      expect(e.message).toMatch(/^the arguments must be a JSON object \(got (an array|a string|a number)\)$/);
    }
  });

  it('covers string, array and number keywords', async () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 3, pattern: '^[a-z]+$' },
        tags: { type: 'array', minItems: 1, maxItems: 2, uniqueItems: true },
        step: { type: 'number', multipleOf: 5, exclusiveMinimum: 0 },
      },
    };
    let e = await argsError(schema, { name: '', tags: [], step: 0 });
    expect(e.message).toContain("'name' must not be empty");
    expect(e.message).toContain("'tags' must have at least 1 item");
    expect(e.message).toContain("'step' must be > 0");
    e = await argsError(schema, { name: 'ABCD', tags: ['a', 'a', 'b'], step: 7 });
    expect(e.message).toContain("'name' must be at most 3 characters long");
    expect(e.message).toContain("'name' must match the pattern ^[a-z]+$");
    expect(e.message).toContain("'tags' must have at most 2 items");
    expect(e.message).toContain("'tags' must not contain duplicates");
    expect(e.message).toContain("'step' must be a multiple of 5");
  });

  it('limits the message to a few issues and says how many more', async () => {
    const properties = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`p${i}`, { type: 'string' }]));
    const e = await argsError({ type: 'object', properties, required: Object.keys(properties) }, {});
    expect(e.message).toMatch(/; and 4 more$/);
    expect(e.details.issues).toHaveLength(12);
  });

  it("a tool whose argSchema cannot be compiled is unavailable, not the caller's fault", async () => {
    h = await harness();
    const e = await refusal(h.engine.invoke(engineTool(toolFile({ argSchema: { type: 'nonsense' } })), bundleFile(), { args: {} }));
    expect(e.code).toBe('TOOL_UNAVAILABLE');
    expect(e.message).toContain('argSchema is not a valid JSON Schema');
  });
});

describe('ToolSchemaCache', () => {
  it('compiles once per tool revision', () => {
    const cache = new ToolSchemaCache();
    const file = toolFile();
    const first = cache.validators(file);
    expect(cache.validators(file)).toBe(first);
    // A reload from disk gives a new object with the same content: still no recompilation.
    const reloaded = JSON.parse(JSON.stringify(file)) as typeof file;
    expect(cache.validators(reloaded)).toBe(first);
    expect(cache.compilations).toBe(2); // argSchema + outputSchema, once
  });

  it('recompiles for a new modifiedAt, and for a schema changed without one', () => {
    const cache = new ToolSchemaCache();
    const file = toolFile();
    const v1 = cache.validators(file);
    expect(v1.args({ city: 'x', days: 20 })).toBe(false);
    const edited = { ...file, modifiedAt: '2026-07-01T00:00:00.000Z', argSchema: { type: 'object' } };
    expect(cache.validators(edited).args({ city: 'x', days: 20 })).toBe(true);
    const handEdited = { ...file, argSchema: { type: 'object', required: ['zip'] } };
    expect(cache.validators(handEdited).args({ city: 'x' })).toBe(false);
    expect(cache.compilations).toBe(6);
  });

  it('is bounded: the least recently used revision is dropped', () => {
    const cache = new ToolSchemaCache(2);
    const [a, b, c] = [toolFile(), toolFile(), toolFile()];
    cache.validators(a);
    cache.validators(b);
    cache.validators(a);
    cache.validators(c); // evicts b
    const before = cache.compilations;
    cache.validators(a);
    expect(cache.compilations).toBe(before);
    cache.validators(b);
    expect(cache.compilations).toBe(before + 2);
  });

  it('handles two revisions that share a $id, and self-references', () => {
    const cache = new ToolSchemaCache();
    const schema = (max: number) => ({
      $id: 'https://example.com/tree',
      type: 'object',
      properties: { depth: { type: 'integer', maximum: max }, child: { $ref: '#' } },
    });
    const one = toolFile({ argSchema: schema(1) });
    const two = { ...one, modifiedAt: '2026-07-01T00:00:00.000Z', argSchema: schema(5) };
    expect(cache.validators(one).args({ depth: 1, child: { depth: 3 } })).toBe(false);
    expect(cache.validators(two).args({ depth: 1, child: { depth: 3 } })).toBe(true);
    expect(cache.validators(one).args({ depth: 1, child: { depth: 1 } })).toBe(true);
  });

  it('accepts boolean schemas', () => {
    const cache = new ToolSchemaCache();
    const v = cache.validators(toolFile({ argSchema: true, outputSchema: false }));
    expect(v.args({ anything: 1 })).toBe(true);
    expect(v.output(1)).toBe(false);
  });
});
