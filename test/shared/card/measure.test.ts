/**
 * The one script a card frame may run (it reports the card's height): its CSP hash is the hash of
 * its text, and every policy that must admit it (the card's own, the app's header, the page's
 * meta tag) names exactly that hash; the message it sends is accepted only in its exact shape.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildCardDocument, CARD_CSP, CARD_MEASURE_SCRIPT, CARD_MEASURE_SCRIPT_HASH, CARD_SANDBOX, cardHeightOf } from '../../../shared/card/sanitize.js';
import { RENDERER_CSP } from '../../../electron/host/rest/csp.js';

const html = readFileSync(fileURLToPath(new URL('../../../renderer/index.html', import.meta.url)), 'utf8');

describe('the card frame measuring script', () => {
  it('is named by the sha256 of its text in every policy that must let it run, and only there', () => {
    const hash = `'sha256-${createHash('sha256').update(CARD_MEASURE_SCRIPT).digest('base64')}'`;
    expect(CARD_MEASURE_SCRIPT_HASH).toBe(hash);
    expect(CARD_CSP).toContain(`script-src ${hash}`);
    expect(CARD_CSP).not.toMatch(/unsafe-inline'?;?\s*$|unsafe-eval|script-src[^;]*'self'/);
    expect(RENDERER_CSP).toContain(`script-src 'self' ${hash};`);
    expect(html).toContain(`script-src 'self' ${hash};`);
    // Scripts, never same-origin: together they would let the frame script the app.
    expect(CARD_SANDBOX).toBe('allow-scripts');
  });

  it('is the only script in a card document, after the sanitised body', () => {
    const doc = buildCardDocument({ html: '<p>x</p>', foreground: '#111', scheme: 'light' }, (h) => h);
    expect(doc.match(/<script>/g)).toHaveLength(1);
    expect(doc.endsWith(`<p>x</p><script>${CARD_MEASURE_SCRIPT}</script></body></html>`)).toBe(true);
  });

  it('accepts a height only in the exact shape the script posts', () => {
    expect(cardHeightOf({ toolwrightCardHeight: 120 })).toBe(120);
    expect(cardHeightOf({ toolwrightCardHeight: 0 })).toBe(0);
    for (const bad of [
      null,
      120,
      '120',
      [120],
      { toolwrightCardHeight: '120' },
      { toolwrightCardHeight: -1 },
      { toolwrightCardHeight: Infinity },
      { toolwrightCardHeight: NaN },
      { toolwrightCardHeight: 2_000_000 },
      { toolwrightCardHeight: 10, extra: 1 },
      { height: 10 },
    ]) {
      expect(cardHeightOf(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });
});
