/**
 * The one set of rules for card HTML, which comes from tools (containers, remote APIs) and is
 * untrusted. The core sanitises every card once, on a server-side DOM, before any transport
 * hands it out; the renderer applies the same rules again in the browser and shows the result in
 * a sandboxed frame under its own CSP. Three layers:
 * 1. DOMPurify (the maintained, parser-based sanitiser) with an HTML-only profile: no
 *    style/link/svg/math/form, no media, no attributes that load anything (href, src, srcset…);
 * 2. a hook on style="" that keeps an allow-list of CSS properties and drops any declaration
 *    holding url(), image-set(), image(), element(), expression(), @-rules, comments or
 *    escapes — the ways CSS fetches or hides a fetch;
 * 3. the document goes into an <iframe sandbox="allow-scripts"> without allow-same-origin (an
 *    opaque origin: no access to the app, its storage or its cookies) whose own CSP is
 *    `default-src 'none'; style-src 'unsafe-inline'; script-src '<hash>'`, so even a miss cannot
 *    load a byte, and no script runs there but the one below, named by its hash: no inline
 *    handler, no other <script>, no eval. The app's own CSP (inherited by srcdoc frames) admits
 *    that hash too, and nothing else inline.
 *
 * The one script measures the card and posts its height (a number) to the app, which sizes the
 * frame to fit (CardFrame.tsx accepts the message only from that frame's window, and only that shape).
 *
 * Pure: the DOM and DOMPurify are passed in (the browser's, or jsdom's in the core).
 */
import { serializeChildren, type SerialNode } from './serialize.js';
import { escapeHtml } from '../html.js';

/** Runs inside every card frame: posts the content's height whenever it changes (fonts, wrapping, the frame's width). */
export const CARD_MEASURE_SCRIPT =
  "(()=>{let l=-1;const p=()=>{const h=Math.ceil(document.documentElement.getBoundingClientRect().height);if(h!==l){l=h;parent.postMessage({toolwrightCardHeight:h},'*')}};new ResizeObserver(p).observe(document.documentElement);addEventListener('load',p)})()";

/** CSP source of CARD_MEASURE_SCRIPT (sha256, base64); test/shared/card-measure.test.ts checks it against the script. */
export const CARD_MEASURE_SCRIPT_HASH = "'sha256-IMRr7W2ojY30GAbuhaBjVDcQgeKv4K9jOvcaHRUqdfY='";

export const CARD_CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src ${CARD_MEASURE_SCRIPT_HASH}`;

/** Scripts, but no same-origin: the frame stays an opaque origin, and its CSP admits only the measuring script. */
export const CARD_SANDBOX = 'allow-scripts';

/** The message a card frame posts: exactly this one key, a finite non-negative height in CSS pixels. */
export function cardHeightOf(data: unknown): number | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const keys = Object.keys(data);
  if (keys.length !== 1 || keys[0] !== 'toolwrightCardHeight') return undefined;
  const h = (data as { toolwrightCardHeight: unknown }).toolwrightCardHeight;
  return typeof h === 'number' && Number.isFinite(h) && h >= 0 && h <= 1_000_000 ? h : undefined;
}

/** What the style check needs of a document: an element whose style the CSS parser fills. */
export interface StyleDocument {
  createElement(tag: 'div'): {
    setAttribute(name: string, value: string): void;
    style: { length: number; item(index: number): string; getPropertyValue(name: string): string; getPropertyPriority(name: string): string };
  };
}

/** The part of a DOMPurify instance the sanitiser uses. */
export interface Purifier {
  addHook(
    entry: 'uponSanitizeAttribute',
    hook: (node: { ownerDocument: unknown }, data: { attrName: string; attrValue: string; keepAttr: boolean }) => void,
  ): void;
  sanitize(html: string, config: typeof CARD_PURIFY_CONFIG & { RETURN_DOM_FRAGMENT: true }): SerialNode;
}

const ALLOWED_CSS_PROPERTIES = new Set([
  'color',
  'background-color',
  'opacity',
  'font',
  'font-family',
  'font-size',
  'font-style',
  'font-weight',
  'font-variant',
  'font-variant-numeric',
  'line-height',
  'letter-spacing',
  'word-spacing',
  'text-align',
  'text-decoration',
  'text-decoration-line',
  'text-decoration-color',
  'text-decoration-style',
  'text-transform',
  'text-indent',
  'text-overflow',
  'text-shadow',
  'white-space',
  'word-break',
  'overflow-wrap',
  'vertical-align',
  'direction',
  'unicode-bidi',
  'margin',
  'margin-top',
  'margin-right',
  'margin-bottom',
  'margin-left',
  'padding',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
  'border',
  'border-top',
  'border-right',
  'border-bottom',
  'border-left',
  'border-width',
  'border-style',
  'border-color',
  'border-top-color',
  'border-right-color',
  'border-bottom-color',
  'border-left-color',
  'border-top-width',
  'border-right-width',
  'border-bottom-width',
  'border-left-width',
  'border-top-style',
  'border-right-style',
  'border-bottom-style',
  'border-left-style',
  'border-radius',
  'border-top-left-radius',
  'border-top-right-radius',
  'border-bottom-left-radius',
  'border-bottom-right-radius',
  'border-collapse',
  'border-spacing',
  'caption-side',
  'empty-cells',
  'table-layout',
  'width',
  'height',
  'min-width',
  'min-height',
  'max-width',
  'max-height',
  'box-sizing',
  'box-shadow',
  'display',
  'overflow',
  'overflow-x',
  'overflow-y',
  'visibility',
  'flex',
  'flex-direction',
  'flex-wrap',
  'flex-flow',
  'flex-grow',
  'flex-shrink',
  'flex-basis',
  'order',
  'gap',
  'row-gap',
  'column-gap',
  'align-items',
  'align-content',
  'align-self',
  'justify-content',
  'justify-items',
  'justify-self',
  'place-items',
  'place-content',
  'grid-template-columns',
  'grid-template-rows',
  'grid-column',
  'grid-row',
  'grid-area',
  'grid-auto-flow',
  'grid-auto-columns',
  'grid-auto-rows',
  'list-style-type',
  'list-style-position',
]);

/** Anything in a declaration that can fetch, execute or smuggle one of those past this check. */
const FORBIDDEN_IN_CSS =
  /url\s*\(|image-set\s*\(|image\s*\(|element\s*\(|cross-fade\s*\(|expression\s*\(|paint\s*\(|env\s*\(|var\s*\(|attr\s*\(|@|\\|\/\*|<|javascript:|behavior|binding/i;

const FORBIDDEN_TAGS = [
  'style',
  'link',
  'svg',
  'math',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'option',
  'optgroup',
  'datalist',
  'fieldset',
  'output',
  'img',
  'picture',
  'source',
  'video',
  'audio',
  'track',
  'canvas',
  'map',
  'area',
  'image',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'portal',
  'fencedframe',
  'base',
  'meta',
  'script',
  'noscript',
  'template',
  'slot',
  'dialog',
  'marquee',
];

const FORBIDDEN_ATTRS = [
  'href',
  'src',
  'srcset',
  'srcdoc',
  'action',
  'formaction',
  'background',
  'poster',
  'ping',
  'xlink:href',
  'lowsrc',
  'dynsrc',
  'longdesc',
  'usemap',
  'cite',
  'data',
  'codebase',
  'manifest',
  'itemtype',
  'itemprop',
  'profile',
  'archive',
  'classid',
  'target',
  'download',
  'popover',
  'popovertarget',
];

export const CARD_PURIFY_CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: FORBIDDEN_TAGS,
  FORBID_ATTR: FORBIDDEN_ATTRS,
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  ALLOWED_URI_REGEXP: /^$/,
  WHOLE_DOCUMENT: false,
  RETURN_TRUSTED_TYPE: false,
} as const;

/**
 * Keeps only allow-listed declarations. The browser's CSS parser splits the declarations (so a
 * `;` inside a string cannot fool a hand-written splitter) and serialises each value, which is
 * then checked again: the raw text and the parsed form must both be clean.
 */
export function sanitizeStyle(raw: string, doc: StyleDocument): string {
  if (FORBIDDEN_IN_CSS.test(raw)) {
    // Drop only the offending declarations when the raw text can be split safely.
    if (/\\|\/\*|@/.test(raw)) return '';
  }
  const probe = doc.createElement('div');
  probe.setAttribute('style', raw);
  const style = probe.style;
  const kept: string[] = [];
  for (let i = 0; i < style.length; i++) {
    const prop = style.item(i).toLowerCase();
    if (!ALLOWED_CSS_PROPERTIES.has(prop)) continue;
    const value = style.getPropertyValue(prop).trim();
    if (!value || FORBIDDEN_IN_CSS.test(value) || /[;{}]/.test(value)) continue;
    kept.push(`${prop}: ${value}${style.getPropertyPriority(prop) ? ' !important' : ''}`);
  }
  return kept.join('; ');
}

/** Adds the style and event-handler hook to a DOMPurify instance and returns a sanitiser over it. */
export function cardSanitizer(purify: Purifier): (html: string) => string {
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    if (data.attrName === 'style') {
      const clean = sanitizeStyle(data.attrValue, node.ownerDocument as StyleDocument);
      if (clean) data.attrValue = clean;
      else data.keepAttr = false;
    } else if (/^on/i.test(data.attrName)) {
      data.keepAttr = false;
    }
  });
  // A fragment, serialised here: the DOM's own serialiser (jsdom's) leaves `<` and `>` raw in attribute values (serialize.ts).
  return (html) => serializeChildren(purify.sanitize(html, { ...CARD_PURIFY_CONFIG, RETURN_DOM_FRAGMENT: true }));
}

const CSS_COLOR = /^(#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla)\([0-9.,%\s/deg]+\)|[a-zA-Z]{3,24})$/;

/** A colour from tool settings, or the fallback when it is not a plain colour. */
export function safeColor(value: string | undefined, fallback: string): string {
  return value && CSS_COLOR.test(value.trim()) ? value.trim() : fallback;
}

export interface CardDocumentInput {
  html?: string;
  text?: string;
  foreground: string;
  scheme: 'light' | 'dark';
}

/** The complete srcdoc of a card frame: CSP first, then a fixed base style, then the sanitised body. */
export function buildCardDocument(input: CardDocumentInput, sanitize: (html: string) => string): string {
  const body = input.html !== undefined && input.html !== '' ? sanitize(input.html) : `<pre>${escapeHtml(input.text ?? '')}</pre>`;
  const fg = safeColor(input.foreground, input.scheme === 'dark' ? '#e8eaed' : '#1d2330');
  return (
    '<!doctype html><html><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${CARD_CSP}">` +
    `<style>:root{color-scheme:${input.scheme}}html,body{margin:0;background:transparent}` +
    `body{padding:12px 14px;color:${fg};font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-wrap:anywhere}` +
    'pre{white-space:pre-wrap;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:0}' +
    'table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left}</style>' +
    `</head><body>${body}<script>${CARD_MEASURE_SCRIPT}</script></body></html>`
  );
}
