/**
 * `toolwright authorize <bundle>`: the headless sign-in to a remote MCP server behind OAuth. The
 * CLI prints the link and waits; the test opens it as the browser would (against a real
 * authorization server on loopback); the redirect reaches the CLI's own listener, which finishes
 * the flow, and the CLI says it is signed in. A later `sync` in a new process uses the stored tokens.
 * `add-server --url` adds such a server although its probe meets 401. A server whose
 * authorization server allows no registration is signed in to as a client registered ahead
 * (`add-server --client-id … --client-secret`, the secret read from stdin).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../../../helpers/store.js';
import { runToolwright } from '../../../helpers/procs.js';
import { startOAuthServer, startProtectedMcpServer, type OAuthServer, type ProtectedMcpServer } from '../../../helpers/oauth-server.js';

let dataDir: string;
let as: OAuthServer;
let mcp: ProtectedMcpServer;
/** An authorization server that registers no one: only the client registered ahead signs in. */
let closedAs: OAuthServer;
let closedMcp: ProtectedMcpServer;
const PREREGISTERED = { client_id: 'toolwright-at-acme', client_secret: 'pre-registered-s3cret-value' };

const tw = (args: string[], onStdout?: (text: string) => void) => runToolwright(dataDir, args, { onStdout });

beforeAll(async () => {
  let issuer = '';
  mcp = await startProtectedMcpServer({ issuer: () => issuer });
  as = await startOAuthServer({ resources: () => [mcp.url] });
  issuer = as.issuer;
  let closedIssuer = '';
  closedMcp = await startProtectedMcpServer({ issuer: () => closedIssuer });
  closedAs = await startOAuthServer({
    resources: () => [closedMcp.url],
    registration: false,
    clients: [
      {
        ...PREREGISTERED,
        application_type: 'native',
        redirect_uris: ['http://127.0.0.1/callback'],
        response_types: ['code'],
        grant_types: ['authorization_code', 'refresh_token'],
      },
    ],
  });
  closedIssuer = closedAs.issuer;
  dataDir = await tempDir('tw-cli-authorize-');
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await as?.close();
  await closedMcp?.close();
  await closedAs?.close();
});

describe('toolwright authorize', () => {
  it('add-server --url adds a server that answers 401, and says to sign in instead of failing the probe', async () => {
    const added = await tw(['add-server', 'remote', '--url', mcp.url]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('added remote: the server needs you to sign in before it lists its tools; run `toolwright authorize remote`');
  }, 60_000);

  it('a sync before signing in is refused, saying to run authorize', async () => {
    const r = await tw(['sync', 'remote']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('toolwright authorize remote');
  });

  it('prints the link, waits for the browser, and is signed in; the next process syncs with the stored tokens', async () => {
    let signIn: Promise<{ status: number; body: string }> | undefined;
    const r = await tw(['authorize', 'remote'], (out) => {
      const link = /(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)/.exec(out)?.[1];
      if (link && !signIn) signIn = as.signIn(link);
    });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect((await signIn)?.body).toMatch(/signed in/i);
    expect(r.stdout).toContain('signed in to remote (protected-echo 1.0.0)');
    const sync = await tw(['sync', 'remote']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toContain('+ whoami-echo');
  }, 90_000);
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('a client registered ahead, where the authorization server allows no registration', () => {
  it('add-server takes --client-id and reads --client-secret from stdin into the secrets store, never into a file', async () => {
    const added = await runToolwright(dataDir, ['add-server', 'closed', '--url', closedMcp.url, '--client-id', PREREGISTERED.client_id, '--client-secret'], {
      input: `${PREREGISTERED.client_secret}\n`,
    });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('run `toolwright authorize closed`');
    const files = await filesUnder(dataDir);
    for (const file of files) expect(await readFile(file, 'utf8').catch(() => ''), file).not.toContain(PREREGISTERED.client_secret);
    const bundleFiles = await Promise.all(files.filter((f) => f.endsWith('bundle.json')).map(async (f) => JSON.parse(await readFile(f, 'utf8'))));
    const closed = bundleFiles.find((b: { slug?: string }) => b.slug === 'closed') as { source?: { auth?: unknown } } | undefined;
    expect(closed?.source?.auth).toEqual({ kind: 'oauth', clientId: PREREGISTERED.client_id, clientSecret: '${CLOSED_OAUTH_CLIENT_SECRET}' });
    const secrets = await tw(['secrets', 'ls']);
    expect(secrets.stdout).toContain('CLOSED_OAUTH_CLIENT_SECRET');
  }, 60_000);

  it('signs in as that client (its secret sent to the token endpoint), then syncs and runs', async () => {
    let signIn: Promise<{ status: number; body: string }> | undefined;
    const r = await tw(['authorize', 'closed'], (out) => {
      const link = /(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)/.exec(out)?.[1];
      if (link && !signIn) signIn = closedAs.signIn(link);
    });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const link = /(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)/.exec(r.stdout)![1]!;
    expect(new URL(link).searchParams.get('client_id')).toBe(PREREGISTERED.client_id);
    expect((await signIn)?.body).toMatch(/signed in/i);
    const sync = await tw(['sync', 'closed']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toContain('+ whoami-echo');
    expect((await tw(['enable', 'closed/whoami-echo'])).code).toBe(0);
    const run = await tw(['run', 'closed/whoami-echo', '--args', '{"message":"hi"}']);
    expect(run.code, run.stderr).toBe(0);
    expect(closedMcp.calls).toEqual([{ subject: 'alice', message: 'hi' }]);
  }, 90_000);
});
