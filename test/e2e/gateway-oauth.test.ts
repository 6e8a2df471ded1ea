/**
 * Signing in to a remote MCP server behind OAuth, in Chromium against `npm run serve`: a sync
 * meets 401, the server panel says the server needs signing in and offers "Sign in to <server>";
 * the button opens the authorization server's page in a new tab (the browser build; the desktop
 * app sends the same link to the system browser), whose test login consents at once and
 * redirects to the host's loopback listener; the panel then shows the server ready. The
 * authorization server is a real one on loopback (oidc-provider), the MCP server checks its JWTs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import type { Page } from 'playwright-core';
import { api, chromiumAvailable, type Host } from './harness.js';
import { openAppSession, type AppSession } from './fixture.js';
import { shoot } from './shots.js';
import { axeInBothSchemes } from './axe.js';
import { startOAuthServer, startProtectedMcpServer, type OAuthServer, type ProtectedMcpServer } from '../helpers/oauth-server.js';

let app: AppSession;
let host: Host;
let page: Page;
let problems: string[];
let as: OAuthServer;
let mcp: ProtectedMcpServer;
const bundleID = uuidv7();

describe.skipIf(!chromiumAvailable())('signing in to a remote MCP server in Chromium', () => {
  beforeAll(async () => {
    let issuer = '';
    mcp = await startProtectedMcpServer({ issuer: () => issuer });
    as = await startOAuthServer({ resources: () => [mcp.url] });
    issuer = as.issuer;
    app = await openAppSession();
    ({ host, page, problems } = app);
    await api(host, 'bundles.put', {
      bundleID,
      bundle: { slug: 'remote', displayName: 'Remote echo', source: { kind: 'mcp', transport: 'http', url: mcp.url, auth: { kind: 'oauth' } } },
    });
  });

  afterAll(async () => {
    await app?.close();
    await mcp?.close();
    await as?.close();
  });

  it('a sync that meets 401 shows "Sign in to <server>" with the reason', async () => {
    await page.goto(`${host.url}/#/bundle/${bundleID}`);
    await page.getByTestId('server-panel').waitFor();
    await expect(api(host, 'servers.sync', { bundleID })).rejects.toThrow();
    await expect.poll(() => page.getByTestId('server-state').textContent()).toBe('needs-authorization');
    expect(await page.getByTestId('server-signin-button').textContent()).toBe('Sign in to Remote echo');
    expect(await page.getByTestId('server-signin-reason').textContent()).toMatch(/sign in/i);
    await shoot(page, 'gateway-oauth-sign-in');
    expect(await axeInBothSchemes(page)).toEqual([]);
  });

  it('the button opens the sign-in page in a new tab; after the redirect the panel shows the server ready', async () => {
    const popup = page.waitForEvent('popup');
    await page.getByTestId('server-signin-button').click();
    const tab = await popup;
    await tab.waitForURL(/127\.0\.0\.1:\d+\/callback/, { timeout: 30_000 });
    expect(await tab.textContent('h1')).toBe('Signed in');
    await tab.close();
    await expect.poll(() => page.getByTestId('server-state').textContent(), { timeout: 30_000 }).toBe('ready');
    expect(await page.getByTestId('server-info').textContent()).toMatch(/protected-echo 1\.0\.0/);
    await expect(page.getByTestId('server-signin').count()).resolves.toBe(0);
    expect(problems).toEqual([]);
  });
});
