/** The renderer's Content-Security-Policy, the same in the desktop shell and in browser mode. */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  // Cards render in <iframe sandbox srcdoc>; such frames fall under frame-src about:.
  "frame-src 'self' about: data: blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
