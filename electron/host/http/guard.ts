/**
 * The doors of the HTTP host (REST and MCP alike), in front of every route: the same-origin rule (a page on another
 * origin, CSRF, or a name that merely resolves to 127.0.0.1, DNS rebinding, never gets an
 * answer) and the bearer token on everything under /tools and on /mcp. The host's token opens
 * everything; a profile's token opens only that profile's address, `/mcp/p/<slug>`. With an
 * authorization server configured, any other bearer is checked as its access token (oauth/): a
 * valid one opens what its scopes grant (oauth/rights.ts). Failed attempts, forged tokens
 * included, are counted per client address (behind the trusted proxy, the client it names in
 * X-Forwarded-For) and answered 429 past the limit (failed-attempts.ts).
 */
import fp from 'fastify-plugin';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sendError } from './errors.js';
import { isLoopbackHost, matchesProxy } from '../listen.js';
import { FailedAttempts } from './failed-attempts.js';
import { InvalidToken, KeysUnavailable, MAX_TOKEN_CHARS, type OAuthCaller, type OAuthIssuer } from '../oauth/issuer.js';
import { grants, missingProfileScope, rightFor, SCOPE_OF } from '../oauth/rights.js';
import { attachProfileToken } from './request-caller.js';
import { attachCaller, audiencesFor, bearerChallenge, metadataUrlFor, openMetadataRead, resourceBase } from '../oauth/resource.js';

/** Checks a profile's token: its tokenID when it is one of the profile's (and counts its use), else undefined. */
export interface ProfileTokenCheck {
  verify(slug: string, token: string): Promise<string | undefined>;
  /** The scope an OAuth token needs on top at this profile's address, if the profile names one. */
  requiredScope(slug: string): Promise<string | undefined>;
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
  /** The team's authorization server: its access tokens are accepted beside the host's and profiles' tokens. */
  oauth?: OAuthIssuer | undefined;
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
      const metadata = opts.oauth ? openMetadataRead(req, reply) : undefined;
      if (metadata === 'answered') return reply;
      if (metadata === 'read') return undefined;
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
        // The client's address, told by the trusted proxy when the peer is that proxy (server.ts).
        const address = req.ip;
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
        const slug = route === PROFILE_ROUTE ? (req.params as { slug: string }).slug : undefined;
        if (hostToken) return undefined;
        const profileToken = presented !== undefined && slug !== undefined && opts.profiles ? await opts.profiles.verify(slug, presented) : undefined;
        if (profileToken !== undefined) {
          attachProfileToken(req, profileToken);
          return undefined;
        }

        const base = resourceBase(req, opts.publicUrl);
        const metadataUrl = metadataUrlFor(base, slug === undefined ? route || req.url.split('?')[0]! : `/mcp/p/${encodeURIComponent(slug)}`);
        const refuse = (description: string) => {
          if (m) failed.fail(address);
          reply.header(
            'WWW-Authenticate',
            opts.oauth ? bearerChallenge(metadataUrl, m ? { error: 'invalid_token', description } : undefined) : 'Bearer realm="toolwright"',
          );
          return sendError(reply, { code: 'UNAUTHORIZED', message: description });
        };
        if (!m) {
          return refuse('missing Authorization: Bearer <token> header (the token is printed when the host starts, or set TOOLWRIGHT_TOKEN)');
        }
        if (presented!.length > MAX_TOKEN_CHARS) return refuse(`the bearer token is longer than ${MAX_TOKEN_CHARS} characters, so it is none of this host's`);
        if (!opts.oauth) return refuse('the bearer token is wrong');
        const audiences = audiencesFor(opts.oauth, base, slug);
        let caller: OAuthCaller;
        try {
          caller = await opts.oauth.verify(presented!, audiences);
        } catch (e) {
          if (e instanceof KeysUnavailable) return sendError(reply, { code: 'BUSY', message: e.message });
          if (e instanceof InvalidToken) return refuse(`the bearer token is not this host's, a profile's, nor a valid access token: ${e.message}`);
          throw e;
        }
        const right = rightFor(req.method === 'HEAD' ? 'GET' : req.method, route);
        const missing =
          slug !== undefined
            ? missingProfileScope(caller.scopes, slug, await opts.profiles?.requiredScope(slug))
            : grants(caller.scopes, right)
              ? undefined
              : SCOPE_OF[right];
        if (missing !== undefined) {
          reply.header(
            'WWW-Authenticate',
            bearerChallenge(metadataUrl, { error: 'insufficient_scope', description: `this needs the scope ${missing}`, scope: missing }),
          );
          return sendError(reply, { code: 'FORBIDDEN', message: `the access token lacks the scope ${missing}; ask the authorization server for it` });
        }
        attachCaller(req, caller, audiences[0]!, metadataUrl);
      }
      return undefined;
    });
  },
  { name: 'toolwright-guard' },
);
