/**
 * The team host's OAuth doors beyond calls (issue 22 leftovers), against a real oidc-provider on
 * loopback: an OAuth caller's changes and approval decisions over REST name it in the audit log as
 * its calls do; browser-based MCP clients read the protected-resource metadata cross-origin; with
 * the issuer down, a token whose key must be fetched is answered 503, not taken for a bad token.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { v7 as uuidv7 } from 'uuid';
import { generateKeyPair, SignJWT } from 'jose';
import { calcToolBody, startHost, type TestHost } from '../../helpers/host.js';
import { startOAuthServer, type OAuthServer } from '../../helpers/oauth-server.js';
import { loadOAuthIssuer } from '../../../electron/host/oauth/issuer.js';
import type { AuditRecord } from '../../../shared/audit.js';

const SCOPES = 'toolwright:read toolwright:call toolwright:write toolwright:approve';
const AGENT = { clientId: 'ops-agent', secret: 'ops-secret-0123456789' };

let as: OAuthServer;
let h: TestHost;
const bundleID = uuidv7();

async function send(path: string, init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(h.url + path, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.token !== undefined ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body, headers: res.headers };
}

const auditOf = async (kind: string) => (await h.api('GET', `/tools/audit?kind=${kind}`)).body.items as AuditRecord[];

beforeAll(async () => {
  const resources = () => (h ? [`${h.url}/mcp`] : []);
  as = await startOAuthServer({
    resources,
    scope: SCOPES,
    clients: [{ client_id: AGENT.clientId, client_secret: AGENT.secret, grant_types: ['client_credentials'], scope: SCOPES }],
  });
  h = await startHost({ oauth: await loadOAuthIssuer({ issuer: as.issuer }) });
  expect((await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'ops-tools' })).status).toBeLessThan(300);
  expect((await h.api('PUT', `/tools/bundles/${bundleID}/tools/guarded/version/v1`, calcToolBody({ safety: 'privileged' }))).status).toBe(201);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await as?.close();
});

describe('the OAuth caller wherever it acts over REST', () => {
  it("a change made with an OAuth token is recorded under the OAuth caller's name", async () => {
    const writer = await as.clientCredentialsToken(AGENT, `${h.url}/mcp`, 'toolwright:write');
    const made = await send(`/tools/bundles/${bundleID}/tools/calc/version/v1`, { method: 'PUT', token: writer, body: calcToolBody() });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const toolID = made.body.toolID as string;
    expect(toolID).toBeTruthy();
    await vi.waitFor(
      async () => {
        const change = (await auditOf('change')).find((r) => r.kind === 'change' && r.path.endsWith(`/tools/${toolID}/tool.json`));
        expect(change).toMatchObject({ actor: 'rest', caller: `rest@oauth:${AGENT.clientId}` });
      },
      { timeout: 5000, interval: 100 },
    );
    // A change made with the host's token stays plain REST.
    const bundle = (await auditOf('change')).find((r) => r.kind === 'change' && r.path.endsWith(`${bundleID}/bundle.json`));
    expect(bundle).toMatchObject({ actor: 'rest' });
    expect(bundle).not.toHaveProperty('caller');
  });

  it('an approval decided with an OAuth token names the OAuth caller as the one who decided', async () => {
    const c = new Client({ name: 'asking-agent', version: '1' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }));
    try {
      let name = '';
      await vi.waitFor(async () => {
        name = (await c.listTools()).tools.find((t) => t.name.endsWith('guarded'))!.name;
      });
      const call = c.callTool({ name, arguments: { expression: '6*7' } }) as Promise<CallToolResult>;
      let approvalID = '';
      await vi.waitFor(
        async () => {
          const items = (await h.api('GET', '/tools/approvals')).body.items as { approvalID: string; tool: { slug: string } }[];
          approvalID = items.find((i) => i.tool.slug === 'guarded')!.approvalID;
        },
        { timeout: 10_000, interval: 100 },
      );
      const approver = await as.clientCredentialsToken(AGENT, `${h.url}/mcp`, 'toolwright:approve');
      expect((await send(`/tools/approvals/${approvalID}`, { method: 'POST', token: approver, body: { decision: 'approve' } })).status).toBe(200);
      expect(JSON.stringify((await call).content)).toContain('42');
      await vi.waitFor(
        async () => {
          const decided = (await auditOf('approval')).find((r) => r.kind === 'approval' && r.approvalID === approvalID);
          expect(decided).toMatchObject({ decision: 'approve', decidedBy: 'rest', decider: `rest@oauth:${AGENT.clientId}` });
        },
        { timeout: 5000, interval: 100 },
      );
    } finally {
      await c.close();
    }
  }, 30_000);
});

describe('the protected-resource metadata, read cross-origin by browser-based MCP clients', () => {
  const FOREIGN = { origin: 'https://mcp-inspector.example' };

  it('answers GET from a foreign origin with Access-Control-Allow-Origin: *, at every metadata address', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource/mcp/p/team',
    ]) {
      const r = await send(path, { headers: FOREIGN });
      expect(r.status, path).toBe(200);
      expect(r.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(r.body.authorization_servers).toEqual([as.issuer]);
    }
  });

  it('answers the preflight of a GET that carries MCP-Protocol-Version', async () => {
    const r = await send('/.well-known/oauth-protected-resource/mcp', {
      method: 'OPTIONS',
      headers: { ...FOREIGN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'mcp-protocol-version' },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-allow-methods')).toContain('GET');
    expect(r.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('mcp-protocol-version');
  });

  it('still refuses a foreign origin everywhere else, and anything but a read of the metadata', async () => {
    const tools = await send('/tools/tools', { token: h.token, headers: FOREIGN });
    expect(tools.status).toBe(403);
    expect(tools.headers.get('access-control-allow-origin')).toBeNull();
    const mcp = await send('/mcp', { method: 'OPTIONS', headers: { ...FOREIGN, 'access-control-request-method': 'POST' } });
    expect(mcp.status).toBe(403);
    expect(mcp.headers.get('access-control-allow-origin')).toBeNull();
    const post = await send('/.well-known/oauth-protected-resource/mcp', { method: 'POST', headers: FOREIGN, body: {} });
    expect(post.status).toBe(403);
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe("the issuer's keys out of reach", () => {
  it('answers 503 (not 401, and not counted toward the lockout) when a token names a key the host must fetch and the issuer is down', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    // jose refetches the key set for an unknown kid only 30 s after its last fetch: move the clock (Date only) past that.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 });
    try {
      const now = Math.floor(Date.now() / 1000);
      const rotated = await new SignJWT({ scope: 'toolwright:read', client_id: AGENT.clientId })
        .setProtectedHeader({ alg: 'RS256', kid: 'rotated-key' })
        .setIssuer(as.issuer)
        .setAudience(`${h.url}/mcp`)
        .setSubject(AGENT.clientId)
        .setIssuedAt(now)
        .setExpirationTime(now + 300)
        .sign(privateKey);
      await as.close();
      for (let i = 0; i < 21; i++) {
        const r = await send('/tools/tools', { token: rotated });
        expect(r.status, JSON.stringify(r.body)).toBe(503);
        expect(r.body.error.message).toMatch(/keys could not be fetched/);
      }
    } finally {
      vi.useRealTimers();
    }
  }, 60_000);
});
