import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatCount, plural } from '../../renderer/src/lib/format.js';
import { compactTokens, tokensApprox } from '../../shared/agents/context-cost.js';

describe('counts as the app shows them', () => {
  it('formats a count as Number#toLocaleString does, from one shared formatter', () => {
    for (const n of [0, 7, 1234, 10_000, 1_234_567, 12.5]) expect(formatCount(n)).toBe(n.toLocaleString());
    expect(plural(1, 'tool')).toBe('1 tool');
    expect(plural(12_345, 'tool')).toBe(`${(12_345).toLocaleString()} tools`);
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
  });

  it('words token counts in en-US whatever the locale', () => {
    expect(tokensApprox(3_462_047)).toBe('≈ 3,462,047 tokens');
    expect(compactTokens(830)).toBe('830 tok');
    expect(compactTokens(1_249)).toBe('1.2k tok');
    expect(compactTokens(12_499)).toBe('12k tok');
  });
});

describe('formatters at module load', () => {
  afterEach(() => vi.restoreAllMocks());

  // A tab's first Intl object loads ICU's locale data (40–220 ms at load 6–7): the first screen's
  // modules build their formatters on first use, never while the entry chunk is evaluated.
  it.each(['../../renderer/src/lib/format.js', '../../shared/agents/context-cost.js'])('%s builds none until a count is formatted', async (module) => {
    const built = (['NumberFormat', 'DateTimeFormat', 'RelativeTimeFormat', 'PluralRules'] as const).map((kind) => vi.spyOn(Intl, kind));
    vi.resetModules();
    await import(module);
    expect(built.map((spy) => spy.mock.calls.length)).toEqual([0, 0, 0, 0]);
  });
});
