/**
 * sortedKeysJson writes plain data directly (every audit record's hash and every call's argument
 * digest go through it): its text must be exactly the definition's (JSON.stringify with every
 * object's keys sorted) for any value, or every hash already on disk would stop verifying.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sortedKeysJson, sortedKeysJsonByReplacer } from '../../shared/canonical.js';

/** Keys JSON.stringify orders its own way (integer-like ones first) or must escape. */
const key = fc.oneof(
  fc.string(),
  fc.constantFrom('0', '1', '10', '9', '01', '-1', '4294967295', '4294967294', '__proto__', 'toJSON', 'é', '\u{1F600}', '\ud800', 'a"b', 'Z', 'a'),
);
const leaf = fc.oneof(
  fc.string(),
  fc.double(),
  fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 1e21, 5e-7, Number.MAX_SAFE_INTEGER + 2),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant(() => 1),
  fc.constant(Symbol('s')),
  fc.date({ noInvalidDate: true }),
  fc.constant(new Map([[1, 2]])),
  fc.constant(Object.assign(Object.create(null) as object, { b: 1, a: 2 })),
  fc.constant({ toJSON: () => ({ z: 1, a: [2] }) }),
  fc.constant({ toJSON: 'not a function', b: 1 }),
  fc.constant(new String('boxed')),
);
const value = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('any'), { maxLength: 5 }),
  object: fc.dictionary(key, tie('any'), { maxKeys: 6 }),
})).any;

describe('sortedKeysJson', () => {
  it("gives exactly the definition's text for any value", () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(sortedKeysJson(v)).toBe(sortedKeysJsonByReplacer(v));
      }),
      { numRuns: 3000 },
    );
  });

  it('holes, cycles, BigInt and nesting as the definition has them', () => {
    // eslint-disable-next-line no-sparse-arrays
    const holes = [1, , 3];
    expect(sortedKeysJson({ b: holes, a: undefined })).toBe('{"b":[1,null,3]}');
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    // The definition's replacer makes a new object at each level, so a cycle overflows the stack there too.
    expect(() => sortedKeysJsonByReplacer(cyclic)).toThrow(RangeError);
    expect(() => sortedKeysJson(cyclic)).toThrow(RangeError);
    expect(() => sortedKeysJson({ n: 1n })).toThrow(TypeError);
    expect(sortedKeysJson(undefined)).toBe(undefined);
    expect(sortedKeysJson({ b: { d: 1, c: [{ f: 1, e: 2 }] }, a: 'x' })).toBe('{"a":"x","b":{"c":[{"e":2,"f":1}],"d":1}}');
  });
});
