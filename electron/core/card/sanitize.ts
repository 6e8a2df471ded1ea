/**
 * Card HTML is sanitised once, here, before REST, IPC or MCP hands it to anyone: a client that
 * renders it with less care than the tester still gets inert HTML. The rules are the tester's
 * (shared/card/sanitize.ts); the parser is jsdom's, the DOM DOMPurify supports on a server.
 * jsdom is loaded on the first card, so processes that never see one (the CLI) do not pay for it.
 */
import { createRequire } from 'node:module';
import { cardSanitizer, type Purifier } from '../../../shared/card/sanitize.js';

const require = createRequire(import.meta.url);
let sanitize: ((html: string) => string) | undefined;

export function sanitizeCardHtml(html: string): string {
  if (!sanitize) {
    const { JSDOM } = require('jsdom') as typeof import('jsdom');
    const createDOMPurify = require('dompurify') as typeof import('dompurify').default;
    const { window } = new JSDOM('');
    sanitize = cardSanitizer(createDOMPurify(window as unknown as Window & typeof globalThis) as unknown as Purifier);
  }
  return sanitize(html);
}
