import { describe, it, expect, afterAll } from 'vitest';
import { validate as uuidValidate, version as uuidVersion } from 'uuid';
import { createFunctionRegistry } from '../../../../electron/core/functions/core-functions.js';
import { createFunctionRunner } from '../../../../electron/core/tool-types/function/runner.js';
import { defaultRegexSandbox } from '../../../../electron/core/functions/regex.js';
import { uuidFunction } from '../../../../electron/core/functions/uuid.js';
import { jsonPathFunction } from '../../../../electron/core/functions/jsonpath.js';
import { textStatsFunction, textStats, MAX_TEXT_LENGTH } from '../../../../electron/core/functions/text-stats.js';
import { contextFor, coreErrorOf, expectMatchesOutputSchema } from '../../../helpers/functions-context.js';

const runner = createFunctionRunner(createFunctionRegistry());
const call = (fn: string, args: Record<string, unknown>) => runner.run(contextFor(fn, args));

afterAll(() => defaultRegexSandbox.close());

describe('core.uuid', () => {
  it('makes distinct valid v4 UUIDs', async () => {
    const out = await call('core.uuid', { count: 50 });
    const value = out.value as { version: number; uuids: string[] };
    expectMatchesOutputSchema(uuidFunction, value);
    expect(value.version).toBe(4);
    expect(value.uuids).toHaveLength(50);
    expect(new Set(value.uuids).size).toBe(50);
    for (const u of value.uuids) {
      expect(uuidValidate(u)).toBe(true);
      expect(uuidVersion(u)).toBe(4);
    }
  });

  it('makes ascending v7 UUIDs carrying the current time', async () => {
    const before = Date.now();
    const value = (await call('core.uuid', { version: 7, count: 100 })).value as { uuids: string[] };
    expect(value.uuids).toHaveLength(100);
    expect([...value.uuids].sort()).toEqual(value.uuids);
    for (const u of value.uuids) expect(uuidVersion(u)).toBe(7);
    const ms = parseInt(value.uuids[0]!.replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now());
  });

  it.each([
    [{ count: 0 }, 'args.count', 'must be ≥ 1'],
    [{ count: 101 }, 'args.count', 'must be ≤ 100'],
    [{ count: 1.5 }, 'args.count', 'must be integer'],
    [{ version: 5 }, 'args.version', 'must be one of 4, 7'],
  ])('refuses %j', async (args, field, message) => {
    const err = await coreErrorOf(() => call('core.uuid', args));
    expect(err.code).toBe('INVALID_ARGS');
    expect(err.details?.issues).toContainEqual({ field, message });
  });
});

describe('core.jsonpath', () => {
  const store = {
    store: {
      book: [
        { title: 'Sayings', author: 'Rees', price: 8.95 },
        { title: 'Sword', author: 'Waugh', price: 12.99 },
        { title: 'Moby Dick', author: 'Melville', price: 8.99, isbn: '0-553-21311-3' },
      ],
      bicycle: { color: 'red', price: 19.95 },
    },
  };

  it('selects with names, wildcards, recursive descent, slices and unions', async () => {
    const titles = (await call('core.jsonpath', { path: '$.store.book[*].title', json: store })).value as {
      count: number;
      results: { path: string; pointer: string; value: unknown }[];
    };
    expectMatchesOutputSchema(jsonPathFunction, titles);
    expect(titles.results.map((r) => r.value)).toEqual(['Sayings', 'Sword', 'Moby Dick']);
    expect(titles.results[0]).toEqual({ path: "$['store']['book'][0]['title']", pointer: '/store/book/0/title', value: 'Sayings' });
    const prices = (await call('core.jsonpath', { path: '$..price', json: store })).value as { results: { value: number }[] };
    expect(prices.results.map((r) => r.value).sort()).toEqual([12.99, 19.95, 8.95, 8.99]);
    const slice = (await call('core.jsonpath', { path: '$.store.book[-2:].author', json: store })).value as { results: { value: string }[] };
    expect(slice.results.map((r) => r.value)).toEqual(['Waugh', 'Melville']);
    const union = (await call('core.jsonpath', { path: '$.store[bicycle,nothing].color', jsonText: JSON.stringify(store) })).value as {
      count: number;
    };
    expect(union.count).toBe(1);
  });

  it('answers no match for prototype members', async () => {
    for (const path of ['$.constructor', '$.__proto__', '$.store.toString', '$..constructor.name']) {
      const value = (await call('core.jsonpath', { path, json: store })).value as { count: number };
      expect(value.count, path).toBe(0);
    }
  });

  it('caps the results and says so', async () => {
    const json = Array.from({ length: 50 }, (_, i) => ({ i }));
    const value = (await call('core.jsonpath', { path: '$[*].i', json, maxResults: 10 })).value as { count: number; truncated: boolean; results: unknown[] };
    expect(value).toMatchObject({ count: 50, truncated: true });
    expect(value.results).toHaveLength(10);
  });

  it('never executes script or filter expressions', async () => {
    const g = globalThis as { __twPwned?: number };
    delete g.__twPwned;
    const attacks = [
      "$..[?(@.constructor.constructor('globalThis.__twPwned=1')())]",
      "$.store.book[?(@.constructor.constructor('globalThis.__twPwned=7')())]",
      '$..[?(globalThis.__twPwned=2)]',
      '$[(globalThis.__twPwned=3)]',
      '$.store.book[?(@.price < 10 && (globalThis.__twPwned = 5))]',
    ];
    for (const path of attacks) {
      const err = await coreErrorOf(() => call('core.jsonpath', { path, json: store }));
      expect(err.code, path).toBe('INVALID_ARGS');
      expect(err.message, path).toMatch(/disabled because they execute code/);
    }
    // A space gets past our own bracket check, so this one rests on jsonpath-plus's eval: false alone.
    const spaced = "$[ ?(@.constructor.constructor('globalThis.__twPwned=4')())]";
    await call('core.jsonpath', { path: spaced, json: store }).catch(() => undefined);
    const spacedFilter = '$..[ ?(globalThis.__twPwned=6)]';
    await call('core.jsonpath', { path: spacedFilter, json: store }).catch(() => undefined);
    expect(g.__twPwned).toBeUndefined();
  });

  it.each([
    [{ path: '$', json: 1, jsonText: '1' }, 'give exactly one of json'],
    [{ path: '$' }, 'give exactly one of json'],
    [{ path: '$', jsonText: '{"a":' }, 'jsonText: is not valid JSON'],
    [{ path: '$.a[0', json: {} }, "missing ']'"],
    [{ path: '$.a]', json: {} }, "unexpected ']' at 4"],
    [{ path: "$['a]", json: {} }, "unterminated ' quote"],
  ])('refuses %j', async (args, message) => {
    const err = await coreErrorOf(() => call('core.jsonpath', args));
    expect(err.code).toBe('INVALID_ARGS');
    expect(err.message).toContain(message);
  });

  it('refuses a document nested deeper than the limit instead of overflowing the stack', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    for (const path of ['$', '$..*', '$[0][0]']) {
      const err = await coreErrorOf(() => call('core.jsonpath', { path, jsonText: deep }));
      expect(err.code).toBe('INVALID_ARGS');
      expect(err.message).toBe('jsonText: nests deeper than 256 levels; query a smaller part of the document');
    }
    let nested: unknown = 1;
    for (let i = 0; i < 256; i++) nested = { a: nested };
    expect(((await call('core.jsonpath', { path: '$..a', json: nested })).value as { count: number }).count).toBe(256);
  });

  it('treats a bracketed name with a dot literally', async () => {
    const value = (await call('core.jsonpath', { path: "$['a.b']", json: { 'a.b': 1, a: { b: 2 } } })).value as { results: { value: number }[] };
    expect(value.results.map((r) => r.value)).toEqual([1]);
  });

  it.each([null, 0, false, '', 7])('accepts the scalar document %j', async (json) => {
    const root = (await call('core.jsonpath', { path: '$', json })).value as { results: unknown[] };
    expect(root.results).toEqual([{ path: '$', pointer: '', value: json }]);
    const child = (await call('core.jsonpath', { path: '$.a', json })).value as { count: number };
    expect(child.count).toBe(0);
  });
});

describe('core.textStats', () => {
  it('counts an ASCII paragraph', async () => {
    expect(await textStats('Hello world. How are you?\nFine!\n')).toEqual({
      chars: 32,
      codePoints: 32,
      graphemes: 32,
      words: 6,
      lines: 2,
      blankLines: 0,
      sentences: 3,
      bytesUtf8: 32,
      exact: true,
    });
  });

  it('tells UTF-16 units, code points, graphemes and bytes apart', async () => {
    const family = '👩‍👩‍👧'; // 3 emoji joined by 2 ZWJ
    const s = await textStats(family);
    expect(s).toMatchObject({ chars: 8, codePoints: 5, graphemes: 1, bytesUtf8: 18, lines: 1 });
    const nfd = await textStats('e\u0301'); // é as e + combining acute
    expect(nfd).toMatchObject({ chars: 2, codePoints: 2, graphemes: 1, bytesUtf8: 3, words: 1 });
  });

  it('counts words in text without spaces', async () => {
    expect((await textStats('我喜欢吃苹果', 'zh')).words).toBeGreaterThan(1);
    expect((await textStats('Straße und Café', 'de')).words).toBe(3);
  });

  it.each([
    ['', 0, 0],
    ['a', 1, 0],
    ['a\n', 1, 0],
    ['a\n\nb', 3, 1],
    ['a\r\nb\rc\n', 3, 0],
    ['\n', 1, 1],
    ['a\n \n', 2, 1],
  ])('%j has %i lines, %i blank', async (text, lines, blankLines) => {
    expect(await textStats(text)).toMatchObject({ lines, blankLines });
  });

  it('stops between pieces when cancelled', async () => {
    const ac = new AbortController();
    const text = 'word. '.repeat(10_000) + '\n' + 'more words. '.repeat(10_000);
    const pending = textStats(text, undefined, ac.signal);
    ac.abort();
    await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('refuses text over the cap before measuring it', async () => {
    const err = await coreErrorOf(() => call('core.textStats', { text: 'a'.repeat(MAX_TEXT_LENGTH + 1) }));
    expect(err.details?.issues?.[0]).toEqual({ field: 'args.text', message: `must be at most ${MAX_TEXT_LENGTH} characters long` });
  });

  it('returns an escaped card and matches its schema', async () => {
    const out = await call('core.textStats', { text: '<script>alert(1)</script>' });
    expectMatchesOutputSchema(textStatsFunction, out.value);
    expect(out.card?.html).not.toContain('<script>');
  });

  it('refuses a malformed locale', async () => {
    const err = await coreErrorOf(() => call('core.textStats', { text: 'x', locale: 'en_US' }));
    expect(err.details?.issues?.[0]?.field).toBe('args.locale');
  });
});
