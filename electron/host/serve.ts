/**
 * `npm run serve -- [--data-dir DIR] [--port N]`: the headless host. Serves the built renderer
 * and the REST API on 127.0.0.1 only, behind a bearer token (TOOLWRIGHT_TOKEN, or a random one
 * printed at start). Shares the desktop app's data directory unless told otherwise.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promises as fsp } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createCore, defaultDataDir } from '../core/app-core.js';
import type { SchedulerOptions } from '../core/schedules/scheduler.js';
import { createHttpHost } from './http-host.js';
import { ensureRendererBuilt } from './renderer-build.js';
import { AgentAccess, followAgentAccess } from './agent-access.js';
import { DEFAULT_PORT, ListenRefused, listenFromEnv, listenUrl, planListen, type ListenPlan, type ListenRequest } from './listen.js';
import { loadOAuthIssuer, OAuthRefused, type OAuthIssuer } from './oauth/issuer.js';

export { DEFAULT_PORT };

export function fail(message: string): never {
  process.stderr.write(`toolwright: ${message}\n`);
  process.exit(2);
}

export interface ServeOptions extends ListenRequest {
  dataDir: string;
  port: number;
  /** Keeps the token across restarts: read from this file, or made and written there (0600) on first start. */
  tokenFile?: string | undefined;
  /** The scheduler's timing (tests run it on a fast clock); the default one otherwise. */
  scheduler?: SchedulerOptions | undefined;
  /** The team's authorization server: its access tokens are accepted on /mcp and /tools (docs/contracts.md, "OAuth"). */
  oauthIssuer?: string | undefined;
  /** The `aud` its tokens must carry; by default the host's MCP address (public URL + /mcp). */
  oauthAudience?: string | undefined;
}

async function tokenFrom(file: string | undefined): Promise<{ token: string; source: 'env' | 'file' | 'new' }> {
  const envToken = process.env['TOOLWRIGHT_TOKEN'];
  if (envToken && envToken.length > 0) return { token: envToken, source: 'env' };
  if (!file) return { token: randomBytes(24).toString('base64url'), source: 'new' };
  const kept = (await fsp.readFile(file, 'utf8').catch(() => '')).trim();
  if (kept.length >= 16) return { token: kept, source: 'file' };
  const token = randomBytes(24).toString('base64url');
  await fsp.mkdir(dirname(file), { recursive: true });
  await fsp.writeFile(file, token + '\n', { mode: 0o600 });
  return { token, source: 'new' };
}

/** Starts the headless host (renderer, REST API and MCP at /mcp) and prints where it listens. */
export async function startServe(options: ServeOptions): Promise<void> {
  const { dataDir } = options;
  let plan: ListenPlan;
  try {
    plan = await planListen(options);
  } catch (e) {
    if (e instanceof ListenRefused) fail(e.message);
    throw e;
  }
  let oauth: OAuthIssuer | undefined;
  if (options.oauthIssuer) {
    try {
      oauth = await loadOAuthIssuer({ issuer: options.oauthIssuer, audience: options.oauthAudience });
    } catch (e) {
      if (e instanceof OAuthRefused) fail(e.message);
      throw e;
    }
  } else if (options.oauthAudience) fail('--oauth-audience needs --oauth-issuer (the authorization server whose tokens carry it)');
  const { token, source } = await tokenFrom(options.tokenFile);
  const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
  const rendererDir = join(projectRoot, 'out/renderer');
  const agentAccess = new AgentAccess(dataDir, () => core.events.emit('event', { type: 'config.changed' }));
  // The renderer's freshness check (a walk of its sources) and the core's opening are independent.
  // What the core does once it is up (Docker's probe, the context count) starts after the listening line.
  const [, core] = await Promise.all([
    ensureRendererBuilt(projectRoot, rendererDir),
    createCore({ dataDir, watch: true, transport: 'rest', agentAccess, scheduler: options.scheduler ?? true, deferBackground: true }),
  ]);
  const stopAgentAccess = followAgentAccess(core, agentAccess);
  let ready = false;
  const app = await createHttpHost({
    core,
    token,
    rendererDir,
    mcp: true,
    tls: plan.tls,
    publicUrl: plan.publicUrl,
    trustedProxy: plan.trustedProxy,
    oauth,
    isReady: () => ready,
  });
  try {
    await app.listen({ host: plan.host, port: plan.port });
  } catch (e) {
    await core.close();
    fail(
      `cannot listen on ${plan.host}:${plan.port}: ${(e as Error).message}${(e as NodeJS.ErrnoException).code === 'EADDRINUSE' ? ' (pick another with --port N)' : ''}`,
    );
  }
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : plan.port;
  const url = listenUrl(plan, actualPort);
  process.stdout.write(`Toolwright listening on ${url}\n`);
  // A token given through the environment or kept in a file is not echoed into logs: the link then carries none.
  if (source === 'env') process.stdout.write(`Open ${url}/ (sign in with the token from TOOLWRIGHT_TOKEN)\nData: ${dataDir}\n`);
  else if (source === 'file' || options.tokenFile) process.stdout.write(`Open ${url}/ (sign in with the token in ${options.tokenFile})\nData: ${dataDir}\n`);
  else process.stdout.write(`Token: ${token}\nOpen ${url}/#token=${token}\nData: ${dataDir}\n`);
  if (oauth) process.stdout.write(`OAuth: access tokens from ${oauth.issuer} for ${oauth.audience ?? `${url}/mcp`}\n`);
  process.stdout.write(`MCP: ${url}/mcp (Streamable HTTP, Authorization: Bearer <token>)\n`);
  setImmediate(() => void core.startBackground().finally(() => (ready = true)));

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    // Calls in flight finish and are answered; their keep-alive connections are closed as they fall
    // idle (Fastify closes only those idle when close() begins, the others after keepAliveTimeout).
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    await app.close().catch(() => undefined);
    clearInterval(sweep);
    await stopAgentAccess().catch(() => undefined);
    await core.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

const USAGE = `usage: npm run serve -- [--data-dir DIR] [--port N] [--listen ADDR[:PORT]] [--public-url URL]
                        [--tls-cert FILE --tls-key FILE] [--behind-proxy ADDR|CIDR] [--token-file FILE]
                        [--oauth-issuer URL [--oauth-audience URL]]
  env: TOOLWRIGHT_TOKEN, TOOLWRIGHT_DATA_DIR, TOOLWRIGHT_LISTEN, TOOLWRIGHT_PUBLIC_URL, TOOLWRIGHT_TLS_CERT,
       TOOLWRIGHT_TLS_KEY, TOOLWRIGHT_BEHIND_PROXY, TOOLWRIGHT_TOKEN_FILE, TOOLWRIGHT_OAUTH_ISSUER,
       TOOLWRIGHT_OAUTH_AUDIENCE
`;

async function main(): Promise<void> {
  const flags = ['data-dir', 'port', 'listen', 'public-url', 'tls-cert', 'tls-key', 'behind-proxy', 'token-file', 'oauth-issuer', 'oauth-audience'] as const;
  let values: Partial<Record<(typeof flags)[number], string>> & { help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { ...Object.fromEntries(flags.map((f) => [f, { type: 'string' as const }])), help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (e) {
    fail(`${(e as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a whole number from 0 to 65535 (got '${values.port}')`);
  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir();
  const env = listenFromEnv();
  await startServe({
    dataDir,
    port,
    listen: values.listen ?? env.listen,
    publicUrl: values['public-url'] ?? env.publicUrl,
    tlsCert: values['tls-cert'] ?? env.tlsCert,
    tlsKey: values['tls-key'] ?? env.tlsKey,
    behindProxy: values['behind-proxy'] ?? env.behindProxy,
    tokenFile: values['token-file'] ?? env.tokenFile,
    oauthIssuer: values['oauth-issuer'] ?? env.oauthIssuer,
    oauthAudience: values['oauth-audience'] ?? env.oauthAudience,
  });
}

// Run as a script (npm run serve), not when the CLI imports startServe.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => fail(`could not start: ${e instanceof Error ? e.message : String(e)}`));
}
