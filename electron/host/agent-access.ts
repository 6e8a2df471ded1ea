/**
 * "Agent access" in Settings: MCP over Streamable HTTP on a local port of the app, off by
 * default. It is the headless host's `/mcp` (same guard: loopback Host/Origin only, a bearer
 * token) on its own listener, started and stopped as the setting changes. Its token is kept in
 * `<data>/agent-access.token` (0600), so a configured agent keeps working across restarts.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../../shared/schemas.js';
import type { AgentAccessStatus } from '../../shared/types.js';
import { guardPlugin } from './http/guard.js';
import { parsersPlugin } from './http/parsers.js';
import { mcpRoute } from './mcp/entry/http-route.js';
import { profileTokenCheck } from './mcp/entry/profile-door.js';
import { sendError } from './http/errors.js';
import type { TransportCore } from '../core/operations/transport.js';

/** What the listener needs of the core: the transport's door, and the config it follows. */
export type AgentAccessCore = TransportCore & {
  config: { get(): Config; on(e: 'changed', l: () => void): unknown; off(e: 'changed', l: () => void): unknown };
};

export class AgentAccess {
  private app: FastifyInstance | undefined;
  private port: number | undefined;
  private status: AgentAccessStatus = { enabled: false };
  private queue: Promise<void> = Promise.resolve();

  /** Created before the core (whose system.info reports `current()`); the core comes with each sync. */
  constructor(
    private readonly dataDir: string,
    private readonly onChange: () => void = () => undefined,
  ) {}

  current(): AgentAccessStatus {
    return this.status;
  }

  /** Brings the listener in line with the config; calls are serialised. */
  sync(core: TransportCore, config: Config): Promise<void> {
    this.queue = this.queue.then(() => this.apply(core, config)).catch(() => undefined);
    return this.queue;
  }

  /** Stops the listener (the app quits). */
  close(core: AgentAccessCore): Promise<void> {
    const config = core.config.get();
    return this.sync(core, { ...config, agentAccess: { ...config.agentAccess, enabled: false } });
  }

  private async token(): Promise<string> {
    const file = join(this.dataDir, 'agent-access.token');
    const existing = await fsp.readFile(file, 'utf8').catch(() => '');
    if (existing.trim().length >= 32) return existing.trim();
    const token = randomBytes(32).toString('base64url');
    await fsp.writeFile(file, token + '\n', { mode: 0o600 });
    return token;
  }

  private async apply(core: TransportCore, config: Config): Promise<void> {
    const { enabled, port } = config.agentAccess;
    if (this.app && (!enabled || this.port !== port)) {
      await this.app.close().catch(() => undefined);
      this.app = undefined;
      this.port = undefined;
      this.status = { enabled: false };
    }
    if (!enabled || this.app) {
      this.onChange();
      return;
    }
    const token = await this.token();
    const app = Fastify({ logger: false, bodyLimit: 32 * 1024 * 1024 });
    await app.register(guardPlugin, { token, profiles: profileTokenCheck(core) });
    await app.register(parsersPlugin, { maxImportBytes: 1 });
    await app.register(mcpRoute, { core });
    app.setNotFoundHandler(async (req, reply) =>
      sendError(reply, { code: 'NOT_FOUND', message: `this port serves MCP at /mcp and /mcp/p/<profile> only (got ${req.method} ${req.url.split('?')[0]})` }),
    );
    try {
      await app.listen({ host: '127.0.0.1', port });
      this.app = app;
      this.port = port;
      this.status = { enabled: true, url: `http://127.0.0.1:${port}/mcp`, token };
    } catch (e) {
      await app.close().catch(() => undefined);
      const code = (e as NodeJS.ErrnoException).code;
      this.status = {
        enabled: false,
        error:
          code === 'EADDRINUSE' ? `port ${port} is in use; choose another port in Settings` : `cannot listen on 127.0.0.1:${port}: ${(e as Error).message}`,
      };
    }
    this.onChange();
  }
}

/** Keeps the listener in line with the setting for the core's lifetime; returns the stop. */
export function followAgentAccess(core: AgentAccessCore, access: AgentAccess): () => Promise<void> {
  const sync = () => void access.sync(core, core.config.get());
  core.config.on('changed', sync);
  sync();
  return async () => {
    core.config.off('changed', sync);
    await access.close(core);
  };
}
