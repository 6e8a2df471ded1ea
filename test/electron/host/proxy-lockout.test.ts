/**
 * The failed-token lockout behind a proxy (issue 22): with `--behind-proxy`, every request comes
 * from the proxy's address, so the lockout is keyed on the client the trusted proxy names in
 * X-Forwarded-For (its right-most address that is not the proxy), and only when the peer is that
 * proxy. Real parts on loopback: a host behind the proxy helper, which connects from 127.0.0.2 and
 * appends each client's address as nginx does; the clients connect from 127.0.0.3, .4 and .5.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type TestHost } from '../../helpers/host.js';
import { startProxy, type Proxy } from '../../helpers/proxy.js';
import { MAX_FAILED_PER_MINUTE } from '../../../electron/host/http/failed-attempts.js';

const PUBLIC = new URL('https://tools.example.test');
const PROXY_ADDRESS = '127.0.0.2';

let h: TestHost;
let proxy: Proxy;

/** A GET from a given loopback address, to the proxy or straight to the host. */
function getFrom(localAddress: string, port: number, token: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, localAddress, path: '/tools/tools', headers: { host: PUBLIC.host, authorization: `Bearer ${token}`, ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  h = await startHost({ trustedProxy: `${PROXY_ADDRESS}/32`, publicUrl: PUBLIC });
  proxy = await startProxy([h.port], { localAddress: PROXY_ADDRESS });
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

describe('the failed-token lockout behind a trusted proxy', () => {
  it('locks out the client with wrong tokens, not the other clients of the proxy, and a forged X-Forwarded-For does not help it', async () => {
    expect(await getFrom('127.0.0.3', proxy.port, h.token)).toBe(200);
    for (let i = 0; i < MAX_FAILED_PER_MINUTE; i++) {
      // Each attempt forges another client address on the left: the proxy appends the real one.
      expect(await getFrom('127.0.0.3', proxy.port, 'wrong-token', { 'x-forwarded-for': `198.51.100.${i + 1}` })).toBe(401);
    }
    expect(await getFrom('127.0.0.3', proxy.port, 'wrong-token')).toBe(429);
    expect(await getFrom('127.0.0.4', proxy.port, 'wrong-token')).toBe(401);
    expect(await getFrom('127.0.0.4', proxy.port, h.token)).toBe(200);
  });

  it('keys a direct peer that is not the proxy on its own address, whatever X-Forwarded-For it sends', async () => {
    for (let i = 0; i < MAX_FAILED_PER_MINUTE; i++) {
      expect(await getFrom('127.0.0.5', h.port, 'wrong-token', { 'x-forwarded-for': `203.0.113.${i + 1}` })).toBe(401);
    }
    expect(await getFrom('127.0.0.5', h.port, 'wrong-token', { 'x-forwarded-for': '203.0.113.200' })).toBe(429);
  });
});
