/** A real node:http server on loopback that records every request, for http runner tests and benches. */
import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as received. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface LoopbackServer {
  port: number;
  /** http://<host>:<port><path> */
  url(path: string, host?: string): string;
  requests: RecordedRequest[];
  hits(path: string): number;
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export async function startLoopbackServer(host = '127.0.0.1'): Promise<LoopbackServer> {
  const routes = new Map<string, Handler>();
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const parsed = new URL(req.url ?? '/', 'http://loopback');
      const rec: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        path: parsed.pathname,
        query: parsed.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(rec);
      const handler = routes.get(rec.path);
      if (!handler) return sendJson(res, 404, { error: `no route ${rec.path}` });
      Promise.resolve(handler(rec, res)).catch((e: Error) => {
        if (!res.headersSent) sendJson(res, 500, { error: e.message });
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path, h = host.includes(':') ? `[${host}]` : host) => `http://${h}:${port}${path}`,
    requests,
    hits: (path) => requests.filter((r) => r.path === path).length,
    route: (path, handler) => void routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
