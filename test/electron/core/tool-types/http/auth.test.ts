/** HMAC signing and OAuth2 client credentials of the http runner, against a real loopback server. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createHttpRunner, type HttpRunner } from '../../../../../electron/core/tool-types/http/runner.js';
import type { HttpImpl } from '../../../../../shared/schemas.js';
import { sendJson, startLoopbackServer, type LoopbackServer, type RecordedRequest } from '../../../../helpers/loopback-http.js';
import { httpTool, MemorySecrets, runContext, runFailure, testConfig } from '../../../../helpers/http-tools.js';

let srv: LoopbackServer;
const runners: HttpRunner[] = [];
function makeRunner(): HttpRunner {
  const r = createHttpRunner({ sleep: async () => undefined });
  runners.push(r);
  return r;
}

beforeAll(async () => {
  srv = await startLoopbackServer();
});
afterAll(async () => {
  await Promise.all(runners.map((r) => r.close()));
  await srv.close();
});
beforeEach(() => {
  srv.requests.length = 0;
});

describe('HMAC request signing', () => {
  const key = 'hmac-signing-key-0123456789';

  function verify(req: RecordedRequest, algorithm: 'sha256' | 'sha512', header: string, tsHeader: string, prefix = ''): boolean {
    const ts = String(req.headers[tsHeader]);
    const sent = String(req.headers[header]);
    if (!sent.startsWith(prefix)) return false;
    const expected = createHmac(algorithm, key).update(`${ts}\n${req.method}\n${req.url}\n${req.body}`).digest('hex');
    return /^\d+$/.test(ts) && timingSafeEqual(Buffer.from(sent.slice(prefix.length)), Buffer.from(expected));
  }

  it('signs timestamp, method, path+query and body with the secret (defaults: sha256, X-Signature, X-Timestamp)', async () => {
    const r = makeRunner();
    srv.route('/signed', (req, res) =>
      verify(req, 'sha256', 'x-signature', 'x-timestamp') ? sendJson(res, 200, { verified: true }) : sendJson(res, 401, { error: 'bad signature' }),
    );
    const tool = httpTool(
      {
        method: 'POST',
        urlTemplate: `http://127.0.0.1:${srv.port}/signed?q=\${q}`,
        bodyTemplate: '{"note": "${q}"}',
        auth: { type: 'hmac', secret: 'SIGNING_KEY' },
      },
      { args: { q: {} } },
    );
    const out = await r.run(runContext(tool, { q: 'a b/ü' }, { secrets: new MemorySecrets({ SIGNING_KEY: key }) }));
    expect(out.value).toEqual({ verified: true });
    expect(JSON.stringify(out)).not.toContain(key);
  });

  it('uses the configured algorithm, headers and prefix, and re-signs each redirect hop', async () => {
    const r = makeRunner();
    srv.route('/signed-start', (req, res) =>
      verify(req, 'sha512', 'x-sig', 'x-ts', 'v1=') ? void res.writeHead(307, { location: '/signed-end?page=2' }).end() : sendJson(res, 401, {}),
    );
    srv.route('/signed-end', (req, res) =>
      verify(req, 'sha512', 'x-sig', 'x-ts', 'v1=') ? sendJson(res, 200, { hop: 2 }) : sendJson(res, 401, { error: 'hop 2 not signed' }),
    );
    const tool = httpTool({
      urlTemplate: `http://127.0.0.1:${srv.port}/signed-start`,
      auth: { type: 'hmac', secret: 'SIGNING_KEY', algorithm: 'sha512', header: 'X-Sig', timestampHeader: 'X-Ts', prefix: 'v1=' },
    });
    const out = await r.run(runContext(tool, {}, { secrets: new MemorySecrets({ SIGNING_KEY: key }) }));
    expect(out.value).toEqual({ hop: 2 });
    expect(srv.requests.map((q) => q.url)).toEqual(['/signed-start', '/signed-end?page=2']);
  });

  it('a wrong key is caught by the server (the test can fail)', async () => {
    const r = makeRunner();
    srv.route('/signed-strict', (req, res) =>
      verify(req, 'sha256', 'x-signature', 'x-timestamp') ? sendJson(res, 200, {}) : sendJson(res, 401, { error: 'bad signature' }),
    );
    const tool = httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/signed-strict`, auth: { type: 'hmac', secret: 'SIGNING_KEY' } });
    const err = await runFailure(r, runContext(tool, {}, { secrets: new MemorySecrets({ SIGNING_KEY: 'not-the-key' }) }));
    expect(err.code).toBe('UPSTREAM_ERROR');
    expect(err.details!['status']).toBe(401);
  });
});

describe('OAuth2 client credentials', () => {
  const CLIENT_ID = 'client id:1';
  const CLIENT_SECRET = 'cl1ent-s3cret+/=';
  const secrets = () => new MemorySecrets({ CLIENT_ID, CLIENT_SECRET });
  let issued: string[];
  let tokenCalls: RecordedRequest[];
  let expiresIn: number;
  let revoked: Set<string>;

  beforeEach(() => {
    issued = [];
    tokenCalls = [];
    expiresIn = 3600;
    revoked = new Set();
    srv.route('/token', async (req, res) => {
      tokenCalls.push(req);
      const basic = Buffer.from(String(req.headers.authorization).replace(/^Basic /, ''), 'base64').toString();
      const [id, secret] = basic.split(':').map((s) => decodeURIComponent(s.replace(/\+/g, ' ')));
      const form = new URLSearchParams(req.body);
      if (id !== CLIENT_ID || secret !== CLIENT_SECRET || form.get('grant_type') !== 'client_credentials') {
        return sendJson(res, 401, { error: 'invalid_client', echo: secret });
      }
      await new Promise((r) => setTimeout(r, 20)); // widen the window for concurrent callers
      const token = `tok-${issued.length + 1}-${form.get('scope') ?? ''}`;
      issued.push(token);
      sendJson(res, 200, { access_token: token, token_type: 'bearer', expires_in: expiresIn });
    });
    srv.route('/api', (req, res) => {
      const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!issued.includes(token) || revoked.has(token)) return sendJson(res, 401, { error: 'invalid_token' });
      sendJson(res, 200, { token });
    });
  });

  const oauthTool = (over: Partial<HttpImpl> = {}) =>
    httpTool({
      urlTemplate: `http://127.0.0.1:${srv.port}/api`,
      auth: {
        type: 'oauth2ClientCredentials',
        tokenUrl: `http://127.0.0.1:${srv.port}/token`,
        clientIdSecret: 'CLIENT_ID',
        clientSecretSecret: 'CLIENT_SECRET',
        scope: 'read',
      },
      ...over,
    });

  it('fetches a token with client credentials, sends it as Bearer, and caches it', async () => {
    const r = makeRunner();
    const first = await r.run(runContext(oauthTool(), {}, { secrets: secrets() }));
    const second = await r.run(runContext(oauthTool(), {}, { secrets: secrets() }));
    expect(first.value).toEqual({ token: '[redacted]' }); // an access token is a credential too
    expect(second.value).toEqual({ token: '[redacted]' });
    expect(tokenCalls).toHaveLength(1);
    expect(new URLSearchParams(tokenCalls[0]!.body).get('scope')).toBe('read');
    expect(srv.hits('/api')).toBe(2);
    expect(first.http!.request.headers['authorization']).toBe('Bearer [redacted]');
    const serialized = JSON.stringify([first, second]);
    for (const leaked of [CLIENT_SECRET, issued[0]!]) expect(serialized).not.toContain(leaked);
  });

  it('shares one in-flight token request among concurrent callers', async () => {
    const r = makeRunner();
    const outs = await Promise.all(Array.from({ length: 8 }, () => r.run(runContext(oauthTool(), {}, { secrets: secrets() }))));
    expect(outs).toHaveLength(8);
    expect(tokenCalls).toHaveLength(1);
    expect(srv.hits('/api')).toBe(8);
  });

  it('caches per scope', async () => {
    const r = makeRunner();
    await r.run(runContext(oauthTool(), {}, { secrets: secrets() }));
    const writeTool = oauthTool({
      auth: {
        type: 'oauth2ClientCredentials',
        tokenUrl: `http://127.0.0.1:${srv.port}/token`,
        clientIdSecret: 'CLIENT_ID',
        clientSecretSecret: 'CLIENT_SECRET',
        scope: 'write',
      },
    });
    await r.run(runContext(writeTool, {}, { secrets: secrets() }));
    await r.run(runContext(writeTool, {}, { secrets: secrets() }));
    expect(issued).toEqual(['tok-1-read', 'tok-2-write']);
  });

  it('refreshes a token that is about to expire', async () => {
    const r = makeRunner();
    expiresIn = 1; // refreshed half-way through a lifetime this short
    await r.run(runContext(oauthTool(), {}, { secrets: secrets() }));
    await new Promise((res) => setTimeout(res, 700));
    await r.run(runContext(oauthTool(), {}, { secrets: secrets() }));
    expect(tokenCalls).toHaveLength(2);
  });

  it('a 401 from the API triggers one token refresh and one retry', async () => {
    const r = makeRunner();
    await r.run(runContext(oauthTool(), {}, { secrets: secrets() }));
    revoked.add(issued[0]!);
    const out = await r.run(runContext(oauthTool(), {}, { secrets: secrets() }));
    expect(out.value).toEqual({ token: '[redacted]' });
    expect(tokenCalls).toHaveLength(2);
    expect(srv.hits('/api')).toBe(3);
  });

  it('gives up after that one refresh when the API keeps answering 401', async () => {
    const r = makeRunner();
    srv.route('/api-never', (_q, res) => sendJson(res, 401, { error: 'invalid_token' }));
    const err = await runFailure(r, runContext(oauthTool({ urlTemplate: `http://127.0.0.1:${srv.port}/api-never` }), {}, { secrets: secrets() }));
    expect(err.code).toBe('UPSTREAM_ERROR');
    expect(err.details!['status']).toBe(401);
    expect(tokenCalls).toHaveLength(2);
    expect(srv.hits('/api-never')).toBe(2);
  });

  it('reports a rejected client without leaking the client secret', async () => {
    const r = makeRunner();
    const err = await runFailure(r, runContext(oauthTool(), {}, { secrets: new MemorySecrets({ CLIENT_ID, CLIENT_SECRET: 'wrong-secret-value' }) }));
    expect(err.code).toBe('UPSTREAM_ERROR');
    expect(err.message).toContain('token endpoint');
    expect(err.message).toContain('401');
    expect(JSON.stringify([err.message, err.details])).not.toContain('wrong-secret-value');
    expect(srv.hits('/api')).toBe(0);
  });

  it('applies the host rules to tokenUrl', async () => {
    const r = makeRunner();
    const tool = oauthTool({
      auth: {
        type: 'oauth2ClientCredentials',
        tokenUrl: `http://localhost:${srv.port}/token`,
        clientIdSecret: 'CLIENT_ID',
        clientSecretSecret: 'CLIENT_SECRET',
      },
    });
    const notListed = await runFailure(r, runContext(tool, {}, { secrets: secrets(), config: testConfig({ allowedHosts: ['127.0.0.1'] }) }));
    expect(notListed.code).toBe('FORBIDDEN');
    expect(notListed.message).toContain('localhost');
    const privateOff = await runFailure(r, runContext(tool, {}, { secrets: secrets(), config: testConfig({ allowPrivateNetwork: false }) }));
    expect(privateOff.code).toBe('FORBIDDEN');
    expect(tokenCalls).toHaveLength(0);
  });

  it('an unset client secret is TOOL_UNAVAILABLE', async () => {
    const r = makeRunner();
    const err = await runFailure(r, runContext(oauthTool(), {}, { secrets: new MemorySecrets({ CLIENT_ID }) }));
    expect(err.code).toBe('TOOL_UNAVAILABLE');
    expect(err.message).toContain('CLIENT_SECRET');
  });
});
