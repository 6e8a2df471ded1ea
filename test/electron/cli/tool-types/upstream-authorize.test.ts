/**
 * `toolwright authorize <bundle>`: the headless sign-in to a remote MCP server behind OAuth. The
 * CLI prints the link and waits; the test opens it as the browser would (against a real
 * authorization server on loopback); the redirect reaches the CLI's own listener, which finishes
 * the flow, and the CLI says it is signed in. A later `sync` in a new process uses the stored tokens.
 * `add-server --url` adds such a server although its probe meets 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../helpers/store.js';
import { runToolwright } from '../../../helpers/procs.js';
import { startOAuthServer, startProtectedMcpServer, type OAuthServer, type ProtectedMcpServer } from '../../../helpers/oauth-server.js';

let dataDir: string;
let as: OAuthServer;
let mcp: ProtectedMcpServer;

const tw = (args: string[], onStdout?: (text: string) => void) => runToolwright(dataDir, args, { onStdout });

beforeAll(async () => {
  let issuer = '';
  mcp = await startProtectedMcpServer({ issuer: () => issuer });
  as = await startOAuthServer({ resources: () => [mcp.url] });
  issuer = as.issuer;
  dataDir = await tempDir('tw-cli-authorize-');
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await as?.close();
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
