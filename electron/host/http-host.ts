/**
 * The headless host's HTTP server, in the order a request meets it: the guard (Host/Origin, the
 * bearer token: the host's, a profile's, or an OAuth access token), liveness, the OAuth metadata,
 * the body parsers and the error shape; then, side by side, the two transports it serves — REST
 * (`/tools`, rest/server.ts) and MCP (`/mcp`, mcp/entry/http-route.ts) — and the built renderer
 * at `/`. Each transport reaches the core only through the dispatcher.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { TransportCore } from '../core/operations/transport.js';
import { sendError } from './http/errors.js';
import { guardPlugin } from './http/guard.js';
import { parsersPlugin } from './http/parsers.js';
import { answerClientError } from './http/client-errors.js';
import { restRoutes } from './rest/server.js';
import { rendererStatic } from './rest/renderer-static.js';
import { mcpRoute } from './mcp/entry/http-route.js';
import { profileTokenCheck } from './mcp/entry/profile-door.js';
import type { OAuthIssuer } from './oauth/issuer.js';
import { protectedResourceRoutes } from './oauth/resource.js';
import { matchesProxy } from './listen.js';

export interface HttpHostOptions {
  core: TransportCore;
  token: string;
  /** Folder of the built renderer, served at `/`. */
  rendererDir?: string;
  /** Largest import body accepted. */
  maxImportBytes?: number;
  /** Serve MCP over Streamable HTTP at `/mcp` (and each profile's `/mcp/p/<slug>`). */
  mcp?: boolean;
  /** Certificate and key: HTTPS instead of HTTP. */
  tls?: { cert: Buffer; key: Buffer } | undefined;
  /** The address people use when the host listens beyond loopback (Host and Origin checks). */
  publicUrl?: URL | undefined;
  /** The proxy in front (address or CIDR): the only peer accepted besides this machine. */
  trustedProxy?: string | undefined;
  /** The team's authorization server: `/mcp` and `/tools` take its access tokens too (RFC 9728 metadata served). */
  oauth?: OAuthIssuer | undefined;
  /** Whether the start-up work is done (what `/readyz` answers); ready from the start when not given. */
  isReady?: () => boolean;
}

/** Unauthenticated liveness for container health checks and load balancers: it says nothing else. */
export const HEALTH_PATH = '/healthz';
/**
 * Unauthenticated readiness: 503 until the host's start-up work is done (Docker's first probe, so
 * container tools are offered as they are, not "unchecked"), then 200. A load balancer or an
 * orchestrator sends traffic once it says ready; `/healthz` only says the process answers.
 */
export const READY_PATH = '/readyz';

export async function createHttpHost(opts: HttpHostOptions): Promise<FastifyInstance> {
  const maxImportBytes = opts.maxImportBytes ?? 512 * 1024 * 1024;
  // Foreign documents (OpenAPI, SKILL.md, container folders) can be large; ZIPs have their own limit.
  const app = Fastify({
    ...(opts.tls ? { https: opts.tls } : {}),
    logger: false,
    bodyLimit: 32 * 1024 * 1024,
    // `/tools/bundles/` is `/tools/bundles`, not a bundle with an empty ID.
    routerOptions: { maxParamLength: 2048, ignoreTrailingSlash: true },
    // Errors Fastify answers before routing (a path that is not valid percent-encoded UTF-8,
    // an overlong segment) keep the contract's error shape too.
    frameworkErrors: (err, _req, reply) => {
      const message =
        err.code === 'FST_ERR_BAD_URL'
          ? 'the path is not valid percent-encoded UTF-8; encode slugs and versions with encodeURIComponent'
          : `invalid request: ${err.message}`;
      void sendError(reply, { code: 'INVALID_INPUT', message });
    },
    // Node refuses some requests before Fastify sees them (a 100 KB query string, bytes that are
    // not HTTP); those answers keep the contract's shape too.
    clientErrorHandler: answerClientError,
    // Behind the trusted proxy, req.ip is the right-most X-Forwarded-For address that is not the
    // proxy (proxy-addr walks the header from the right); a header from any other peer is ignored.
    ...(opts.trustedProxy ? { trustProxy: (address: string) => matchesProxy(address, opts.trustedProxy!) } : {}),
  });
  await app.register(guardPlugin, {
    token: opts.token,
    publicUrl: opts.publicUrl,
    trustedProxy: opts.trustedProxy,
    oauth: opts.oauth,
    ...(opts.mcp ? { profiles: profileTokenCheck(opts.core) } : {}),
  });
  app.get(HEALTH_PATH, async () => ({ ok: true }));
  app.get(READY_PATH, async (_req, reply) => {
    const ready = opts.isReady?.() ?? true;
    return reply.code(ready ? 200 : 503).send({ ready });
  });
  if (opts.oauth) await app.register(protectedResourceRoutes, { issuer: opts.oauth, publicUrl: opts.publicUrl });
  await app.register(parsersPlugin, { maxImportBytes });
  await app.register(restRoutes, { core: opts.core, maxImportBytes });
  if (opts.mcp) await app.register(mcpRoute, { core: opts.core });
  await app.register(rendererStatic, opts.rendererDir ? { rendererDir: opts.rendererDir } : {});
  return app;
}
