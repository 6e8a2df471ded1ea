/**
 * The team host as a container image: the repository's Dockerfile, unchanged, built on a local
 * stand-in for the official Node image (no registry is reachable here), then run as a team would —
 * TLS, the data folder a volume — and reached in the browser's way (the UI), over REST and over
 * MCP. Its data and token survive a new container on the same volume.
 */
import { execFile as execFileCb, execFileSync } from 'node:child_process';
import { chmodSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { Agent, fetch as undiciFetch } from 'undici';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthServer } from '../helpers/oauth-server.js';
import type { AuditRecord } from '../../shared/audit.js';

const execFile = promisify(execFileCb);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BASE = 'node:24-bookworm-slim';
const suffix = Math.random().toString(36).slice(2, 8);
const IMAGE = `toolwright-team-test:${suffix}`;
const VOLUME = `toolwright-team-test-${suffix}`;
const NAME = `toolwright-team-test-${suffix}`;

function has(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const AGENT = { clientId: 'build-agent', secret: 'agent-secret-0123456789' };
const READER = { clientId: 'dashboard', secret: 'reader-secret-0123456789' };

const ready = has('docker', ['info']) && has('debootstrap', ['--version']);

async function docker(args: string[], timeoutMs = 120_000): Promise<string> {
  const { stdout } = await execFile('docker', args, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

async function step(cmd: string, args: string[], timeoutMs: number): Promise<void> {
  try {
    await execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 });
  } catch (e) {
    const { stdout = '', stderr = '' } = e as { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(' ')} failed: ${(e as Error).message}\n${stdout.slice(-4000)}\n${stderr.slice(-4000)}`);
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

let tlsDir: string;
let port: number;
let origin: string;
let trusting: Agent;
let authorizationServer: OAuthServer | undefined;

/** Runs the image as the README says; `env` adds variables (`NAME=value`) to the run line. */
async function runContainer(env: string[] = []): Promise<void> {
  await docker([
    'run',
    '-d',
    '--name',
    NAME,
    '-p',
    `127.0.0.1:${port}:7420`,
    '-v',
    `${VOLUME}:/data`,
    '-v',
    `${tlsDir}:/tls:ro`,
    '-e',
    'TOOLWRIGHT_TLS_CERT=/tls/cert.pem',
    '-e',
    'TOOLWRIGHT_TLS_KEY=/tls/key.pem',
    '-e',
    `TOOLWRIGHT_PUBLIC_URL=${origin}`,
    ...env.flatMap((e) => ['-e', e]),
    IMAGE,
  ]);
}

async function health(): Promise<number> {
  try {
    return (await undiciFetch(`${origin}/healthz`, { dispatcher: trusting })).status;
  } catch {
    return 0;
  }
}

/** The container's output: `docker logs` gives the host's stdout on stdout and its stderr on stderr. */
async function logs(): Promise<string> {
  try {
    const { stdout, stderr } = await execFile('docker', ['logs', NAME], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
    return stdout + stderr;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Waits for /healthz; a host that never answers (e.g. it refused to start) fails with its own words. */
async function answered(what: string): Promise<void> {
  try {
    await expect.poll(health, { timeout: 180_000 }).toBe(200);
  } catch {
    throw new Error(`${what} never answered /healthz; its log ends:\n${(await logs()).slice(-3000)}`);
  }
}

describe.skipIf(!ready)('the team host image', () => {
  beforeAll(async () => {
    // Their output goes to a log, shown when a step fails (streamed, it starved Vitest's worker of its RPC).
    await step('bash', [join(ROOT, 'test/image/node-stand-in.sh'), BASE], 20 * 60_000);
    await step('docker', ['build', '-t', IMAGE, ROOT], 25 * 60_000);
    tlsDir = await mkdtemp(join(tmpdir(), 'tw-team-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(tlsDir, 'key.pem'),
        '-out',
        join(tlsDir, 'cert.pem'),
      ].concat(['-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1']),
      { stdio: 'ignore' },
    );
    // The host runs as the image's unprivileged user, which must be able to read what is mounted.
    chmodSync(tlsDir, 0o755);
    chmodSync(join(tlsDir, 'key.pem'), 0o644);
    port = await freePort();
    origin = `https://127.0.0.1:${port}`;
    trusting = new Agent({ connect: { ca: readFileSync(join(tlsDir, 'cert.pem')) } });
    await docker(['volume', 'create', VOLUME]);
  });

  afterAll(async () => {
    await docker(['rm', '-f', NAME]).catch(() => undefined);
    await docker(['volume', 'rm', '-f', VOLUME]).catch(() => undefined);
    await docker(['rmi', '-f', IMAGE]).catch(() => undefined);
    await trusting?.close();
    await authorizationServer?.close();
  });

  it('is built on the official Node image, runs as an unprivileged user, and declares its volume and health check', async () => {
    const [config] = JSON.parse(await docker(['image', 'inspect', IMAGE])) as { Config: Record<string, unknown> }[];
    expect(config!.Config['User']).toBe('node');
    expect(Object.keys(config!.Config['Volumes'] as object)).toEqual(['/data']);
    expect((config!.Config['Healthcheck'] as { Test: string[] }).Test).toEqual(['CMD', 'node', 'bin/healthcheck.js']);
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-bookworm-slim$/m);
    // The code of the image holds no test, no renderer sources, no dev tools.
    const listing = await docker([
      'run',
      '--rm',
      '--entrypoint',
      'sh',
      IMAGE,
      '-c',
      'ls /app; ls /app/node_modules | grep -cx -e vitest -e electron -e vite || true',
    ]);
    expect(listing.split('\n')).toEqual(expect.arrayContaining(['bin', 'electron', 'shared', 'out', 'node_modules']));
    expect(listing).not.toMatch(/^(test|renderer)$/m);
    expect(listing.split('\n').at(-1)).toBe('0');
  });

  it('serves the UI, REST and MCP over TLS; its data and token survive a new container on the same volume', async () => {
    await runContainer();
    await expect.poll(health, { timeout: 180_000, message: 'the host never answered /healthz' }).toBe(200);
    expect(await docker(['exec', NAME, 'id', '-un'])).toBe('node');
    const token = await docker(['exec', NAME, 'cat', '/data/host.token']);
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(await logs()).not.toContain(token);

    const ui = await undiciFetch(`${origin}/`, { dispatcher: trusting });
    expect(ui.status).toBe(200);
    expect(await ui.text()).toMatch(/<div id="root">/);

    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const bundleID = uuidv7();
    const put = await undiciFetch(`${origin}/tools/bundles/${bundleID}`, {
      method: 'PUT',
      headers: auth,
      body: JSON.stringify({ slug: 'team', displayName: 'Team tools', isEnabled: true }),
      dispatcher: trusting,
    });
    expect(put.status).toBe(201);
    expect((await undiciFetch(`${origin}/tools/bundles`, { dispatcher: trusting })).status).toBe(401);

    const client = new Client({ name: 'team-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      fetch: ((url: string | URL, init?: RequestInit) => undiciFetch(url, { ...(init as object), dispatcher: trusting })) as unknown as typeof fetch,
    });
    await client.connect(transport);
    const listed = await client.listTools();
    expect(Array.isArray(listed.tools)).toBe(true);
    await client.close();

    // The health check Docker runs reports healthy too.
    await expect
      .poll(async () => JSON.parse(await docker(['inspect', '--format', '{{json .State.Health.Status}}', NAME])) as string, { timeout: 150_000 })
      .toBe('healthy');

    // A new container on the same volume: same data, same token.
    await docker(['rm', '-f', NAME]);
    await runContainer();
    await expect.poll(health, { timeout: 180_000, message: 'the second container never answered' }).toBe(200);
    expect(await docker(['exec', NAME, 'cat', '/data/host.token'])).toBe(token);
    const bundles = (await (await undiciFetch(`${origin}/tools/bundles`, { headers: auth, dispatcher: trusting })).json()) as { items: { slug: string }[] };
    expect(bundles.items.map((b) => b.slug)).toContain('team');
  });

  it('takes OAuth tokens from the team authorization server on /mcp, and the call lands in the audit log with its caller', async () => {
    // The container reaches the machine at the default bridge's gateway: the authorization server
    // listens there (not on every interface) and names that address in its issuer, so the host and
    // this test see one issuer. Plain http is fine for a test; the host accepts http(s) issuers.
    const gateway = await bridgeGateway();
    expect(gateway).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const resource = `${origin}/mcp`;
    const as = await startOAuthServer({
      host: gateway,
      resources: () => [resource],
      scope: 'toolwright:read toolwright:call',
      clients: [
        { client_id: AGENT.clientId, client_secret: AGENT.secret, grant_types: ['client_credentials'], scope: 'toolwright:call' },
        { client_id: READER.clientId, client_secret: READER.secret, grant_types: ['client_credentials'], scope: 'toolwright:read' },
      ],
    });
    authorizationServer = as;

    // As the README's run line: the issuer in the environment; the audience is the public URL + /mcp.
    await docker(['rm', '-f', NAME]).catch(() => undefined);
    await runContainer([`TOOLWRIGHT_OAUTH_ISSUER=${as.issuer}`]);
    await answered('the host with an OAuth issuer');

    const hostToken = await docker(['exec', NAME, 'cat', '/data/host.token']);
    const auth = { authorization: `Bearer ${hostToken}`, 'content-type': 'application/json' };
    const bundleID = uuidv7();
    const putBundle = await undiciFetch(`${origin}/tools/bundles/${bundleID}`, {
      method: 'PUT',
      headers: auth,
      body: JSON.stringify({ slug: 'oauth-tools', displayName: 'OAuth tools', isEnabled: true }),
      dispatcher: trusting,
    });
    expect(putBundle.status).toBe(201);
    const putTool = await undiciFetch(`${origin}/tools/bundles/${bundleID}/tools/calc/version/v1`, {
      method: 'PUT',
      headers: auth,
      body: JSON.stringify({
        type: 'function',
        displayName: 'Calc',
        description: 'arithmetic',
        impl: { function: 'core.calc' },
        argSchema: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
      }),
      dispatcher: trusting,
    });
    expect(putTool.status).toBe(201);

    // No token: 401, and the challenge points at the public URL's metadata, which names the issuer.
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      undiciFetch(resource, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(initialize),
        dispatcher: trusting,
      });
    const anonymous = await post({});
    expect(anonymous.status).toBe(401);
    const metadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`;
    expect(anonymous.headers.get('www-authenticate')).toContain(`resource_metadata="${metadataUrl}"`);
    const metadata = (await (await undiciFetch(metadataUrl, { dispatcher: trusting })).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ resource, authorization_servers: [as.issuer] });

    // A real token without toolwright:call: 403 insufficient_scope.
    const readerToken = await as.clientCredentialsToken(READER, resource, 'toolwright:read');
    const reader = await post({ authorization: `Bearer ${readerToken}` });
    expect(reader.status).toBe(403);
    expect(reader.headers.get('www-authenticate')).toMatch(/error="insufficient_scope".*scope="[^"]*toolwright:call/);

    // A real token with toolwright:call: the MCP client lists and calls the tool.
    const token = await as.clientCredentialsToken(AGENT, resource, 'toolwright:call');
    const client = new Client({ name: 'team-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(resource), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
        fetch: ((url: string | URL, init?: RequestInit) => undiciFetch(url, { ...(init as object), dispatcher: trusting })) as unknown as typeof fetch,
      }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('oauth-tools_calc');
      const result = (await client.callTool({ name: 'oauth-tools_calc', arguments: { expression: '6*7' } })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      expect(JSON.stringify(result.content)).toContain('42');
    } finally {
      await client.close();
    }

    // The image's CLI on the same volume: the chain is whole, and the call names its OAuth caller.
    const caller = `mcp:team-agent@oauth:${AGENT.clientId}`;
    const exported = async () =>
      (await docker(['exec', NAME, 'node', 'bin/toolwright.js', '--data-dir', '/data', 'audit', 'export', '--kind', 'call']))
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as AuditRecord);
    await expect
      .poll(async () => (await exported()).filter((r) => r.kind === 'call' && r.caller === caller).map((r) => r.kind === 'call' && [r.slug, r.status]), {
        timeout: 30_000,
      })
      .toEqual([['calc', 'ok']]);
    const verified = JSON.parse(await docker(['exec', NAME, 'node', 'bin/toolwright.js', '--data-dir', '/data', '--json', 'audit', 'verify'])) as {
      ok: boolean;
      records: number;
      summary: string;
    };
    expect(verified.ok).toBe(true);
    expect(verified.summary).toContain('chain intact');
    expect(verified.records).toBeGreaterThan(0);
  });
});

/**
 * The default bridge's gateway address. Newer engines name it in the network's IPAM config;
 * Debian's docker.io 20.10 leaves that empty for the default bridge, where the address is the one
 * on the bridge's own interface (docker0 unless the engine was told otherwise).
 */
async function bridgeGateway(): Promise<string> {
  const named = await docker(['network', 'inspect', 'bridge', '--format', '{{range .IPAM.Config}}{{.Gateway}}{{end}}']);
  if (named) return named;
  const bridgeName = (await docker(['network', 'inspect', 'bridge', '--format', '{{index .Options "com.docker.network.bridge.name"}}'])) || 'docker0';
  return networkInterfaces()[bridgeName]?.find((address) => address.family === 'IPv4')?.address ?? '';
}
