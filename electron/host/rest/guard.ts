/**
 * The doors of the REST host, in front of every route: the same-origin rule (a page on another
 * origin, CSRF, or a name that merely resolves to 127.0.0.1, DNS rebinding, never gets an
 * answer) and the bearer token on everything under /tools and on /mcp. The host's token opens
 * everything; a profile's token opens only that profile's address, `/mcp/p/<slug>`. Failed
 * attempts are counted per client address and answered 429 past the limit (failed-attempts.ts).
 */
import fp from 'fastify-plugin';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sendError } from './errors.js';
import { FailedAttempts } from './failed-attempts.js';

/** Checks a profile's token: true when it is one of the profile's (and counts its use). */
export interface ProfileTokenCheck {
  verify(slug: string, token: string): Promise<boolean>;
}

const PROFILE_ROUTE = '/mcp/p/:slug';

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

export const guardPlugin = fp<{ token: string; profiles?: ProfileTokenCheck }>(
  async (app: FastifyInstance, opts) => {
    const tokenDigest = digest(opts.token);
    const failed = new FailedAttempts();
    app.addHook('onRequest', async (req, reply) => {
      const port = req.socket.localPort;
      const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
      const host = String(req.headers.host ?? '').toLowerCase();
      if (!allowedHosts.has(host)) {
        return sendError(reply, { code: 'FORBIDDEN', message: `Host '${host}' is not this server; use http://127.0.0.1:${port}` });
      }
      const origin = req.headers.origin;
      if (origin !== undefined && origin !== 'null' && !allowedHosts.has(origin.replace(/^http:\/\//, '').toLowerCase())) {
        return sendError(reply, { code: 'FORBIDDEN', message: `requests from origin '${origin}' are refused` });
      }
      if (origin === 'null') return sendError(reply, { code: 'FORBIDDEN', message: 'requests from an opaque origin are refused' });
      // The router decodes the path (`/%74ools/bundles` reaches `/tools/bundles`), so the matched
      // route decides, not the raw URL.
      const route = req.routeOptions.url ?? '';
      if (req.url.startsWith('/tools') || route.startsWith('/tools') || req.url.startsWith('/mcp') || route.startsWith('/mcp')) {
        const address = req.socket.remoteAddress ?? '';
        const wait = failed.retryAfter(address);
        if (wait > 0) {
          reply.header('Retry-After', String(wait));
          return sendError(reply, { code: 'RATE_LIMITED', message: `too many wrong tokens from this address; try again in ${wait} s` });
        }
        const auth = String(req.headers.authorization ?? '');
        const m = /^Bearer\s+(.+)$/i.exec(auth);
        const presented = m?.[1]!.trim();
        const ok =
          presented !== undefined &&
          (timingSafeEqual(digest(presented), tokenDigest) ||
            (route === PROFILE_ROUTE && !!opts.profiles && (await opts.profiles.verify((req.params as { slug: string }).slug, presented))));
        if (!ok) {
          if (m) failed.fail(address);
          reply.header('WWW-Authenticate', 'Bearer realm="toolwright"');
          return sendError(reply, {
            code: 'UNAUTHORIZED',
            message: m
              ? 'the bearer token is wrong'
              : 'missing Authorization: Bearer <token> header (the token is printed when the host starts, or set TOOLWRIGHT_TOKEN)',
          });
        }
      }
      return undefined;
    });
  },
  { name: 'toolwright-guard' },
);
