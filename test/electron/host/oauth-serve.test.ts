/**
 * `serve --oauth-issuer` (and TOOLWRIGHT_OAUTH_ISSUER, as the container image sets it): the host
 * reads the authorization server's metadata and keys at start, refuses to start with a clear
 * message when it cannot, and serves its protected resource metadata once started. Real
 * processes, a real oidc-provider on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, spawnTs } from '../../helpers/procs.js';
import { tempDir } from '../../helpers/store.js';
import { startOAuthServer, type OAuthServer } from '../../helpers/oauth-server.js';

let as: OAuthServer;

beforeAll(async () => {
  as = await startOAuthServer({ resources: () => [], scope: 'toolwright:call' });
});
afterAll(() => as?.close());

describe('serve with an authorization server', () => {
  it('refuses to start when the issuer cannot be read, saying which and why', async () => {
    const child = spawnTs('electron/host/serve.ts', ['--data-dir', await tempDir('tw-oauth-serve-'), '--port', '0', '--oauth-issuer', 'http://127.0.0.1:9']);
    const done = await collect(child).done;
    expect(done.code).toBe(2);
    expect(done.stderr).toMatch(/cannot read the authorization server's metadata \(http:\/\/127\.0\.0\.1:9\/\.well-known\/oauth-authorization-server/);
  }, 60_000);

  it('refuses an audience that is not a URL', async () => {
    const child = spawnTs('electron/host/serve.ts', [
      '--data-dir',
      await tempDir('tw-oauth-serve-'),
      '--port',
      '0',
      '--oauth-issuer',
      as.issuer,
      '--oauth-audience',
      'mcp',
    ]);
    const done = await collect(child).done;
    expect(done.code).toBe(2);
    expect(done.stderr).toMatch(/--oauth-audience 'mcp' is not an http\(s\) URL/);
  }, 60_000);

  it('takes the issuer from TOOLWRIGHT_OAUTH_ISSUER, says so, and serves the metadata naming it', async () => {
    const child = spawnTs('electron/host/serve.ts', ['--data-dir', await tempDir('tw-oauth-serve-'), '--port', '0'], {
      TOOLWRIGHT_TOKEN: 'team-token',
      TOOLWRIGHT_OAUTH_ISSUER: as.issuer,
    });
    const run = collect(child);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await expect.poll(() => out, { timeout: 30_000 }).toMatch(/^MCP: /m);
      const url = /listening on (\S+)/.exec(out)![1]!;
      expect(out).toContain(`OAuth: access tokens from ${as.issuer} for ${url}/mcp`);
      const res = await fetch(`${url}/.well-known/oauth-protected-resource/mcp`);
      expect(await res.json()).toMatchObject({ resource: `${url}/mcp`, authorization_servers: [as.issuer] });
    } finally {
      child.kill('SIGTERM');
      await run.done;
    }
  }, 60_000);
});
