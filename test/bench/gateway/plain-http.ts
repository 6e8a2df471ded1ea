/**
 * A REST client as plain as Node offers: one keep-alive `node:http` socket, the JSON body written
 * and read whole. The gateway bench times REST invoke with it beside `fetch` (undici, which the
 * tests' host helper uses), to tell the client's own cost from the host's.
 */
import { Agent, request } from 'node:http';

export function plainHttpClient(
  baseUrl: string,
  token: string,
): { post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: unknown }>; close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const post = (path: string, body: unknown, extra: Record<string, string> = {}) =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const data = JSON.stringify(body);
      const req = request(
        baseUrl + path,
        {
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'content-length': Buffer.byteLength(data),
            ...extra,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            try {
              resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
            } catch (e) {
              reject(e as Error);
            }
          });
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  return { post, close: () => agent.destroy() };
}
