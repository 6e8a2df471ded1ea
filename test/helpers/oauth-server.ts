/**
 * A real OAuth 2.1 authorization server on loopback (oidc-provider, the certified OpenID provider
 * for Node) and a protected MCP server that trusts it, for the tests of remote upstream servers
 * and of the team host. The authorization server registers clients dynamically, issues access
 * tokens as JWTs whose `aud` is the protected resource (RFC 8707 resource indicators) and refresh
 * tokens; its login is a test account that signs in and consents at once, so `signIn()` can play
 * the browser with plain HTTP requests (following redirects, keeping cookies) up to the client's
 * redirect URI. For the team host's tests it also issues client-credentials tokens to static
 * clients (`clientCredentialsToken`) and signs tokens by hand with its own key (`sign`), for the
 * claims a real server never issues on request (an expired token).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import Provider, { type Configuration } from 'oidc-provider';
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import {
  bearerAuthChallengeResponse,
  createMcpHandler,
  OAuthError,
  OAuthErrorCode,
  Server,
  verifyBearerToken,
  type AuthInfo,
  type Tool,
} from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';

export const TEST_ACCOUNT = 'alice';

export interface OAuthServer {
  issuer: string;
  provider: Provider;
  /** Plays the browser: follows the authorization URL through login and consent to the redirect URI; the redirect's answer. */
  signIn(authorizationUrl: string): Promise<{ status: number; url: string; body: string }>;
  /** Revokes every grant of the test account: its refresh tokens stop working. */
  revokeAll(): Promise<void>;
  /** How many token requests with grant_type=refresh_token the server answered. */
  refreshes(): number;
  /** A client-credentials access token for one of the static clients, for `resource`. */
  clientCredentialsToken(client: { clientId: string; secret: string }, resource: string, scope: string): Promise<string>;
  /** A JWT signed with this server's own key (kid and alg as its tokens have), with these claims as they are. */
  sign(claims: JWTPayload): Promise<string>;
  close(): Promise<void>;
}

export interface OAuthServerOptions {
  /** The protected resources (their URLs) it issues tokens for, read on each request. */
  resources: () => string[];
  /** Scope each resource accepts: one, or several separated by spaces. */
  scope?: string;
  accessTokenTtlSeconds?: number;
  /** Clients registered from the start (e.g. for the client-credentials grant, or a pre-registered native app); others register dynamically. */
  clients?: {
    client_id: string;
    client_secret: string;
    grant_types: string[];
    scope?: string;
    application_type?: 'native' | 'web';
    redirect_uris?: string[];
    response_types?: string[];
  }[];
  /** Whether clients may register dynamically (RFC 7591); default yes. Without, only `clients` can sign in. */
  registration?: boolean;
  /** The address it listens on and names in its issuer; default loopback (a container reaches the docker bridge's gateway instead). */
  host?: string;
}

function listen(server: http.Server, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

export async function startOAuthServer(opts: OAuthServerOptions): Promise<OAuthServer> {
  const scope = opts.scope ?? 'mcp:tools';
  const server = http.createServer();
  const host = opts.host ?? '127.0.0.1';
  const port = await listen(server, host);
  const issuer = `http://${host}:${port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test', alg: 'RS256', use: 'sig' };
  const grants = new Set<string>();
  let refreshCount = 0;

  const configuration: Configuration = {
    clients: (opts.clients ?? []).map((c) => ({ redirect_uris: [], response_types: [], token_endpoint_auth_method: 'client_secret_basic', ...c })),
    jwks: { keys: [signingKey as never] },
    cookies: { keys: [randomUUID()] },
    scopes: ['openid', 'offline_access', ...scope.split(' ')],
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: { AccessToken: opts.accessTokenTtlSeconds ?? 3600, RefreshToken: 24 * 3600, Grant: 24 * 3600, Session: 3600, Interaction: 600 },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: opts.registration ?? true },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => opts.resources()[0]!,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (!opts.resources().includes(indicator)) throw new Provider.errors['InvalidTarget']!(`unknown resource ${indicator}`);
          return { scope, audience: indicator, accessTokenTTL: opts.accessTokenTtlSeconds ?? 3600, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
        },
      },
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.on('grant.success', (ctx: { oidc?: { params?: { grant_type?: string } } }) => {
    if (ctx.oidc?.params?.grant_type === 'refresh_token') refreshCount++;
  });
  const callback = provider.callback();

  // The test login: whoever arrives is the test account, and consents to what the client asks.
  async function interaction(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(req, res, { login: { accountId: TEST_ACCOUNT } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = details.grantId
      ? (await provider.Grant.find(details.grantId))!
      : new provider.Grant({ accountId: TEST_ACCOUNT, clientId: String(details.params['client_id']) });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    grants.add(grantId);
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((e: unknown) => {
        res.statusCode = 500;
        res.end(String(e));
      });
      return;
    }
    callback(req, res);
  });

  return {
    issuer,
    provider,
    async signIn(authorizationUrl) {
      const cookies = new Map<string, string>();
      let url = authorizationUrl;
      for (let hop = 0; hop < 20; hop++) {
        const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
        for (const line of res.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const eq = pair!.indexOf('=');
          cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1));
        }
        const location = res.headers.get('location');
        if (res.status >= 300 && res.status < 400 && location) {
          url = new URL(location, url).href;
          continue;
        }
        return { status: res.status, url, body: await res.text() };
      }
      throw new Error(`signIn: more than 20 redirects from ${authorizationUrl}`);
    },
    async revokeAll() {
      for (const id of grants) await (await provider.Grant.find(id))?.destroy();
      // Refresh tokens carry their grant: destroying the grant makes them invalid_grant.
      grants.clear();
    },
    refreshes: () => refreshCount,
    async clientCredentialsToken(client, resource, wanted) {
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope: wanted }),
      });
      const body = (await res.json()) as { access_token?: string };
      if (!res.ok || !body.access_token) throw new Error(`client_credentials: ${res.status} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    sign: (claims) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test', typ: 'at+jwt' }).sign(privateKey),
    close: () => closeServer(server),
  };
}

export interface ProtectedMcpServer {
  /** The MCP endpoint and the resource identifier tokens must be issued for. */
  url: string;
  /** Calls of the echo tool that arrived with a valid token, with the token's subject. */
  calls: { subject: string; message: string }[];
  /** Requests refused with 401. */
  refused(): number;
  close(): Promise<void>;
}

const ECHO: Tool = {
  name: 'whoami_echo',
  description: 'Echoes a message with the caller the token names',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  annotations: { readOnlyHint: true },
};

/**
 * An MCP server (the SDK's, Streamable HTTP) that requires a bearer JWT from `issuer()` with
 * `aud` = its own URL, checked against the issuer's JWKS with jose; without one it answers 401
 * with `WWW-Authenticate: Bearer resource_metadata="…"` and serves its RFC 9728 metadata.
 */
export async function startProtectedMcpServer(opts: { issuer: () => string; scope?: string }): Promise<ProtectedMcpServer> {
  const scope = opts.scope ?? 'mcp:tools';
  const server = http.createServer();
  const port = await listen(server);
  const url = `http://127.0.0.1:${port}/mcp`;
  const metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
  const calls: ProtectedMcpServer['calls'] = [];
  let refusedCount = 0;
  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      jwks ??= createRemoteJWKSet(new URL(`${opts.issuer()}/jwks`));
      try {
        const { payload } = await jwtVerify(token, jwks, { issuer: opts.issuer(), audience: url });
        return {
          token,
          clientId: String(payload['client_id'] ?? ''),
          scopes: String(payload['scope'] ?? '')
            .split(' ')
            .filter(Boolean),
          ...(payload.exp ? { expiresAt: payload.exp } : {}),
          resource: new URL(url),
          extra: { subject: payload.sub },
        };
      } catch (e) {
        throw new OAuthError(OAuthErrorCode.InvalidToken, `the token was refused: ${(e as Error).message}`);
      }
    },
  };
  const mcp = createMcpHandler(
    (ctx) => {
      const s = new Server({ name: 'protected-echo', version: '1.0.0' }, { capabilities: { tools: {} } });
      s.setRequestHandler('tools/list', async () => ({ tools: [ECHO] }));
      s.setRequestHandler('tools/call', async (req) => {
        const subject = String((ctx as { authInfo?: AuthInfo }).authInfo?.extra?.['subject'] ?? '');
        const message = String(req.params.arguments?.['message'] ?? '');
        calls.push({ subject, message });
        return { content: [{ type: 'text', text: message }], structuredContent: { message, subject } };
      });
      return s;
    },
    { legacy: 'stateless' },
  );
  const handler = toNodeHandler({
    fetch: async (request) => {
      try {
        const authInfo = await verifyBearerToken(request.headers.get('authorization'), {
          verifier,
          requiredScopes: [scope],
          resourceMetadataUrl: metadataUrl,
          expectedResource: new URL(url),
        });
        return await mcp.fetch(request, { authInfo });
      } catch (e) {
        refusedCount++;
        return bearerAuthChallengeResponse(e, { resourceMetadataUrl: metadataUrl });
      }
    },
  });
  server.on('request', (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/.well-known/oauth-protected-resource/mcp' || path === '/.well-known/oauth-protected-resource') {
      const body = JSON.stringify({ resource: url, authorization_servers: [opts.issuer()], scopes_supported: [scope], bearer_methods_supported: ['header'] });
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return;
    }
    if (path !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    void handler(req, res);
  });
  return {
    url,
    calls,
    refused: () => refusedCount,
    async close() {
      await mcp.close();
      await closeServer(server);
    },
  };
}
