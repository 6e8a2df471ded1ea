/**
 * The host as an OAuth protected resource (RFC 9728, the MCP authorization spec): its metadata
 * documents, at the root and path-inserted for `/mcp` and each profile's `/mcp/p/<slug>`, name
 * the resource, the team's authorization server and the scopes; the challenges of 401 and 403
 * point at them (RFC 6750 §3). Served without a token, and only when OAuth is configured.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { OAuthCaller, OAuthIssuer } from './issuer.js';
import { PROFILE_SCOPE_PREFIX, SCOPES_SUPPORTED } from './rights.js';

export const METADATA_PATH = '/.well-known/oauth-protected-resource';

/**
 * Browser-based MCP clients read the metadata from another origin, and it holds nothing secret,
 * so its reads (and their preflight) are open to any origin, without credentials. 'read': a GET
 * of a metadata route, which the guard lets through without its same-origin rule (that rule keeps
 * applying to everything else); 'answered': a preflight, answered here (it has no route).
 */
export function openMetadataRead(req: FastifyRequest, reply: FastifyReply): 'read' | 'answered' | undefined {
  const route = req.routeOptions.url ?? '';
  const path = req.url.split('?')[0]!;
  const isMetadata = (p: string) => p === METADATA_PATH || p.startsWith(`${METADATA_PATH}/`);
  if ((req.method === 'GET' || req.method === 'HEAD') && isMetadata(route)) {
    reply.header('Access-Control-Allow-Origin', '*');
    return 'read';
  }
  if (req.method === 'OPTIONS' && isMetadata(path)) {
    reply.header('Access-Control-Allow-Origin', '*');
    reply.header('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
    reply.header('Access-Control-Allow-Headers', 'MCP-Protocol-Version, Content-Type');
    reply.header('Access-Control-Max-Age', '86400');
    void reply.code(204).send();
    return 'answered';
  }
  return undefined;
}

/** Where the resource lives: the public URL, else the loopback address this request came to. */
export function resourceBase(req: FastifyRequest, publicUrl: URL | undefined): string {
  return publicUrl?.origin ?? `${req.protocol}://127.0.0.1:${req.socket.localPort}`;
}

/**
 * The `aud` a token must carry at a path: the configured audience, else the canonical MCP URL
 * (base + `/mcp`); a profile's address also takes tokens issued for its own URL, since a client
 * that follows RFC 9728 asks for that resource there.
 */
export function audiencesFor(issuer: OAuthIssuer, base: string, profileSlug: string | undefined): string[] {
  const main = issuer.audience ?? `${base}/mcp`;
  return profileSlug === undefined ? [main] : [main, `${base}/mcp/p/${encodeURIComponent(profileSlug)}`];
}

/** The metadata URL for a protected path: path-inserted for the MCP addresses, the root one for the REST API. */
export function metadataUrlFor(base: string, path: string): string {
  return path.startsWith('/mcp') ? `${base}${METADATA_PATH}${path}` : `${base}${METADATA_PATH}`;
}

const quoted = (s: string) => `"${s.replace(/["\\]/g, "'")}"`;

/** RFC 6750 §3's challenge, with RFC 9728's resource_metadata. */
export function bearerChallenge(metadataUrl: string, error?: { error: 'invalid_token' | 'insufficient_scope'; description: string; scope?: string }): string {
  const parts = [`resource_metadata=${quoted(metadataUrl)}`];
  if (error) {
    parts.push(`error=${quoted(error.error)}`, `error_description=${quoted(error.description)}`);
    if (error.scope) parts.push(`scope=${quoted(error.scope)}`);
  }
  return `Bearer ${parts.join(', ')}`;
}

/** The caller as the MCP SDK passes it to handlers (`ctx.http.authInfo`): the Node request's `auth`. */
export function attachCaller(req: FastifyRequest, caller: OAuthCaller, resource: string, metadataUrl: string): void {
  const auth: AuthInfo = {
    token: caller.token,
    clientId: caller.clientId ?? '',
    scopes: caller.scopes,
    expiresAt: caller.expiresAt,
    resource: new URL(resource),
    resourceMetadataUrl: metadataUrl,
    extra: { subject: caller.subject },
  };
  (req.raw as IncomingMessage & { auth?: AuthInfo }).auth = auth;
}

export async function protectedResourceRoutes(app: FastifyInstance, opts: { issuer: OAuthIssuer; publicUrl?: URL | undefined }): Promise<void> {
  const document = (resource: string, scopes: string[]) => ({
    resource,
    authorization_servers: [opts.issuer.issuer],
    scopes_supported: scopes,
    bearer_methods_supported: ['header'],
    resource_name: 'Toolwright',
  });
  const main = async (req: FastifyRequest) => {
    const base = resourceBase(req, opts.publicUrl);
    return document(audiencesFor(opts.issuer, base, undefined)[0]!, SCOPES_SUPPORTED);
  };
  app.get(METADATA_PATH, main);
  app.get(`${METADATA_PATH}/mcp`, main);
  app.get(`${METADATA_PATH}/mcp/p/:slug`, async (req) => {
    const slug = (req.params as { slug: string }).slug;
    const base = resourceBase(req, opts.publicUrl);
    return document(audiencesFor(opts.issuer, base, slug)[1]!, [`${PROFILE_SCOPE_PREFIX}${slug}`, ...SCOPES_SUPPORTED]);
  });
}
