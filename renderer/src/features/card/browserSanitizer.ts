/**
 * The renderer's wall of the card rules in shared/card/sanitize.ts: the same DOMPurify profile
 * and style hook, over the browser's own parser. The core has already sanitised every card it
 * hands out; this second pass keeps the frame safe against any other source.
 */
import DOMPurify from 'dompurify';
import { buildCardDocument as buildDocument, cardSanitizer, type CardDocumentInput, type Purifier } from '../../../../shared/card/sanitize.js';

export { CARD_CSP, CARD_SANDBOX, cardHeightOf, safeColor, sanitizeStyle } from '../../../../shared/card/sanitize.js';

const sanitizers = new WeakMap<object, (html: string) => string>();

function sanitizerFor(win: Window & typeof globalThis): (html: string) => string {
  let sanitize = sanitizers.get(win);
  if (!sanitize) {
    const purify = win === (globalThis as unknown) ? DOMPurify : DOMPurify(win);
    sanitize = cardSanitizer(purify as unknown as Purifier);
    sanitizers.set(win, sanitize);
  }
  return sanitize;
}

/** Sanitises card HTML for display. `win` is the window whose parser DOMPurify uses (tests pass jsdom's). */
export function sanitizeCardHtml(html: string, win: Window & typeof globalThis = window): string {
  return sanitizerFor(win)(html);
}

/** The complete srcdoc of a card frame: CSP first, then a fixed base style, then the sanitised body. */
export function buildCardDocument(input: CardDocumentInput, win: Window & typeof globalThis = window): string {
  return buildDocument(input, (html) => sanitizeCardHtml(html, win));
}
