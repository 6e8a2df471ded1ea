/**
 * Cards leave the core sanitised, whatever transport carries them: the tester's XSS corpus run
 * through the engine's post-processing on jsdom, with the same inertness check as the renderer's.
 */
import { describe, expect, it } from 'vitest';
import { sanitizeCardHtml } from '../../../../electron/core/card/server-sanitizer.js';
import { JSDOM } from 'jsdom';
import { attributeWithMarkup, textAttributesBlanked, XSS_CORPUS } from '../../../e2e/card-xss-corpus.js';
import { toCallResult } from '../../../../electron/core/agent-surface/definitions.js';
import { CARD_RESULT_META_KEY } from '../../../../shared/agents/surface.js';
import type { AgentTool } from '../../../../electron/core/agents/agent-tools.js';
import { bundleFile, engineTool, harness, toolFile } from '../../../helpers/engine-fixtures.js';
import { CARD_HTML_MIN_BYTES } from '../../../../electron/core/invoke/post-process.js';

const BEACON = 'http://127.0.0.1:9/beacon';

function assertInert(sanitised: string): void {
  // Markup kept as text inside an attribute is escaped, as browsers now serialise it (mutation XSS once re-parsed elsewhere).
  expect(attributeWithMarkup(sanitised)).toBeUndefined();
  const html = textAttributesBlanked(sanitised);
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

  it('escapes < and > inside attribute values, and its html parses back to the very DOM the sanitiser kept', () => {
    const out = sanitizeCardHtml(`<p title='</p><img src=x onerror=alert(1)>'>x</p><abbr title="a > b &amp; c < d\u00a0e">y &lt;b&gt; "z"</abbr>`);
    expect(out).toBe('<p title="&lt;/p&gt;&lt;img src=x onerror=alert(1)&gt;">x</p><abbr title="a &gt; b &amp; c &lt; d&nbsp;e">y &lt;b&gt; "z"</abbr>');
    const doc = new JSDOM('').window.document;
    const parse = (html: string) => {
      const body = doc.createElement('body');
      body.innerHTML = html;
      return body;
    };
    for (const c of XSS_CORPUS) {
      const clean = sanitizeCardHtml(c.html.replaceAll('{{BEACON}}', BEACON));
      // Lossless: jsdom's own serialiser (raw < > in values) and ours describe one DOM.
      expect(parse(clean).isEqualNode(parse(parse(clean).innerHTML)), c.name).toBe(true);
    }
  });

  it("every transport gets the escaped html: the invoke answer (REST, IPC), MCP's embedded resource and the MCP App's result", async () => {
    const h = await harness();
    const file = toolFile({ card: { enabled: true } });
    const tool = engineTool(file);
    const agentTool: AgentTool = { name: 'probe', file, bundle: bundleFile({ bundleID: file.bundleID }), safety: 'readOnly' };
    try {
      const leaks: string[] = [];
      for (const c of XSS_CORPUS) {
        h.runner.behaviour = () => ({ value: 1, card: { html: c.html.replaceAll('{{BEACON}}', BEACON) } });
        const r = await h.engine.invoke(tool, bundleFile(), { args: { city: 'Lyon' } });
        const mcp = toCallResult(agentTool, r);
        const embedded = mcp.content.flatMap((p) => (p.type === 'resource' && 'text' in p.resource ? [p.resource.text] : []));
        const app = (mcp._meta?.[CARD_RESULT_META_KEY] as { html?: string } | undefined)?.html;
        for (const html of [r.card?.html, ...embedded, app])
          if (html !== undefined && attributeWithMarkup(html) !== undefined) leaks.push(`${c.name}: ${html}`);
      }
      expect(leaks).toEqual([]);
    } finally {
      await h.cleanup();
    }
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
