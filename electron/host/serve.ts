/**
 * `npm run serve -- [--data-dir DIR] [--port N]`: the headless host. Serves the built renderer
 * and the REST API on 127.0.0.1 only, behind a bearer token (TOOLWRIGHT_TOKEN, or a random one
 * printed at start). Shares the desktop app's data directory unless told otherwise.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createCore, defaultDataDir } from '../core/app-core.js';
import { createRestServer } from './rest/server.js';
import { ensureRendererBuilt } from './renderer-build.js';
import { AgentAccess, followAgentAccess } from './agent-access.js';

export const DEFAULT_PORT = 7420;

export function fail(message: string): never {
  process.stderr.write(`toolwright: ${message}\n`);
  process.exit(2);
}

export interface ServeOptions {
  dataDir: string;
  port: number;
}

/** Starts the headless host (renderer, REST API and MCP at /mcp) and prints where it listens. */
export async function startServe({ dataDir, port }: ServeOptions): Promise<void> {
  const envToken = process.env['TOOLWRIGHT_TOKEN'];
  const token = envToken && envToken.length > 0 ? envToken : randomBytes(24).toString('base64url');
  const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
  const rendererDir = join(projectRoot, 'out/renderer');
  await ensureRendererBuilt(projectRoot, rendererDir);

  const agentAccess = new AgentAccess(dataDir, () => core.events.emit('event', { type: 'config.changed' }));
  const core = await createCore({ dataDir, watch: true, transport: 'rest', agentAccess, scheduler: true });
  const stopAgentAccess = followAgentAccess(core, agentAccess);
  const app = await createRestServer({ core, token, rendererDir, mcp: core });
  try {
    await app.listen({ host: '127.0.0.1', port });
  } catch (e) {
    await core.close();
    fail(
      `cannot listen on 127.0.0.1:${port}: ${(e as Error).message}${(e as NodeJS.ErrnoException).code === 'EADDRINUSE' ? ' (pick another with --port N)' : ''}`,
    );
  }
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const url = `http://127.0.0.1:${actualPort}`;
  process.stdout.write(`Toolwright listening on ${url}\n`);
  // A token given through the environment is not echoed into logs: the link then carries none.
  if (envToken) process.stdout.write(`Open ${url}/ (sign in with the token from TOOLWRIGHT_TOKEN)\nData: ${dataDir}\n`);
  else process.stdout.write(`Token: ${token}\nOpen ${url}/#token=${token}\nData: ${dataDir}\n`);
  process.stdout.write(`MCP: ${url}/mcp (Streamable HTTP, Authorization: Bearer <token>)\n`);

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await app.close().catch(() => undefined);
    await stopAgentAccess().catch(() => undefined);
    await core.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

async function main(): Promise<void> {
  let values: { 'data-dir'?: string; port?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { 'data-dir': { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (e) {
    fail(`${(e as Error).message}\nusage: npm run serve -- [--data-dir DIR] [--port N]`);
  }
  if (values.help) {
    process.stdout.write('usage: npm run serve -- [--data-dir DIR] [--port N]\n  env: TOOLWRIGHT_TOKEN, TOOLWRIGHT_DATA_DIR\n');
    return;
  }
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a whole number from 0 to 65535 (got '${values.port}')`);
  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir();
  await startServe({ dataDir, port });
}

// Run as a script (npm run serve), not when the CLI imports startServe.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => fail(`could not start: ${e instanceof Error ? e.message : String(e)}`));
}
