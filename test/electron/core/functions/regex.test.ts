import { describe, it, expect, afterAll } from 'vitest';
import { RegexSandbox } from '../../../../electron/core/functions/regex-sandbox.js';
import { createRegexTestFunction, MAX_PATTERN_LENGTH, type RegexTestValue } from '../../../../electron/core/functions/regex.js';
import { FunctionRegistry } from '../../../../electron/core/functions/registry.js';
import { createFunctionRunner } from '../../../../electron/core/tool-types/function/runner.js';
import { contextFor, coreErrorOf, expectMatchesOutputSchema } from '../../../helpers/functions-context.js';

const sandbox = new RegexSandbox();
const regexTest = createRegexTestFunction(sandbox);
const registry = new FunctionRegistry();
registry.register(regexTest);
const runner = createFunctionRunner(registry);

afterAll(() => sandbox.close());

async function test(args: Record<string, unknown>, signal?: AbortSignal): Promise<RegexTestValue> {
  const out = await runner.run(contextFor('core.regexTest', args, signal ? { signal } : {}));
  expectMatchesOutputSchema(regexTest, out.value);
  return out.value as RegexTestValue;
}

// Exponential on V8's backtracking engine: 2^n paths before failing on the final 'b'.
const CATASTROPHIC = { pattern: '^(a+)+$', text: 'a'.repeat(64) + 'b' };

describe('core.regexTest', () => {
  it('lists matches with groups, named groups and positions', async () => {
    const v = await test({ pattern: '(?<year>\\d{4})-(\\d{2})(-(\\d{2}))?', text: 'from 2026-01 to 2027-02-15' });
    expect(v).toMatchObject({ matched: true, count: 2, truncated: false, flags: 'g' });
    expect(v.matches[0]).toEqual({
      match: '2026-01',
      index: 5,
      end: 12,
      groups: ['2026', '01', null, null],
      groupIndices: [[5, 9], [10, 12], null, null],
      namedGroups: { year: '2026' },
    });
    expect(v.matches[1]!.groups).toEqual(['2027', '02', '-15', '15']);
  });

  it('returns only the first match without the g flag, and honours i', async () => {
    const v = await test({ pattern: 'cat', text: 'Cat cat CAT', flags: 'i' });
    expect(v.count).toBe(1);
    expect(v.matches[0]!.match).toBe('Cat');
    expect((await test({ pattern: 'cat', text: 'Cat cat CAT', flags: 'gi' })).count).toBe(3);
    expect(await test({ pattern: 'dog', text: 'Cat cat CAT' })).toMatchObject({ matched: false, count: 0, matches: [] });
  });

  it('steps over empty matches, by code point with the u flag', async () => {
    expect((await test({ pattern: 'a*', text: 'baaac' })).matches.map((m) => [m.match, m.index])).toEqual([
      ['', 0],
      ['aaa', 1],
      ['', 4],
      ['', 5],
    ]);
    const astral = await test({ pattern: '(?:)', text: '😀x', flags: 'gu' });
    expect(astral.matches.map((m) => m.index)).toEqual([0, 2, 3]);
  });

  it('stops at maxMatches and says it did', async () => {
    const v = await test({ pattern: '\\d', text: '0123456789', maxMatches: 4 });
    expect(v).toMatchObject({ count: 4, truncated: true });
    expect((await test({ pattern: '\\d', text: '0123', maxMatches: 4 })).truncated).toBe(false);
  });

  it('reports an invalid pattern as the caller wrote it', async () => {
    const err = await coreErrorOf(() => test({ pattern: '(a', text: 'a' }));
    expect(err.code).toBe('INVALID_ARGS');
    expect(err.message).toContain('Invalid regular expression: /(a/g: Unterminated group');
    const flags = await coreErrorOf(() => test({ pattern: 'a', text: 'a', flags: 'gg' }));
    expect(flags.message).toMatch(/Invalid flags|flags/);
  });

  it('refuses unknown flags, an over-long pattern and a bad budget before matching', async () => {
    expect((await coreErrorOf(() => test({ pattern: 'a', text: 'a', flags: 'x' }))).details?.issues?.[0]?.field).toBe('args.flags');
    const long = await coreErrorOf(() => test({ pattern: 'a'.repeat(MAX_PATTERN_LENGTH + 1), text: 'a' }));
    expect(long.message).toContain(`must be at most ${MAX_PATTERN_LENGTH} characters long`);
    expect((await coreErrorOf(() => test({ pattern: 'a', text: 'a', timeoutMs: 60_000 }))).details?.issues?.[0]?.field).toBe('args.timeoutMs');
  });

  it('stops catastrophic backtracking with TIMEOUT and keeps working afterwards', async () => {
    const startsBefore = sandbox.workerStarts;
    const err = await coreErrorOf(() => test({ ...CATASTROPHIC, timeoutMs: 200 }));
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toMatch(/ran longer than 200 ms and was stopped; .*catastrophic backtracking/);
    const v = await test({ pattern: 'b$', text: CATASTROPHIC.text });
    expect(v.matches[0]!.index).toBe(64);
    expect(sandbox.workerStarts).toBe(startsBefore + 1);
  });

  it('cancels a running match when the invocation is aborted', async () => {
    const ac = new AbortController();
    const pending = test({ ...CATASTROPHIC, timeoutMs: 5000 }, ac.signal);
    setTimeout(() => ac.abort(), 50);
    const err = await coreErrorOf(() => pending);
    expect(err.code).toBe('CANCELLED');
    expect((await test({ pattern: 'x', text: 'x' })).count).toBe(1);
  });

  it('serves queued calls in order, a runaway one failing alone', async () => {
    const results = await Promise.allSettled([
      test({ pattern: 'a', text: 'aa' }),
      test({ ...CATASTROPHIC, timeoutMs: 100 }),
      test({ pattern: 'b', text: 'bbb' }),
      test({ pattern: '(', text: '' }),
      test({ pattern: 'c', text: 'c' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseFulfilledResult<RegexTestValue>).value.count).toBe(3);
    expect((results[1] as PromiseRejectedResult).reason.code).toBe('TIMEOUT');
    expect((results[3] as PromiseRejectedResult).reason.code).toBe('INVALID_ARGS');
  });

  it('reuses one worker across ordinary calls', async () => {
    const starts = sandbox.workerStarts;
    for (let i = 0; i < 20; i++) await test({ pattern: String(i), text: '0123456789' });
    expect(sandbox.workerStarts).toBe(starts);
  });

  it('fails calls in flight when it is closed, and starts afresh afterwards', async () => {
    const running = test({ ...CATASTROPHIC, timeoutMs: 5000 }).catch((e: unknown) => e);
    const queued = test({ pattern: 'a', text: 'a' }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 30));
    await sandbox.close();
    expect(await running).toMatchObject({ code: 'CANCELLED' });
    expect(await queued).toMatchObject({ code: 'CANCELLED' });
    expect((await test({ pattern: 'a', text: 'aa' })).count).toBe(2);
  });

  it('keeps a group named __proto__ as data', async () => {
    const v = await test({ pattern: '(?<__proto__>x)', text: 'x' });
    expect(Object.entries(v.matches[0]!.namedGroups)).toEqual([['__proto__', 'x']]);
  });

  it('escapes the text in its card', async () => {
    const out = await runner.run(contextFor('core.regexTest', { pattern: 'b', text: '<img src=x onerror=alert(1)> b' }));
    expect(out.card?.html).toBe('<pre>&lt;img src=x onerror=alert(1)&gt; <mark>b</mark></pre>');
  });
});
