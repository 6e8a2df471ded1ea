/** Pure parts of the http runner: address classes, Retry-After, backoff, token cache, extraction. */
import { describe, expect, it } from 'vitest';
import { classifyAddress, guardedLookup } from '../../../../../electron/core/tool-types/http/addresses.js';
import { backoffDelay, parseRetryAfter, retryDelay } from '../../../../../electron/core/tool-types/http/retry.js';
import { hmacHeaders, parseTokenResponse, TokenCache, type TokenRequest } from '../../../../../electron/core/tool-types/http/auth.js';
import { compileExtractExpr } from '../../../../../electron/core/tool-types/http/extract.js';
import { createHmac } from 'node:crypto';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['169.254.1.1', 'linkLocal'],
    ['169.254.169.254', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::127.0.0.1', 'loopback'],
    ['::1:2', 'reserved'],
    ['fc00::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['64:ff9b::7f00:1', 'rfc6052(loopback)'],
    ['2002:c0a8:101::1', '6to4(private)'],
  ])('%s is refused as %s', (address, range) => {
    expect(classifyAddress(address)).toEqual({ ok: false, range });
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '64:ff9b::808:808', '2002:808:808::1', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(classifyAddress(address).ok).toBe(true);
    },
  );

  it('rejects non-addresses', () => {
    expect(classifyAddress('localhost').ok).toBe(false);
  });
});

describe('guardedLookup', () => {
  const answer = (list: { address: string; family: number }[]) => async () => list;
  const call = (fn: ReturnType<typeof guardedLookup>, all: boolean) =>
    new Promise<{ err: Error | null; address: unknown; family?: number }>((resolve) =>
      fn('h.test', { all }, (err, address, family) => resolve({ err, address, family })),
    );

  it('passes public answers through in both callback shapes', async () => {
    const fn = guardedLookup(answer([{ address: '8.8.8.8', family: 4 }]), classifyAddress);
    expect(await call(fn, false)).toEqual({ err: null, address: '8.8.8.8', family: 4 });
    expect((await call(fn, true)).address).toEqual([{ address: '8.8.8.8', family: 4 }]);
  });

  it('refuses the whole answer when any address is private', async () => {
    const fn = guardedLookup(
      answer([
        { address: '8.8.8.8', family: 4 },
        { address: '::1', family: 6 },
      ]),
      classifyAddress,
    );
    const res = await call(fn, true);
    expect((res.err as { code?: string }).code).toBe('FORBIDDEN');
  });

  it('does not judge when no classifier is given (private network allowed)', async () => {
    const fn = guardedLookup(answer([{ address: '127.0.0.1', family: 4 }]), undefined);
    expect((await call(fn, false)).address).toBe('127.0.0.1');
  });
});

describe('retry timing', () => {
  it('parses Retry-After seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('full jitter stays within min(cap, base·2^n)', () => {
    for (let n = 0; n < 8; n++) {
      const ceiling = Math.min(5000, 200 * 2 ** n);
      expect(backoffDelay(n, {}, () => 0)).toBe(0);
      expect(backoffDelay(n, {}, () => 0.999999)).toBe(Math.floor(0.999999 * ceiling));
    }
  });

  it('Retry-After wins over backoff and is capped', () => {
    expect(retryDelay(0, '3', {}, () => 0.5)).toBe(3000);
    expect(retryDelay(0, '99999', { retryAfterCapMs: 10_000 }, () => 0.5)).toBe(10_000);
    expect(retryDelay(2, undefined, {}, () => 0.5)).toBe(400);
  });
});

describe('TokenCache', () => {
  const req: TokenRequest = { tokenUrl: 'https://auth.example/token', clientId: 'id', clientSecret: 's', scope: 'read', audience: undefined };

  it('refreshes 30 s before expiry, not earlier', async () => {
    let now = 1_000_000;
    let fetched = 0;
    const cache = new TokenCache(
      async () => ({ accessToken: `t${++fetched}`, expiresIn: 3600 }),
      () => now,
    );
    const signal = new AbortController().signal;
    expect(await cache.get(req, signal)).toBe('t1');
    now += 3569_000;
    expect(await cache.get(req, signal)).toBe('t1');
    now += 2_000; // 3571 s: inside the 30 s margin
    expect(await cache.get(req, signal)).toBe('t2');
  });

  it('invalidates only the token it was told about', async () => {
    let fetched = 0;
    const cache = new TokenCache(async () => ({ accessToken: `t${++fetched}`, expiresIn: undefined }));
    const signal = new AbortController().signal;
    await cache.get(req, signal);
    cache.invalidate(req, 'some-older-token');
    expect(await cache.get(req, signal)).toBe('t1');
    cache.invalidate(req, 't1');
    expect(await cache.get(req, signal)).toBe('t2');
  });

  it('a caller that cancels does not cancel the shared fetch for others', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const cache = new TokenCache(async () => {
      await gate;
      return { accessToken: 'shared', expiresIn: 60 };
    });
    const ac = new AbortController();
    const cancelled = cache.get(req, ac.signal);
    const other = cache.get(req, new AbortController().signal);
    ac.abort();
    release();
    await expect(cancelled).rejects.toBeDefined();
    expect(await other).toBe('shared');
  });

  it('parses token answers and refuses non-Bearer tokens', () => {
    expect(parseTokenResponse('h', '{"access_token":"a","expires_in":"120"}')).toEqual({ accessToken: 'a', expiresIn: 120 });
    expect(() => parseTokenResponse('h', '{"token_type":"bearer"}')).toThrow(/access_token/);
    expect(() => parseTokenResponse('h', '{"access_token":"a","token_type":"mac"}')).toThrow(/Bearer/);
  });
});

describe('hmacHeaders', () => {
  it('signs `${timestamp}\\n${METHOD}\\n${path+query}\\n${body}`', () => {
    const headers = hmacHeaders(
      { type: 'hmac', secret: 'K' },
      'key',
      { method: 'post', url: new URL('https://a.example/p/q?x=1'), body: '{}' },
      1_700_000_000_123,
    );
    expect(headers['x-timestamp']).toBe('1700000000');
    expect(headers['x-signature']).toBe(createHmac('sha256', 'key').update('1700000000\nPOST\n/p/q?x=1\n{}').digest('hex'));
  });
});

describe('compileExtractExpr', () => {
  // Regexes run on RE2 (linear time): what it cannot express (backreferences, lookaround) is refused.
  it.each(['temp', '$.a[?(@.b)]', '/unclosed', '/x/z', '/(/', '/(a)\\1/', '/a(?=b)/', '/(?<!x)y/'])('refuses %s with INVALID_INPUT', (expr) => {
    expect(() => compileExtractExpr(expr)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }) as Error);
  });

  it.each(['/(a*)*b/', '/^(a|aa)+$/', '/(a+)+$/'])('runs %s, a classic catastrophic-backtracking shape, in linear time', (expr) => {
    const x = compileExtractExpr(expr);
    const hostile = 'a'.repeat(50_000) + '!';
    // eslint-disable-next-line prefer-spread
    expect(x.apply(null, hostile)).toEqual({ found: false });
  });

  it('a sticky regex gives the same answer every time', () => {
    const x = compileExtractExpr('/a(\\d)/y');
    // `apply` is the extractor's own method (json, text), not Function.prototype.apply.
    // eslint-disable-next-line prefer-spread
    expect(x.apply(null, 'a1a2')).toEqual({ found: true, value: '1' });
    // eslint-disable-next-line prefer-spread
    expect(x.apply(null, 'a1a2')).toEqual({ found: true, value: '1' });
  });
});
