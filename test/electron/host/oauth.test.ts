/**
 * OAuth 2.1 on the team host (issue 22): the MCP and REST endpoints are a protected resource
 * (RFC 9728 metadata), taking bearer JWTs from the team's authorization server — here a real
 * oidc-provider on loopback, with real client-credentials and authorization-code + PKCE flows —
 * checked for signature (the issuer's JWKS), issuer, audience and expiry, with scopes mapped to
 * rights. The host's token and profile tokens keep working beside it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { generateKeyPair, SignJWT } from 'jose';
import { v7 as uuidv7 } from 'uuid';
import { calcToolBody, startHost, type TestHost } from '../../helpers/host.js';
import { startOAuthServer, TEST_ACCOUNT, type OAuthServer } from '../../helpers/oauth-server.js';
import { loadOAuthIssuer, OAuthRefused } from '../../../electron/host/oauth/issuer.js';
import type { AuditRecord } from '../../../shared/audit.js';

const SCOPES = 'toolwright:read toolwright:call toolwright:write toolwright:approve toolwright:admin toolwright:profile:team team:ops';
const AGENT = { clientId: 'build-agent', secret: 'agent-secret-0123456789' };
const READER = { clientId: 'dashboard', secret: 'reader-secret-0123456789' };
const OTHER_RESOURCE = 'http://127.0.0.1:9/elsewhere/mcp';

let as: OAuthServer;
let otherAs: OAuthServer;
let h: TestHost;
/** Where the authorization server sends the browser back with the code (a real loopback page). */
let callback: Server;
let redirectUri: string;
const bundleID = uuidv7();
const profileID = uuidv7();

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

/** Who called the calculator, by the audit log's call records. */
async function calcCallers(): Promise<string[]> {
  const calls = (await h.api('GET', '/tools/audit?kind=call&tool=calc')).body.items as AuditRecord[];
  return calls.map((r) => (r.kind === 'call' ? r.caller : ''));
}

async function get(path: string, token?: string, method = 'GET', body?: unknown) {
  const res = await fetch(h.url + path, {
    method,
    headers: {
      ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed, challenge: res.headers.get('www-authenticate') ?? '' };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
};
const mcpPost = (token: string, path = '/mcp') => get(path, token, 'POST', INITIALIZE);

const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };

async function mcpClient(token: string, path = '/mcp', name = 'oauth-agent', modern = false): Promise<Client> {
  const c = new Client({ name, version: '1' }, modern ? MODERN : {});
  await c.connect(new StreamableHTTPClientTransport(new URL(h.url + path), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return c;
}

beforeAll(async () => {
  const resources = () => (h ? [`${h.url}/mcp`, `${h.url}/mcp/p/team`, OTHER_RESOURCE] : [OTHER_RESOURCE]);
  const clients = [
    { client_id: AGENT.clientId, client_secret: AGENT.secret, grant_types: ['client_credentials'], scope: SCOPES },
    { client_id: READER.clientId, client_secret: READER.secret, grant_types: ['client_credentials'], scope: 'toolwright:read toolwright:profile:team' },
  ];
  callback = createServer((_req, res) => res.end('signed in'));
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  as = await startOAuthServer({ resources, scope: SCOPES, clients });
  otherAs = await startOAuthServer({ resources, scope: SCOPES, clients });
  h = await startHost({ oauth: await loadOAuthIssuer({ issuer: as.issuer }) });
  expect((await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'team-tools' })).status).toBeLessThan(300);
  expect((await h.api('PUT', `/tools/bundles/${bundleID}/tools/calc/version/v1`, calcToolBody())).status).toBe(201);
  expect((await h.api('PUT', `/tools/bundles/${bundleID}/tools/guarded/version/v1`, calcToolBody({ safety: 'privileged' }))).status).toBe(201);
  expect((await h.api('PUT', `/tools/profiles/${profileID}`, { slug: 'team', bundles: [bundleID], mode: 'all' })).status).toBeLessThan(300);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await as?.close();
  await otherAs?.close();
  callback?.close();
});

describe('protected resource metadata (RFC 9728)', () => {
  it('names the resource, the team authorization server and the scopes at the path-inserted and root addresses, without a token', async () => {
    const mcp = await get('/.well-known/oauth-protected-resource/mcp');
    expect(mcp.status).toBe(200);
    expect(mcp.body).toMatchObject({ resource: `${h.url}/mcp`, authorization_servers: [as.issuer], bearer_methods_supported: ['header'] });
    expect(mcp.body.scopes_supported).toEqual(expect.arrayContaining(['toolwright:read', 'toolwright:call', 'toolwright:write', 'toolwright:approve']));
    expect((await get('/.well-known/oauth-protected-resource')).body.resource).toBe(`${h.url}/mcp`);
    const profile = await get('/.well-known/oauth-protected-resource/mcp/p/team');
    expect(profile.body).toMatchObject({ resource: `${h.url}/mcp/p/team`, authorization_servers: [as.issuer] });
    expect(profile.body.scopes_supported).toContain('toolwright:profile:team');
  });

  it('answers a request without a token 401 with a challenge that points at the metadata', async () => {
    const r = await mcpPost('');
    expect(r.status).toBe(401);
    expect(r.challenge).toContain(`resource_metadata="${h.url}/.well-known/oauth-protected-resource/mcp"`);
    const rest = await get('/tools/tools');
    expect(rest.challenge).toContain(`resource_metadata="${h.url}/.well-known/oauth-protected-resource"`);
  });
});

describe('tokens from the team authorization server', () => {
  it('a client-credentials token lets an MCP client list and call tools on /mcp, and the audit log names the OAuth caller', async () => {
    const token = await as.clientCredentialsToken(AGENT, `${h.url}/mcp`, 'toolwright:call');
    const c = await mcpClient(token);
    try {
      expect((await c.listTools()).tools.map((t) => t.name)).toContain('team-tools_calc');
      const result = (await c.callTool({ name: 'team-tools_calc', arguments: { expression: '6*7' } })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      expect(JSON.stringify(result.content)).toContain('42');
    } finally {
      await c.close();
    }
    await vi.waitFor(
      async () => {
        const callers = await calcCallers();
        expect(callers).toContain(`mcp:oauth-agent@oauth:${AGENT.clientId}`);
      },
      { timeout: 5000, interval: 100 },
    );
  }, 30_000);

  it('the same over the 2026-07-28 protocol (stateless requests): the caller reaches the audit log', async () => {
    const c = await mcpClient(await as.clientCredentialsToken(AGENT, `${h.url}/mcp`, 'toolwright:call'), '/mcp', 'modern-agent', true);
    try {
      expect(c.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      await c.callTool({ name: 'team-tools_calc', arguments: { expression: '5*5' } });
    } finally {
      await c.close();
    }
    await vi.waitFor(
      async () => {
        expect(await calcCallers()).toContain(`mcp:modern-agent@oauth:${AGENT.clientId}`);
      },
      { timeout: 5000, interval: 100 },
    );
  }, 30_000);

  it("the SDK client finds its way alone: 401 -> the host's metadata -> the authorization server -> a token for this resource", async () => {
    const c = new Client({ name: 'discovering-agent', version: '1' });
    const authProvider = new ClientCredentialsProvider({
      clientId: AGENT.clientId,
      clientSecret: AGENT.secret,
      scope: 'toolwright:call',
      expectedIssuer: as.issuer,
    });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { authProvider }));
    try {
      expect((await c.listTools()).tools.map((t) => t.name)).toContain('team-tools_calc');
    } finally {
      await c.close();
    }
  }, 30_000);

  it('a privileged call asks for approval bound to the OAuth caller, and a token with toolwright:approve answers it', async () => {
    const c = await mcpClient(await as.clientCredentialsToken(AGENT, `${h.url}/mcp`, 'toolwright:call'), '/mcp', 'approver-agent');
    try {
      const name = (await c.listTools()).tools.find((t) => t.name.endsWith('guarded'))!.name;
      const call = c.callTool({ name, arguments: { expression: '2*21' } }) as Promise<CallToolResult>;
      let approvalID = '';
      await vi.waitFor(
        async () => {
          const items = (await h.api('GET', '/tools/approvals')).body.items as { approvalID: string; caller: string; tool: { slug: string } }[];
          const pending = items.find((i) => i.tool.slug === 'guarded');
          expect(pending?.caller).toBe(`mcp:approver-agent@oauth:${AGENT.clientId}`);
          approvalID = pending!.approvalID;
        },
        { timeout: 10_000, interval: 100 },
      );
      const reader = await as.clientCredentialsToken(READER, `${h.url}/mcp`, 'toolwright:read');
      const notYours = await get(`/tools/approvals/${approvalID}`, reader, 'POST', { decision: 'approve' });
      expect(notYours.status).toBe(403);
      expect(notYours.challenge).toContain('scope="toolwright:approve"');
      const approver = await as.clientCredentialsToken(AGENT, `${h.url}/mcp`, 'toolwright:approve');
      expect((await get(`/tools/approvals/${approvalID}`, approver, 'POST', { decision: 'approve' })).status).toBe(200);
      expect(JSON.stringify((await call).content)).toContain('42');
    } finally {
      await c.close();
    }
  }, 30_000);

  it('an authorization-code + PKCE token (a person signing in) reads tools over REST and is recorded by its subject', async () => {
    const reg = await fetch(`${as.issuer}/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'] }),
    });
    const client = (await reg.json()) as { client_id: string };
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = new URL(`${as.issuer}/auth`);
    for (const [k, v] of Object.entries({
      client_id: client.client_id,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'toolwright:read toolwright:call',
      resource: `${h.url}/mcp`,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'xyz',
    }))
      authorize.searchParams.set(k, v);
    const landed = await as.signIn(authorize.href);
    const code = new URL(landed.url).searchParams.get('code');
    expect(code, landed.body).toBeTruthy();
    const tokenRes = await fetch(`${as.issuer}/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: code!,
        redirect_uri: redirectUri,
        client_id: client.client_id,
        code_verifier: verifier,
        resource: `${h.url}/mcp`,
      }),
    });
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    expect(access_token.split('.')).toHaveLength(3);
    const tools = await get('/tools/tools', access_token);
    expect(tools.status, JSON.stringify(tools.body)).toBe(200);
    const invoked = await get(`/tools/bundles/${bundleID}/tools/calc/version/v1/invoke`, access_token, 'POST', { args: { expression: '2+3' } });
    expect(invoked.status, JSON.stringify(invoked.body)).toBe(200);
    const streamed = await get(`/tools/bundles/${bundleID}/tools/calc/version/v1/invoke?stream=true`, access_token, 'POST', { args: { expression: '3+4' } });
    expect(streamed.status).toBe(200);
    const c = await mcpClient(access_token, '/mcp', 'person-agent');
    try {
      await c.callTool({ name: 'team-tools_calc', arguments: { expression: '1+1' } });
    } finally {
      await c.close();
    }
    await vi.waitFor(
      async () => {
        const callers = await calcCallers();
        expect(callers).toContain(`mcp:person-agent@oauth:${TEST_ACCOUNT},client=${client.client_id}`);
        expect(callers.filter((c) => c === `rest@oauth:${TEST_ACCOUNT},client=${client.client_id}`)).toHaveLength(2);
      },
      { timeout: 5000, interval: 100 },
    );
  }, 30_000);
});

describe('tokens that are refused', () => {
  const invalid = (r: { status: number; challenge: string }, why: RegExp) => {
    expect(r.status).toBe(401);
    expect(r.challenge).toMatch(/^Bearer /);
    expect(r.challenge).toContain('error="invalid_token"');
    expect(r.challenge).toContain(`resource_metadata="${h.url}/.well-known/oauth-protected-resource/mcp"`);
    expect(r.challenge).toMatch(why);
  };

  it('expired (signed by the issuer itself)', async () => {
    const token = await as.sign({ iss: as.issuer, aud: `${h.url}/mcp`, sub: 'mallory', scope: 'toolwright:admin', iat: now() - 7200, exp: now() - 3600 });
    invalid(await mcpPost(token), /error_description="[^"]*expired/);
  });

  it('issued for another audience', async () => {
    const token = await as.clientCredentialsToken(AGENT, OTHER_RESOURCE, 'toolwright:call');
    invalid(await mcpPost(token), /error_description="[^"]*audience/);
  });

  it('from another issuer', async () => {
    const token = await otherAs.clientCredentialsToken(AGENT, `${h.url}/mcp`, 'toolwright:call');
    invalid(await mcpPost(token), /error_description="[^"]*(issuer|signature|key)/);
  });

  it('unsigned (alg: none)', async () => {
    const token = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ iss: as.issuer, aud: `${h.url}/mcp`, sub: 'mallory', scope: 'toolwright:admin', exp: now() + 600 })}.`;
    invalid(await mcpPost(token), /error_description="[^"]*(alg|algorithm)/);
  });

  it('signed with another key under the issuer key ID', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const token = await new SignJWT({ scope: 'toolwright:admin', sub: 'mallory' })
      .setProtectedHeader({ alg: 'RS256', kid: 'test' })
      .setIssuer(as.issuer)
      .setAudience(`${h.url}/mcp`)
      .setExpirationTime('10m')
      .sign(privateKey);
    invalid(await mcpPost(token), /error_description="[^"]*signature/);
  });

  it('a valid token without the scope a route needs: 403 insufficient_scope naming it', async () => {
    const reader = await as.clientCredentialsToken(READER, `${h.url}/mcp`, 'toolwright:read');
    const call = await mcpPost(reader);
    expect(call.status).toBe(403);
    expect(call.challenge).toContain('error="insufficient_scope"');
    expect(call.challenge).toContain('scope="toolwright:call"');
    expect((await get('/tools/tools', reader)).status).toBe(200);
    const write = await get(`/tools/bundles/${bundleID}/tools/calc/version/v1`, reader, 'DELETE');
    expect(write.status).toBe(403);
    expect(write.challenge).toContain('scope="toolwright:write"');
    expect((await get('/tools/secrets', reader)).challenge).toContain('scope="toolwright:admin"');
  });

  it('a profile scope opens that profile only', async () => {
    const forHost = await as.clientCredentialsToken(READER, `${h.url}/mcp`, 'toolwright:profile:team');
    expect((await mcpPost(forHost, '/mcp/p/team')).status).toBe(200);
    const elsewhere = await mcpPost(forHost, '/mcp');
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.challenge).toContain('scope="toolwright:call"');
    // Issued for the profile's own URL (what its path-inserted metadata names): good there, nowhere else.
    const forProfile = await as.clientCredentialsToken(READER, `${h.url}/mcp/p/team`, 'toolwright:profile:team');
    expect((await mcpPost(forProfile, '/mcp/p/team')).status).toBe(200);
    expect((await mcpPost(forProfile, '/mcp')).challenge).toContain('error="invalid_token"');
  });

  it('a bearer too long to be any token is refused with a clear message, and a 64 KB header with 431', async () => {
    const long = await get('/tools/tools', 'x'.repeat(12 * 1024));
    expect(long.status).toBe(401);
    expect(long.body.error.message).toMatch(/longer than/);
    const huge = await new Promise<number>((resolve, reject) => {
      const req = request(`${h.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${'y'.repeat(64 * 1024)}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(huge).toBe(431);
  });
});

describe("a profile's required scope", () => {
  it('is validated, kept, and needed on top of the profile scope at its address', async () => {
    const bad = await h.api('PUT', `/tools/profiles/${profileID}`, { slug: 'team', bundles: [bundleID], mode: 'all', requiredScope: 'two words' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('requiredScope');
    const put = await h.api('PUT', `/tools/profiles/${profileID}`, { slug: 'team', bundles: [bundleID], mode: 'all', requiredScope: 'team:ops' });
    expect(put.body.requiredScope).toBe('team:ops');
    try {
      const without = await as.clientCredentialsToken(AGENT, `${h.url}/mcp/p/team`, 'toolwright:profile:team');
      const refused = await mcpPost(without, '/mcp/p/team');
      expect(refused.status).toBe(403);
      expect(refused.challenge).toContain('scope="team:ops"');
      const withIt = await as.clientCredentialsToken(AGENT, `${h.url}/mcp/p/team`, 'toolwright:profile:team team:ops');
      expect((await mcpPost(withIt, '/mcp/p/team')).status).toBe(200);
    } finally {
      await h.api('PUT', `/tools/profiles/${profileID}`, { slug: 'team', bundles: [bundleID], mode: 'all' });
    }
  });
});

describe('the tokens of before, beside OAuth', () => {
  it('the host token and a profile token keep working', async () => {
    expect((await mcpPost(h.token)).status).toBe(200);
    const created = await h.api('POST', `/tools/profiles/${profileID}/tokens`, { label: 'ci' });
    expect(created.status).toBe(201);
    expect((await mcpPost(created.body.token, '/mcp/p/team')).status).toBe(200);
    expect((await mcpPost(created.body.token, '/mcp')).status).toBe(401);
  });
});

describe('starting with an authorization server', () => {
  it('refuses an issuer it cannot reach, or whose metadata names another issuer, saying what to fix', async () => {
    await expect(loadOAuthIssuer({ issuer: 'not a url' })).rejects.toThrow(OAuthRefused);
    await expect(loadOAuthIssuer({ issuer: 'http://127.0.0.1:9' })).rejects.toThrow(/cannot read the authorization server's metadata/);
    await expect(loadOAuthIssuer({ issuer: `${as.issuer}/` })).rejects.toThrow(/names its issuer/);
    await expect(loadOAuthIssuer({ issuer: as.issuer, audience: 'mcp' })).rejects.toThrow(/--oauth-audience/);
  });
});

describe('wrong tokens, forged JWTs included, lock the address out', () => {
  it('answers 429 after a run of forged tokens', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    let last = 0;
    for (let i = 0; i < 25 && last !== 429; i++) {
      const forged = await new SignJWT({ sub: `m${i}` })
        .setProtectedHeader({ alg: 'ES256' })
        .setIssuer(as.issuer)
        .setAudience(`${h.url}/mcp`)
        .setExpirationTime('5m')
        .sign(privateKey);
      last = (await mcpPost(forged)).status;
    }
    expect(last).toBe(429);
    expect((await mcpPost(h.token)).status).toBe(200);
  });
});
