import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../../../electron/core/invoke/rate-limit.js';
import { SecretRedactor, maskCredentialHeaders } from '../../../../electron/core/secrets/redact.js';
import { capJsonValue, capText, utf8Bytes, utf8Prefix } from '../../../../electron/core/invoke/truncate.js';

describe('utf8Prefix', () => {
  it('is the longest prefix within the byte budget, at every budget, never splitting a character', () => {
    const text = 'aé€😀b\u0301ß𝄞z';
    const total = utf8Bytes(text);
    for (let max = 0; max <= total + 2; max++) {
      const p = utf8Prefix(text, max);
      expect(text.startsWith(p)).toBe(true);
      expect(utf8Bytes(p)).toBeLessThanOrEqual(max);
      if (p.length < text.length) {
        const cp = text.codePointAt(p.length)!;
        const next = String.fromCodePoint(cp);
        expect(utf8Bytes(p + next), `budget ${max}`).toBeGreaterThan(max);
      }
      expect(p).not.toMatch(/[\uD800-\uDBFF]$/);
    }
  });
});

describe('capText / capJsonValue', () => {
  it('leaves text within the cap alone and cuts longer text to the cap, suffix included', () => {
    expect(capText('hello', 5)).toEqual({ value: 'hello' });
    const cut = capText('x'.repeat(500), 100);
    expect(cut.originalBytes).toBe(500);
    expect(utf8Bytes(cut.value)).toBe(100);
    expect(cut.value).toMatch(/^x+… \[truncated: original 500 bytes\]$/);
  });

  it('measures a value as its JSON text', () => {
    const v = { a: 'ü'.repeat(100) };
    const bytes = utf8Bytes(JSON.stringify(v));
    expect(capJsonValue(v, bytes)).toEqual({ value: v });
    const cut = capJsonValue(v, bytes - 1);
    expect(cut.originalBytes).toBe(bytes);
    expect(cut.value as string).toMatch(/^\{"a":"ü+… \[truncated/);
  });
});

describe('SlidingWindowLimiter', () => {
  it('allows `limit` calls in any window and reports when the oldest leaves', () => {
    const l = new SlidingWindowLimiter(60_000);
    expect(l.retryAfterMs('t', 2, 0)).toBe(0);
    l.record('t', 0);
    l.record('t', 1000);
    expect(l.retryAfterMs('t', 2, 5000)).toBe(55_000);
    expect(l.retryAfterMs('t', 3, 5000)).toBe(0);
    expect(l.retryAfterMs('t', 2, 60_000)).toBe(0);
    expect(l.count('t', 60_000)).toBe(1);
    expect(l.count('t', 61_000)).toBe(0);
  });

  it('a lowered limit counts the calls already made', () => {
    const l = new SlidingWindowLimiter(60_000);
    for (let i = 0; i < 10; i++) l.record('t', i * 1000);
    // Limit 3: the 8th-oldest call (at 7 s) must leave first.
    expect(l.retryAfterMs('t', 3, 10_000)).toBe(57_000);
  });

  it('keeps counting right across its internal compaction', () => {
    const l = new SlidingWindowLimiter(1000);
    let now = 0;
    for (let i = 0; i < 10_000; i++) {
      l.record('t', now);
      now += 1;
    }
    // now = 10 000: calls at 9001…9999 are inside the last second (one made exactly 1 s ago is not).
    expect(l.count('t', now)).toBe(999);
    now += 500;
    expect(l.count('t', now)).toBe(499);
  });
});

describe('SecretRedactor', () => {
  it('replaces the longest secret first and skips short ones', () => {
    const r = SecretRedactor.of(['abcd', 'abcdefgh', 'xyz']);
    expect(r.text('abcdefgh abcd xyz')).toBe('[redacted] [redacted] xyz');
  });

  it('redacts keys and values at depth, leaves the input unchanged, survives cycles', () => {
    const r = SecretRedactor.of(['s3cr3t!']);
    const input: Record<string, unknown> = { 's3cr3t!': ['a s3cr3t! b', { deep: 's3cr3t!' }], n: 1, nil: null };
    input['self'] = input;
    const out = r.deep(input) as Record<string, unknown>;
    expect(out['[redacted]']).toEqual(['a [redacted] b', { deep: '[redacted]' }]);
    expect(out['self']).toBe('[circular]');
    expect(out['n']).toBe(1);
    expect(input['s3cr3t!']).toEqual(['a s3cr3t! b', { deep: 's3cr3t!' }]);
  });

  it('an empty set changes nothing and says so', () => {
    const r = SecretRedactor.of([]);
    expect(r.active).toBe(false);
    const v = { a: 'b' };
    expect(r.deep(v)).toBe(v);
    expect(r.mentionedIn('anything')).toBe(false);
  });
});

describe('maskCredentialHeaders', () => {
  it('keeps the scheme of authorization headers and masks cookies and API-key headers', () => {
    expect(maskCredentialHeaders({ Authorization: 'Bearer abc.def', Cookie: 'a=b', 'X-Api-Key': 'k', Accept: 'application/json' })).toEqual({
      Authorization: 'Bearer [redacted]',
      Cookie: '[redacted]',
      'X-Api-Key': '[redacted]',
      Accept: 'application/json',
    });
  });
});
