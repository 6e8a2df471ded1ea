/**
 * A remote upstream MCP server behind OAuth 2.1, over the headless host's REST API, against a real
 * authorization server on loopback (oidc-provider: dynamic registration, PKCE, resource
 * indicators, JWT access tokens, refresh tokens) and a protected MCP server that checks the JWT
 * against the provider's JWKS. The test plays the person's browser with plain HTTP requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHost, type TestHost } from '../../../../helpers/host.js';
import { startOAuthServer, startProtectedMcpServer, TEST_ACCOUNT, type OAuthServer, type ProtectedMcpServer } from '../../../../helpers/oauth-server.js';

const ACCESS_TOKEN_TTL_S = 3;

let h: TestHost;
let as: OAuthServer;
let mcp: ProtectedMcpServer;
let bundleID: string;
let toolSlug: string;

const base = () => `/tools/bundles/${bundleID}`;
const secretPrefix = () => `MCP_OAUTH_${bundleID.replace(/-/g, '_').toUpperCase()}_`;

async function serverState(): Promise<{ state: string; lastError?: string; authorizationUrl?: string }> {
  const r = await h.api('GET', `${base()}/server`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) out.push(join(e.parentPath, e.name));
  return out;
}

function storedTokens(): { access_token: string; refresh_token?: string } {
  const raw = h.core.secrets.get(`${secretPrefix()}TOKENS`);
  expect(raw, 'the tokens are in the secrets store').toBeDefined();
  return JSON.parse(raw!);
}

beforeAll(async () => {
  let issuer = '';
  mcp = await startProtectedMcpServer({ issuer: () => issuer });
  as = await startOAuthServer({ resources: () => [mcp.url], accessTokenTtlSeconds: ACCESS_TOKEN_TTL_S });
  issuer = as.issuer;
  h = await startHost();
  bundleID = uuidv7();
  const put = await h.api('PUT', base(), {
    slug: 'remote',
    displayName: 'Remote echo',
    source: { kind: 'mcp', transport: 'http', url: mcp.url, auth: { kind: 'oauth' } },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(201);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await mcp?.close();
  await as?.close();
});

describe('a remote MCP server behind OAuth', () => {
  it('a sync that meets 401 leaves the server needing authorization, saying how to sign in', async () => {
    const sync = await h.api('POST', `${base()}/sync`);
    expect(sync.status).toBeGreaterThanOrEqual(400);
    expect(sync.body.error.message).toMatch(/sign in/i);
    const s = await serverState();
    expect(s.state).toBe('needs-authorization');
    expect(s.lastError).toMatch(/sign in/i);
    expect(mcp.refused()).toBeGreaterThan(0);
  });

  it('authorize gives a link; signing in through it completes the flow on the loopback callback; sync and a call work', async () => {
    const started = await h.api('POST', `${base()}/server/authorize`);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const link = new URL(started.body.authorizationUrl);
    expect(link.origin).toBe(as.issuer);
    expect(link.searchParams.get('code_challenge_method')).toBe('S256');
    expect(link.searchParams.get('resource')).toBe(mcp.url);
    const redirect = new URL(link.searchParams.get('redirect_uri')!);
    expect(redirect.hostname).toBe('127.0.0.1');
    expect(redirect.pathname).toBe('/callback');
    expect((await serverState()).authorizationUrl).toBe(started.body.authorizationUrl);

    const landed = await as.signIn(started.body.authorizationUrl);
    expect(landed.url.startsWith(redirect.origin + '/callback')).toBe(true);
    expect(landed.status, landed.body).toBe(200);
    expect(landed.body).toMatch(/signed in/i);
    await until('the server to leave needs-authorization', async () => ((await serverState()).state === 'needs-authorization' ? undefined : true));
    expect((await serverState()).authorizationUrl).toBeUndefined();

    const sync = await h.api('POST', `${base()}/sync`);
    expect(sync.status, JSON.stringify(sync.body)).toBe(200);
    expect(sync.body.server).toMatchObject({ name: 'protected-echo' });
    toolSlug = sync.body.added[0].slug;
    await h.api('PATCH', `${base()}/tools/${toolSlug}/version/v1`, { isEnabled: true });
    const r = await h.api('POST', `${base()}/tools/${toolSlug}/version/v1/invoke`, { args: { message: 'hi' } });
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ ok: true, value: { message: 'hi', subject: TEST_ACCOUNT } });
    expect(mcp.calls.at(-1)).toEqual({ subject: TEST_ACCOUNT, message: 'hi' });
  }, 60_000);

  it('keeps the client and the tokens in the secrets store, never in a file of the bundle', async () => {
    const tokens = storedTokens();
    expect(tokens.refresh_token).toBeTruthy();
    expect(h.core.secrets.get(`${secretPrefix()}CLIENT`)).toMatch(/client_id/);
    const names = ((await h.api('GET', '/tools/secrets')).body.items as { name: string }[]).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining([`${secretPrefix()}TOKENS`, `${secretPrefix()}CLIENT`]));
    for (const file of await filesUnder(join(h.dataDir, 'bundles', bundleID))) {
      const text = await readFile(file, 'utf8');
      expect(text, file).not.toContain(tokens.access_token);
      expect(text, file).not.toContain(tokens.refresh_token!);
    }
  });

  it('an expired access token is refreshed without a person', async () => {
    const before = storedTokens();
    const refreshes = as.refreshes();
    await new Promise((r) => setTimeout(r, (ACCESS_TOKEN_TTL_S + 1) * 1000));
    const r = await h.api('POST', `${base()}/tools/${toolSlug}/version/v1/invoke`, { args: { message: 'later' } });
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ ok: true, value: { message: 'later' } });
    expect(as.refreshes()).toBeGreaterThan(refreshes);
    expect(storedTokens().access_token).not.toBe(before.access_token);
    expect((await serverState()).state).toBe('ready');
  }, 30_000);

  it('a revoked refresh token returns the server to needs-authorization with a clear message', async () => {
    await as.revokeAll();
    await new Promise((r) => setTimeout(r, (ACCESS_TOKEN_TTL_S + 1) * 1000));
    const r = await h.api('POST', `${base()}/tools/${toolSlug}/version/v1/invoke`, { args: { message: 'after revoke' } });
    expect(r.body.ok, JSON.stringify(r.body)).toBe(false);
    expect(r.body.error.message).toMatch(/sign in/i);
    const s = await serverState();
    expect(s.state).toBe('needs-authorization');
    expect(s.lastError).toMatch(/sign in/i);
    expect(mcp.calls.map((c) => c.message)).not.toContain('after revoke');
  }, 30_000);

  it('a sign-in done in another process frees the tools in this one: offered again with list_changed, and the call works', async () => {
    // Another process on the same data folder (watching it, as every long-lived one does) meets the refusal too.
    const other = await startHost({ dataDir: h.dataDir, watch: true });
    const agent = new Client({ name: 'other-agent', version: '1' });
    try {
      const invoke = () => other.api('POST', `${base()}/tools/${toolSlug}/version/v1/invoke`, { args: { message: 'from the other process' } });
      const refused = await invoke();
      expect(refused.body.ok, JSON.stringify(refused.body)).toBe(false);
      const otherState = async () => (await other.api('GET', `${base()}/server`)).body.state as string;
      expect(await otherState()).toBe('needs-authorization');
      await agent.connect(
        new StreamableHTTPClientTransport(new URL(`${other.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${other.token}` } } }),
      );
      const offered = async () => (await agent.listTools()).tools.map((t) => t.name);
      const before = await offered();
      expect(before.some((n) => n.includes(toolSlug))).toBe(false);
      let changed = 0;
      agent.setNotificationHandler('notifications/tools/list_changed', () => void changed++);

      // The person signs in through the first process (the app's host).
      const started = await h.api('POST', `${base()}/server/authorize`);
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      expect((await as.signIn(started.body.authorizationUrl)).status).toBe(200);

      await until('the other process to hear of the sign-in', async () => ((await otherState()) === 'needs-authorization' ? undefined : true));
      await until('list_changed in the other process', async () => (changed > 0 ? true : undefined));
      expect((await offered()).some((n) => n.includes(toolSlug))).toBe(true);
      const ran = await invoke();
      expect(ran.body, JSON.stringify(ran.body)).toMatchObject({ ok: true, value: { message: 'from the other process', subject: TEST_ACCOUNT } });
    } finally {
      await agent.close();
      await other.close();
    }
  }, 60_000);
});
