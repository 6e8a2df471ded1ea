import { describe, expect, it } from 'vitest';
import { checkSlug, checkVersion, MAX_SLUG_RUNES, copySlug } from '../../shared/slug.js';

describe('slug rules', () => {
  it.each([
    ['weather'],
    ['Weather-Now'],
    ['météo'],
    ['天気'],
    ['wetter-なう'],
    ['нагода'],
    ['नमस्ते'], // Devanagari needs combining marks even in NFC
    ['a1-b2'],
    ['٣'], // Arabic-Indic digit
  ])('accepts %s', (slug) => {
    const r = checkSlug(slug);
    expect(r.message).toBeUndefined();
    expect(r.ok).toBe(true);
  });

  it.each([
    ['', 'must not be empty'],
    ['foo_bar', "'_'"],
    ['foo bar', 'whitespace'],
    ['foo/bar', "'/'"],
    ['foo.bar', "'.'"],
    ['tab\there', 'whitespace'],
    ['nul\u0000x', 'control character'],
    ['zero\u200bwidth', 'control character'],
    ['rocket🚀', 'emoji'],
    ['1️⃣', 'U+FE0F'],
    ['a+b', "'+'"],
    ['€uro', "'€'"],
    ['dollar$', "'$'"],
  ])('refuses %j with a reason', (slug, reason) => {
    const r = checkSlug(slug);
    expect(r.ok).toBe(false);
    expect(r.message).toContain(reason);
  });

  it('normalises NFD input to NFC before checking and storing', () => {
    const nfd = 'me\u0301te\u0301o';
    const r = checkSlug(nfd);
    expect(r.ok).toBe(true);
    expect(r.value).toBe('météo');
    expect(r.value).toBe(nfd.normalize('NFC'));
    expect(r.value.length).toBe(5);
  });

  it('counts runes (code points), not UTF-16 units: 64 pass, 65 fail', () => {
    const astral = '𝒜'; // a letter outside the BMP: 2 UTF-16 units, 1 rune
    expect(astral.length).toBe(2);
    const ok = astral.repeat(MAX_SLUG_RUNES);
    expect(checkSlug(ok).ok).toBe(true);
    const tooLong = astral.repeat(MAX_SLUG_RUNES + 1);
    const r = checkSlug(tooLong);
    expect(r.ok).toBe(false);
    expect(r.message).toContain('65 characters');
    expect(checkSlug('a'.repeat(64)).ok).toBe(true);
    expect(checkSlug('a'.repeat(65)).ok).toBe(false);
  });

  it('counts the NFC form: 64 precomposed letters typed as NFD still pass', () => {
    const nfd = 'e\u0301'.repeat(64); // 128 code points before NFC, 64 after
    expect(checkSlug(nfd).ok).toBe(true);
  });

  it('is case-sensitive (no folding)', () => {
    expect(checkSlug('Weather').value).not.toBe(checkSlug('weather').value);
  });

  it('allows dots in versions only', () => {
    expect(checkVersion('1.2.3').ok).toBe(true);
    expect(checkVersion('v2.0-beta').ok).toBe(true);
    expect(checkSlug('1.2.3').ok).toBe(false);
    expect(checkVersion('1_2').ok).toBe(false);
    expect(checkVersion('1/2').message).toContain('version');
  });
});

describe('copySlug', () => {
  it('suggests <slug>-copy, then -copy-2…, free among the taken slugs, and itself a valid slug', () => {
    expect(copySlug('travel', new Set(['travel']))).toBe('travel-copy');
    expect(copySlug('travel', new Set(['travel', 'travel-copy', 'travel-copy-2']))).toBe('travel-copy-3');
    const long = 'é'.repeat(64);
    const copy = copySlug(long, new Set([long]));
    expect([...copy]).toHaveLength(64);
    expect(copy.endsWith('-copy')).toBe(true);
    expect(checkSlug(copy).ok).toBe(true);
    expect(checkSlug(copySlug('météo', new Set())).ok).toBe(true);
  });
});
