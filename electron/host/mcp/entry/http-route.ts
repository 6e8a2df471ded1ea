/**
 * The `/mcp` routes (MCP over Streamable HTTP, both protocol eras: http-serve.ts), mounted by the
 * HTTP host beside REST (host/http-host.ts) and by the desktop's agent-access listener. The MCP SDK and
 * the server behind them load on the first request there, not with the host: most starts (the
 * tests', a desktop session without agents) never reach it, and it was a large part of a start.
 */
import type { FastifyInstance } from 'fastify';
import type { TransportCore } from '../../../core/operations/transport.js';
import type { McpHttp } from './http-serve.js';

export const MCP_PATH = '/mcp';
/** A profile's own address. */
export const MCP_PROFILE_PATH = '/mcp/p/:slug';

export async function mcpRoute(app: FastifyInstance, opts: { core: TransportCore; version?: string }): Promise<void> {
  let loading: Promise<McpHttp> | undefined;
  const mcp = () => (loading ??= import('./http-serve.js').then((m) => m.createMcpHttp(opts)));
  app.addHook('preClose', async () => {
    if (loading) await (await loading).close();
  });
  app.all(MCP_PATH, async (req, reply) => (await mcp()).serveBundles(req, reply));
  app.all(MCP_PROFILE_PATH, async (req, reply) => (await mcp()).serveProfile(req, reply));
}
