/**
 * A secret is caught in the forms the wire gives it: as the WHATWG URL class writes a query,
 * as URLSearchParams writes a form, percent-encoded strictly or not, JSON-escaped; and
 * secretSplitter finds the same places, by name.
 */
import { describe, expect, it } from 'vitest';
import { SecretRedactor, secretSplitter } from '../../../../electron/core/secrets/redact.js';

const VALUES = ["sk-it's-(1)*!", 'p@ss w0rd/+"x\\y', 'naïve~key~£', 'plainKey123'];

function wireTexts(v: string): string[] {
  return [
    new URL(`https://api.example.com/a?key=${encodeURIComponent(v)}&x=1`).href,
    new URL(`https://api.example.com/${encodeURIComponent(v)}/b`).href,
    new URLSearchParams({ key: v, x: '1' }).toString(),
    `key=${encodeURIComponent(v).replace(/%20/g, '+')}`,
    JSON.stringify({ key: v }),
    `Bearer ${v}`,
  ];
}

describe('secret redaction on the wire', () => {
  it.each(VALUES)('leaves nothing of %j in any form a request carries it', (v) => {
    const redactor = SecretRedactor.of([v]);
    for (const text of wireTexts(v)) {
      const out = redactor.text(text);
      expect(out, text).toContain('[redacted]');
      expect(out.replaceAll('[redacted]', '')).not.toContain(v.slice(0, 5));
    }
  });

  it.each(VALUES)('splits the same texts where %j stands, by name', (v) => {
    for (const text of wireTexts(v)) {
      const parts = secretSplitter(new Map([['API_KEY', v]]))(text)!;
      expect(parts, text).toContainEqual({ secret: 'API_KEY' });
      expect(parts.filter((p) => typeof p === 'string').join('')).not.toContain(v.slice(0, 5));
    }
    expect(secretSplitter(new Map([['API_KEY', v]]))('nothing here')).toBeUndefined();
  });
});
