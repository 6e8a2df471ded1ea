/**
 * Card HTML is sanitised once, here, before REST, IPC or MCP hands it to anyone: a client that
 * renders it with less care than the tester still gets inert HTML. The rules are the tester's
 * (shared/card/sanitize.ts); the parser is jsdom's, the DOM DOMPurify supports on a server.
 * jsdom is loaded on the first card, so processes that never see one (the CLI) do not pay for it.
 */
import { createRequire } from 'node:module';
import { cardSanitizer, type Purifier } from '../../../shared/card/sanitize.js';

// Not named `require`: electron-vite adds CommonJS shims to a bundle that mentions it, placing them
// after the last text its regex takes for an import, which can be inside a string (test/electron/build.test.ts).
const load = createRequire(import.meta.url);
let sanitize: ((html: string) => string) | undefined;

export function sanitizeCardHtml(html: string): string {
  if (!sanitize) {
    const { JSDOM } = load('jsdom') as typeof import('jsdom');
    const createDOMPurify = load('dompurify') as typeof import('dompurify').default;
    const { window } = new JSDOM('');
    sanitize = cardSanitizer(createDOMPurify(window as unknown as Window & typeof globalThis) as unknown as Purifier);
  }
  return sanitize(html);
}
