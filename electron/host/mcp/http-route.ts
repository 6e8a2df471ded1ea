/**
 * MCP over Streamable HTTP at `/mcp` on the headless host: POST (requests), GET (the stream that
 * carries list_changed and other server messages), DELETE (end of session). The REST guard in
 * front already checked Host/Origin (DNS rebinding) and the bearer token. One MCP server per
 * session; `/mcp?bundles=slug,slug` scopes a session to some bundles.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, type McpConnection, type McpCore } from './mcp-server.js';

export const MCP_PATH = '/mcp';

interface Session {
  transport: StreamableHTTPServerTransport;
  connection: McpConnection;
}

function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.code(status).type('application/json').send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

export async function mcpRoute(app: FastifyInstance, opts: { core: McpCore; version?: string }): Promise<void> {
  const sessions = new Map<string, Session>();

  // Before the server waits for its connections: open GET streams would hold it forever.
  app.addHook('preClose', async () => {
    await Promise.all(
      [...sessions.values()].map(async (s) => {
        await s.connection.dispose();
        await s.transport.close().catch(() => undefined);
      }),
    );
    sessions.clear();
  });

  app.all(MCP_PATH, async (req, reply) => {
    const sessionID = req.headers['mcp-session-id'];
    const id = Array.isArray(sessionID) ? sessionID[0] : sessionID;
    let session = id ? sessions.get(id) : undefined;
    if (id && !session) return jsonRpcError(reply, 404, -32001, `unknown or ended MCP session ${id}; initialize a new one`);
    if (!session) {
      if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
        return jsonRpcError(reply, 400, -32000, 'no MCP session: send an initialize request first (without an Mcp-Session-Id header)');
      }
      const bundles = typeof (req.query as Record<string, unknown>)['bundles'] === 'string' ? String((req.query as Record<string, string>)['bundles']) : '';
      const connection = createMcpServer(opts.core, {
        transport: 'http',
        ...(bundles
          ? {
              bundles: bundles
                .split(',')
                .map((b) => b.trim())
                .filter(Boolean),
            }
          : {}),
        ...(opts.version ? { version: opts.version } : {}),
      });
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => {
          sessions.set(sid, created);
        },
      });
      const created: Session = { transport, connection };
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
        void connection.dispose();
      };
      await connection.server.connect(transport);
      session = created;
    }
    reply.hijack();
    await session.transport.handleRequest(req.raw, reply.raw, req.body);
    return reply;
  });
}
