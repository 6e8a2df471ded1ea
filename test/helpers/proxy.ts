/**
 * A small reverse proxy on loopback in front of several hosts, as a team puts one in front of its
 * hosts: round-robin per request, streaming both ways (SSE included), the client's Host header
 * passed on, and `x-upstream` (the index of the host that answered) on every answer so a test can
 * see where a request went. Like nginx's `$proxy_add_x_forwarded_for`, it appends the client's
 * address to `X-Forwarded-For`; `localAddress` is the loopback address it connects to the hosts
 * from (127.0.0.0/8 is all this machine's), so a test can tell the proxy from a direct client. `sticky` (switchable while it runs: the hosts accept only the one
 * public address) adds session affinity on `Mcp-Session-Id` as HAProxy's stick tables do: the host
 * that answered an initialize with a session ID gets that session's later requests.
 */
import { createServer, request, Agent, type Server } from 'node:http';

export interface Proxy {
  url: string;
  port: number;
  /** How many requests each upstream got. */
  counts: number[];
  /** Whether a 2025 session's requests stay on the host that made it. */
  sticky: boolean;
  close(): Promise<void>;
}

export async function startProxy(upstreamPorts: number[], opts: { localAddress?: string } = {}): Promise<Proxy> {
  const agent = new Agent({ keepAlive: true });
  const sessions = new Map<string, number>();
  const counts = upstreamPorts.map(() => 0);
  let next = 0;
  const server: Server = createServer((req, res) => {
    const session = req.headers['mcp-session-id'];
    const stuck = proxy.sticky && typeof session === 'string' ? sessions.get(session) : undefined;
    const index = stuck ?? next++ % upstreamPorts.length;
    counts[index]!++;
    const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const headers = { ...req.headers, 'x-forwarded-for': forwardedFor };
    const target = { host: '127.0.0.1', port: upstreamPorts[index], method: req.method, path: req.url, headers, agent, localAddress: opts.localAddress };
    const upstream = request(target, (answer) => {
      const made = answer.headers['mcp-session-id'];
      if (proxy.sticky && typeof made === 'string') sessions.set(made, index);
      res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-upstream': String(index) });
      answer.pipe(res);
    });
    upstream.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', 'x-upstream': String(index) });
      res.end(`proxy: upstream ${index} failed: ${e.message}`);
    });
    // A client that went away (a closed GET stream) ends its upstream request too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const proxy: Proxy = {
    url: `http://127.0.0.1:${port}`,
    port,
    counts,
    sticky: false,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      agent.destroy();
    },
  };
  return proxy;
}
