/**
 * Cards leave the core sanitised, whatever transport carries them: the tester's XSS corpus run
 * through the engine's post-processing on jsdom, with the same inertness check as the renderer's.
 */
import { describe, expect, it } from 'vitest';
import { sanitizeCardHtml } from '../../../../electron/core/card/sanitize.js';
import { XSS_CORPUS } from '../../../e2e/card-xss-corpus.js';
import { bundleFile, engineTool, harness, toolFile } from '../../../helpers/engine-fixtures.js';
import { CARD_HTML_MIN_BYTES } from '../../../../electron/core/invoke/post-process.js';

const BEACON = 'http://127.0.0.1:9/beacon';

function assertInert(html: string): void {
  expect(html).not.toMatch(/<\s*(script|style|link|svg|math|form|img|iframe|object|embed|base|meta|input|button|video|audio|source|picture|template|frame)/i);
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/\s(href|src|srcset|action|formaction|background|poster|ping|xlink:href)\s*=/i);
  expect(html).not.toMatch(/url\s*\(/i);
  expect(html).not.toMatch(/javascript:/i);
  expect(html).not.toContain('127.0.0.1');
}

describe('card html leaves the core sanitised', () => {
  it.each(XSS_CORPUS.map((c) => [c.name, c.html.replaceAll('{{BEACON}}', BEACON)] as const))('neutralises %s on the server-side DOM', (_name, html) => {
    expect(() => assertInert(html)).toThrow(); // the payload is hostile before…
    assertInert(sanitizeCardHtml(html)); // …and inert after
  });

  it('keeps harmless structure and allow-listed styles', () => {
    const out = sanitizeCardHtml('<h2 style="color: red; position: fixed">Lyon</h2><table><tr><td>12 °C</td></tr></table><p>Sunny <b>all</b> day</p>');
    expect(out).toContain('<h2 style="color: red;">Lyon</h2>'.replace(';">', '">'));
    expect(out).toContain('<b>all</b>');
    expect(out).not.toContain('position');
  });

  it('an invoke answer carries the sanitised html, within the card cap even when sanitising lengthens it', async () => {
    const h = await harness();
    const tool = engineTool(toolFile({ card: { enabled: true } }));
    const invoke = () => h.engine.invoke(tool, bundleFile(), { args: { city: 'Lyon' } });
    try {
      h.runner.behaviour = () => ({ value: 1, card: { html: `<p onclick="x()">hi</p><img src="${BEACON}"><script>fetch('${BEACON}')</script>` } });
      const r = await invoke();
      expect(r.card?.html).toBe('<p>hi</p>');
      h.runner.behaviour = () => ({ value: 1, card: { html: '<p>' + '&'.repeat(CARD_HTML_MIN_BYTES) + '</p>' } });
      const big = await invoke();
      expect(Buffer.byteLength(big.card!.html!)).toBeLessThanOrEqual(CARD_HTML_MIN_BYTES);
      expect(big.card!.html!).toContain('&amp;&amp;');
      expect(big.card!.html!).toContain('[truncated: original');
    } finally {
      await h.cleanup();
    }
  });
});
