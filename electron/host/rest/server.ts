/**
 * The headless host's REST transport (docs/contracts.md, "REST contract"), as Fastify plugins in the
 * order a request meets them: the guard (Host/Origin, bearer token), body parsers and the error
 * shape, the contract's routes, the ZIP routes, the event stream, the renderer. Fastify was
 * chosen for its maintained router (percent-decoded Unicode params), raw-body content parsers,
 * hooks and plugin encapsulation.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { TransportCore } from '../../core/operations/transport.js';
import { RENDERER_CSP } from './csp.js';
import { sendError } from './errors.js';
import { guardPlugin } from './guard.js';
import { parsersPlugin } from './parsers.js';
import { contractRoutes } from './contract-routes.js';
import { transferRoutes } from './transfer-routes.js';
import { eventsRoute } from './events-route.js';
import { rendererStatic } from './renderer-static.js';
import { answerClientError } from './client-errors.js';
import { mcpRoute } from '../mcp/http-route.js';
import type { McpCore } from '../mcp/mcp-server.js';
import { profileTokenCheck } from '../mcp/profile-auth.js';
import type { OAuthIssuer } from '../oauth/issuer.js';
import { protectedResourceRoutes } from '../oauth/resource.js';
import { matchesProxy } from '../listen.js';

export interface RestOptions {
  core: TransportCore;
  token: string;
  /** Folder of the built renderer, served at `/`. */
  rendererDir?: string;
  /** Largest import body accepted. */
  maxImportBytes?: number;
  /** The core as the MCP server needs it: given, `/mcp` serves MCP over Streamable HTTP. */
  mcp?: McpCore;
  /** Certificate and key: HTTPS instead of HTTP. */
  tls?: { cert: Buffer; key: Buffer } | undefined;
  /** The address people use when the host listens beyond loopback (Host and Origin checks). */
  publicUrl?: URL | undefined;
  /** The proxy in front (address or CIDR): the only peer accepted besides this machine. */
  trustedProxy?: string | undefined;
  /** The team's authorization server: `/mcp` and `/tools` take its access tokens too (RFC 9728 metadata served). */
  oauth?: OAuthIssuer | undefined;
}

/** Unauthenticated liveness for container health checks and load balancers: it says nothing else. */
export const HEALTH_PATH = '/healthz';

export { RENDERER_CSP };

export async function createRestServer(opts: RestOptions): Promise<FastifyInstance> {
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
    ...(opts.mcp ? { profiles: profileTokenCheck(opts.mcp) } : {}),
  });
  app.get(HEALTH_PATH, async () => ({ ok: true }));
  if (opts.oauth) await app.register(protectedResourceRoutes, { issuer: opts.oauth, publicUrl: opts.publicUrl });
  await app.register(parsersPlugin, { maxImportBytes });
  await app.register(contractRoutes, { core: opts.core });
  await app.register(transferRoutes, { core: opts.core, maxImportBytes });
  await app.register(eventsRoute, { core: opts.core });
  if (opts.mcp) await app.register(mcpRoute, { core: opts.mcp });
  app.all('/tools/*', async (req, reply) =>
    sendError(reply, { code: 'NOT_FOUND', message: `no API route ${req.method} ${req.url.split('?')[0]}; see docs/contracts.md for the REST contract` }),
  );
  await app.register(rendererStatic, opts.rendererDir ? { rendererDir: opts.rendererDir } : {});
  return app;
}
