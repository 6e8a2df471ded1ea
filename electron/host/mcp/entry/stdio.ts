/**
 * `toolwright mcp`: the MCP server on stdin/stdout, started by an agent as a subprocess, in either
 * protocol era (the client's first message decides: `initialize` for 2025, `server/discover` or an
 * enveloped request for 2026). stdout carries protocol messages only; everything else (logs,
 * warnings, stray console output) goes to stderr. The store is watched, so switches flipped in the
 * app or by another process reach this connection as notifications/tools/list_changed.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createCore, type Core } from '../../../core/app-core.js';
import { stderrLogger } from '../../../core/log.js';
import { createMcpServer } from '../server/mcp-server.js';
import { AudienceGone, watchAudience, type AudienceWatch } from '../server/audience-watch.js';

export interface StdioOptions {
  dataDir: string;
  bundles?: string[];
  /** A profile's slug: its tools, instructions and mode. */
  profile?: string;
  version?: string;
}

/** This process's entry: it opens the core (the process is the composition), then serves MCP over it like any transport. */
export async function runStdioServer(opts: StdioOptions): Promise<void> {
  // Nothing but the protocol may reach stdout.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const core: Core = await createCore({ dataDir: opts.dataDir, watch: true, transport: 'rest', actor: 'mcp', logger: stderrLogger(), scheduler: true });
  let audience: AudienceWatch;
  try {
    audience = await watchAudience(core, opts.profile !== undefined ? { profile: opts.profile } : { bundles: opts.bundles ?? [] });
  } catch (e) {
    if (!(e instanceof AudienceGone)) throw e;
    process.stderr.write(`toolwright: NOT_FOUND: no profile '${opts.profile}'; see toolwright profiles\n`);
    await core.close().catch(() => undefined);
    process.exit(2);
  }
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await handle.close().catch(() => undefined);
    audience.dispose();
    await core.close().catch(() => undefined);
    process.exit(0);
  };
  const handle = serveStdio(
    (ctx) => createMcpServer(core, audience, { era: ctx.era, transport: 'stdio', ...(opts.version ? { version: opts.version } : {}) }).server,
    { legacy: 'serve', onerror: (e) => core.logger.warn(`mcp: ${e.message}`) },
  );
  // Tasks outlive the agent that started them: their runs finish (and record their results) first.
  process.stdin.on('end', () => void core.agentSurface.tasks.settled().then(shutdown));
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}
