/** The renderer's Content-Security-Policy, the same in the desktop shell and in browser mode. */
import { CARD_MEASURE_SCRIPT_HASH } from '../../../shared/card/sanitize.js';

export const RENDERER_CSP = [
  "default-src 'self'",
  // Card frames (srcdoc) inherit this policy: their one measuring script is admitted by its hash, nothing else inline.
  `script-src 'self' ${CARD_MEASURE_SCRIPT_HASH}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  // Cards render in <iframe sandbox="allow-scripts" srcdoc>: Chromium does not check srcdoc frames against
  // frame-src (test/e2e/app.test.ts renders a card under this header), so nothing may be framed.
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
