// @vitest-environment jsdom
/**
 * The card sanitiser on an XSS corpus: scripts and handlers, dangerous elements, attributes
 * that load, and CSS that fetches (url(), image-set(), @import, escapes, comments). The same
 * corpus renders in real Chromium against a loopback listener in test/e2e/card-sanitizer.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { buildCardDocument, CARD_CSP, safeColor, sanitizeCardHtml, sanitizeStyle } from '../../renderer/src/features/card/browserSanitizer.js';
import { CARD_MEASURE_SCRIPT, CARD_MEASURE_SCRIPT_HASH } from '../../shared/card/sanitize.js';
import { attributeWithMarkup, textAttributesBlanked, XSS_CORPUS } from '../e2e/card-xss-corpus.js';

const BEACON = 'http://127.0.0.1:9/beacon';

function assertInert(sanitised: string): void {
  // Markup kept as text inside an attribute is escaped, as browsers now serialise it (mutation XSS once re-parsed elsewhere).
  expect(attributeWithMarkup(sanitised)).toBeUndefined();
  const html = textAttributesBlanked(sanitised);
  expect(html).not.toMatch(/<\s*(script|style|link|svg|math|form|img|iframe|object|embed|base|meta|input|button|video|audio|source|picture|template|frame)/i);
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/\s(href|src|srcset|action|formaction|background|poster|ping|xlink:href)\s*=/i);
  expect(html).not.toMatch(/url\s*\(/i);
  expect(html).not.toMatch(/image-set/i);
  expect(html).not.toMatch(/@import/i);
  expect(html).not.toMatch(/expression\s*\(/i);
  expect(html).not.toContain('\\');
  expect(html).not.toMatch(/javascript:/i);
  expect(html).not.toContain('127.0.0.1');
}

describe('card sanitiser', () => {
  it.each(XSS_CORPUS.map((c) => [c.name, c.html] as const))('neutralises %s', (_name, html) => {
    assertInert(sanitizeCardHtml(html.replaceAll('{{BEACON}}', BEACON)));
  });

  it('has a corpus the check would reject unsanitised (the check can fail)', () => {
    for (const c of XSS_CORPUS) expect(() => assertInert(c.html.replaceAll('{{BEACON}}', BEACON)), c.name).toThrow();
  });

  it('keeps the harmless structure and allow-listed styles', () => {
    const out = sanitizeCardHtml(
      '<h2 style="color: rgb(200, 0, 0); font-weight: 700">Lyon</h2><table><tr><td style="padding: 4px; background-color: #eef">12 °C</td></tr></table><p class="note">Sunny <b>all</b> day</p>',
    );
    expect(out).toContain('<h2');
    expect(out).toMatch(/color: rgb\(200, 0, 0\)/);
    expect(out).toMatch(/font-weight: 700/);
    expect(out).toContain('<table>');
    expect(out).toMatch(/background-color:/);
    expect(out).toContain('<b>all</b>');
    expect(out).toContain('12 °C');
  });

  it('drops only the offending declarations of a style', () => {
    const doc = document.implementation.createHTMLDocument('');
    expect(sanitizeStyle('color: red; background-image: url(http://x/a.png); padding: 2px', doc)).toBe('color: red; padding: 2px');
    expect(sanitizeStyle('color: red; position: fixed; top: 0', doc)).toBe('color: red');
    expect(sanitizeStyle('background: url(http://x/)', doc)).toBe('');
  });

  it('drops a style that holds escapes, comments or at-rules entirely', () => {
    const doc = document.implementation.createHTMLDocument('');
    expect(sanitizeStyle('color: red; background: u\\72l(http://x/)', doc)).toBe('');
    expect(sanitizeStyle('color: red; background: ur/**/l(http://x/)', doc)).toBe('');
    expect(sanitizeStyle('color: red; @import "http://x/"', doc)).toBe('');
  });

  it('builds a card document whose first head element is the card CSP', () => {
    const doc = buildCardDocument({ html: '<p>hi</p><script>alert(1)</script>', foreground: '#111', scheme: 'light' });
    const parsed = new DOMParser().parseFromString(doc, 'text/html');
    const first = parsed.head.querySelector('meta[http-equiv]')!;
    expect(parsed.head.firstElementChild?.getAttribute('charset')).toBe('utf-8');
    expect(first.getAttribute('content')).toBe(CARD_CSP);
    expect(CARD_CSP).toBe(`default-src 'none'; style-src 'unsafe-inline'; script-src ${CARD_MEASURE_SCRIPT_HASH}`);
    // The card's own script is gone; the one script left is the measuring one, which the CSP names by hash.
    expect(parsed.body.innerHTML).toBe(`<p>hi</p><script>${CARD_MEASURE_SCRIPT}</script>`);
  });

  it('renders text cards as escaped text', () => {
    const doc = buildCardDocument({ text: '<img src=x onerror=alert(1)>', foreground: '#111', scheme: 'dark' });
    const parsed = new DOMParser().parseFromString(doc, 'text/html');
    expect(parsed.body.querySelector('img')).toBeNull();
    expect(parsed.body.querySelector('pre')!.textContent).toBe('<img src=x onerror=alert(1)>');
  });

  it('accepts only plain colours for the frame', () => {
    expect(safeColor('#4a90d4', 'x')).toBe('#4a90d4');
    expect(safeColor('rgba(74,144,212,0.10)', 'x')).toBe('rgba(74,144,212,0.10)');
    expect(safeColor('red;background:url(http://x)', 'fallback')).toBe('fallback');
    expect(safeColor('expression(alert(1))', 'fallback')).toBe('fallback');
  });
});
