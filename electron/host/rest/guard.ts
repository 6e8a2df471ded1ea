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
import { isLoopbackHost, matchesProxy } from '../listen.js';
import { FailedAttempts } from './failed-attempts.js';

/** Checks a profile's token: true when it is one of the profile's (and counts its use). */
export interface ProfileTokenCheck {
  verify(slug: string, token: string): Promise<boolean>;
}

const PROFILE_ROUTE = '/mcp/p/:slug';

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

export interface GuardOptions {
  token: string;
  profiles?: ProfileTokenCheck | undefined;
  /** The address people use when the host listens beyond loopback: its host is accepted too. */
  publicUrl?: URL | undefined;
  /** Behind a proxy, the only peer (address or CIDR) accepted besides this machine. */
  trustedProxy?: string | undefined;
}

/** Host header values naming the public URL: with and without its scheme's default port. */
function publicHosts(url: URL | undefined): string[] {
  if (!url) return [];
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return [url.host.toLowerCase(), `${url.hostname.toLowerCase()}:${port}`];
}

export const guardPlugin = fp<GuardOptions>(
  async (app: FastifyInstance, opts) => {
    const tokenDigest = digest(opts.token);
    const publicHostSet = publicHosts(opts.publicUrl);
    const publicOrigin = opts.publicUrl?.origin.toLowerCase();
    const failed = new FailedAttempts();
    app.addHook('onRequest', async (req, reply) => {
      const peer = req.socket.remoteAddress;
      if (opts.trustedProxy && !isLoopbackHost(peer ?? '') && !matchesProxy(peer, opts.trustedProxy)) {
        return sendError(reply, { code: 'FORBIDDEN', message: 'this host accepts connections from its proxy only' });
      }
      const port = req.socket.localPort;
      const loopbackHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
      const host = String(req.headers.host ?? '').toLowerCase();
      if (!loopbackHosts.has(host) && !publicHostSet.includes(host)) {
        return sendError(reply, {
          code: 'FORBIDDEN',
          message: `Host '${host}' is not this server; use ${opts.publicUrl?.origin ?? `http://127.0.0.1:${port}`}`,
        });
      }
      const origin = req.headers.origin;
      const originOk = (o: string) => o.toLowerCase() === publicOrigin || loopbackHosts.has(o.replace(/^https?:\/\//i, '').toLowerCase());
      if (origin !== undefined && origin !== 'null' && !originOk(origin)) {
        return sendError(reply, { code: 'FORBIDDEN', message: `requests from origin '${origin}' are refused` });
      }
      if (origin === 'null') return sendError(reply, { code: 'FORBIDDEN', message: 'requests from an opaque origin are refused' });
      // The router decodes the path (`/%74ools/bundles` reaches `/tools/bundles`), so the matched
      // route decides, not the raw URL.
      const route = req.routeOptions.url ?? '';
      if (req.url.startsWith('/tools') || route.startsWith('/tools') || req.url.startsWith('/mcp') || route.startsWith('/mcp')) {
        const address = req.socket.remoteAddress ?? '';
        const auth = String(req.headers.authorization ?? '');
        const m = /^Bearer\s+(.+)$/i.exec(auth);
        const presented = m?.[1]!.trim();
        // The host's own token passes even while its address is locked out: on loopback the app
        // shares 127.0.0.1 with every local client, and a misconfigured agent must not lock the
        // person out. Guessing it is hopeless anyway (192 random bits); the lockout slows the rest.
        const hostToken = presented !== undefined && timingSafeEqual(digest(presented), tokenDigest);
        const wait = hostToken ? 0 : failed.retryAfter(address);
        if (wait > 0) {
          reply.header('Retry-After', String(wait));
          return sendError(reply, { code: 'RATE_LIMITED', message: `too many wrong tokens from this address; try again in ${wait} s` });
        }
        const ok =
          hostToken ||
          (presented !== undefined &&
            route === PROFILE_ROUTE &&
            !!opts.profiles &&
            (await opts.profiles.verify((req.params as { slug: string }).slug, presented)));
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
