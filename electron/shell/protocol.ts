/**
 * Serves the built renderer from app://toolwright/ instead of file://, so the page has a real
 * origin, a strict CSP, and no access to the rest of the file system.
 */
import { net, protocol } from 'electron';
import { pathToFileURL } from 'node:url';
import { join, normalize, relative, isAbsolute } from 'node:path';
import { RENDERER_CSP } from '../host/rest/csp.js';

export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://toolwright`;

/** Must run before app 'ready'. */
export function registerSchemePrivileges(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'toolwright') return new Response('not found', { status: 404 });
    const wanted = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
    const file = normalize(join(rendererDir, wanted));
    const rel = relative(rendererDir, file);
    if (rel.startsWith('..') || isAbsolute(rel)) return new Response('forbidden', { status: 403 });
    const res = await net.fetch(pathToFileURL(file).toString()).catch(() => undefined);
    if (!res || !res.ok) {
      // Client-side routes fall back to the app shell.
      const index = await net.fetch(pathToFileURL(join(rendererDir, 'index.html')).toString());
      return withHeaders(index);
    }
    return withHeaders(res);
  });
}

function withHeaders(res: Response): Response {
  const headers = new Headers(res.headers);
  headers.set('Content-Security-Policy', RENDERER_CSP);
  headers.set('X-Content-Type-Options', 'nosniff');
  return new Response(res.body, { status: res.status, headers });
}
