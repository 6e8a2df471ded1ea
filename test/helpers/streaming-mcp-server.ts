/**
 * A Streamable HTTP MCP server (the SDK's, on loopback) that keeps its streams open as long-lived
 * servers do: 2025-era clients get a session whose GET stream stays open until they close it or
 * end the session, 2026-era clients a `subscriptions/listen` stream that lasts as long. It counts
 * the streams open now, so a test can tell whether a client left one behind. One tool, `echo`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createMcpHandler, isLegacyRequest, Server, WebStandardStreamableHTTPServerTransport, type Tool } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';

export interface StreamingMcpServer {
  url: string;
  /** Requests whose answers are event streams still open (a 2025 GET stream, a 2026 listen stream). */
  openStreams(): number;
  /** Every request's method and MCP method, in arrival order. */
  requests: string[];
  close(): Promise<void>;
}

const ECHO: Tool = {
  name: 'echo',
  description: 'Repeats a message',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
  annotations: { readOnlyHint: true },
};

function mcpServer(): Server {
  const s = new Server({ name: 'streaming-echo', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  s.setRequestHandler('tools/list', async () => ({ tools: [ECHO] }));
  s.setRequestHandler('tools/call', async (req) => ({ content: [{ type: 'text', text: String(req.params.arguments?.['message'] ?? '') }] }));
  return s;
}

/** `eras: '2025'` serves the 2025 protocol alone (a session and its GET stream), as most deployed servers still do. */
export async function startStreamingMcpServer(opts: { eras?: '2025' | 'both' } = {}): Promise<StreamingMcpServer> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const modern = createMcpHandler(() => mcpServer(), { legacy: 'reject' });
  const requests: string[] = [];
  let streams = 0;
  const handler = toNodeHandler({
    fetch: async (request) => {
      if (opts.eras !== '2025' && !(await isLegacyRequest(request.clone()))) return modern.fetch(request);
      const sessionID = request.headers.get('mcp-session-id');
      const existing = sessionID ? sessions.get(sessionID) : undefined;
      if (existing) return existing.handleRequest(request);
      if (sessionID) return new Response('unknown session', { status: 404 });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, transport),
        onsessionclosed: (id) => void sessions.delete(id),
      });
      await mcpServer().connect(transport);
      return transport.handleRequest(request);
    },
  });
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const method = /"method"\s*:\s*"([^"]+)"/.exec(body)?.[1];
      requests.push(`${req.method}${method ? ` ${method}` : ''}`);
    });
    const writeHead = res.writeHead.bind(res);
    res.writeHead = ((...args: Parameters<typeof res.writeHead>) => {
      const headers = `${String(res.getHeader('content-type') ?? '')} ${JSON.stringify(args.slice(1))}`;
      if (/text\/event-stream/i.test(headers) && (req.method === 'GET' || /subscriptions\/listen/.test(body))) {
        streams++;
        res.once('close', () => streams--);
      }
      return writeHead(...args);
    }) as typeof res.writeHead;
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    openStreams: () => streams,
    requests,
    async close() {
      await modern.close();
      for (const t of sessions.values()) await t.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
