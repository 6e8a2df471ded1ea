/**
 * Listening beyond loopback (the team host): refused unless TLS or a named proxy protects the
 * traffic and a public URL names the host; then the Host and Origin checks accept that name. The
 * host runs as a real process with a real certificate (made by openssl), reached over real HTTPS.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListenRefused, matchesProxy, planListen } from '../../../electron/host/listen.js';
import { collect, spawnTs } from '../../helpers/procs.js';
import { tempDir } from '../../helpers/store.js';

let dir: string;
let cert: string;
let key: string;
let otherKey: string;

beforeAll(async () => {
  dir = await tempDir('tw-listen-');
  cert = join(dir, 'cert.pem');
  key = join(dir, 'key.pem');
  otherKey = join(dir, 'other-key.pem');
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=toolwright.test',
      '-addext',
      'subjectAltName=DNS:toolwright.test,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  execFileSync('openssl', ['req', '-x509', ...ec, '-keyout', otherKey, '-out', join(dir, 'other.pem'), '-days', '1', '-subj', '/CN=other'], {
    stdio: 'ignore',
  });
});

async function refusal(req: Parameters<typeof planListen>[0]): Promise<string> {
  const e = await planListen(req).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ListenRefused);
  return (e as Error).message;
}

describe('where the host may listen', () => {
  it('listens on loopback by default, and refuses any other address without TLS or a proxy, naming both ways', async () => {
    expect(await planListen({})).toMatchObject({ host: '127.0.0.1', port: 7420, loopback: true });
    expect(await planListen({ listen: '[::1]:0' })).toMatchObject({ host: '::1', port: 0, loopback: true });
    expect(await refusal({ listen: '0.0.0.0:7420', publicUrl: 'https://toolwright.test' })).toMatch(/--tls-cert FILE --tls-key FILE.*--behind-proxy/);
    expect(await refusal({ listen: '192.168.1.10' })).toMatch(/refusing to listen on 192\.168\.1\.10/);
  });

  it('needs a public https URL beyond loopback, and says what is wrong with a bad one', async () => {
    expect(await refusal({ listen: '0.0.0.0', tlsCert: cert, tlsKey: key })).toMatch(/needs --public-url/);
    expect(await refusal({ listen: '0.0.0.0', tlsCert: cert, tlsKey: key, publicUrl: 'http://toolwright.test' })).toMatch(/plain http/);
    expect(await refusal({ listen: '0.0.0.0', tlsCert: cert, tlsKey: key, publicUrl: 'https://toolwright.test/app' })).toMatch(/without a path/);
    expect(await refusal({ listen: '0.0.0.0', tlsCert: cert, tlsKey: key, publicUrl: 'toolwright.test' })).toMatch(/is not a URL/);
    expect(await planListen({ listen: '0.0.0.0:8443', tlsCert: cert, tlsKey: key, publicUrl: 'https://toolwright.test:8443' })).toMatchObject({
      host: '0.0.0.0',
      port: 8443,
      loopback: false,
    });
  });

  it('checks the certificate, the key and the proxy address before starting', async () => {
    expect(await refusal({ tlsCert: cert })).toMatch(/both --tls-cert FILE and --tls-key FILE/);
    expect(await refusal({ tlsCert: join(dir, 'absent.pem'), tlsKey: key })).toMatch(/--tls-cert '.*absent\.pem' cannot be read: ENOENT/);
    expect(await refusal({ tlsCert: cert, tlsKey: otherKey })).toMatch(/do not make a usable pair/);
    expect(await refusal({ listen: '0.0.0.0', behindProxy: 'proxy.local', publicUrl: 'https://t.test' })).toMatch(/not an IP address or CIDR/);
    expect(await refusal({ listen: 'example.com' })).toMatch(/is not an IP address/);
    expect(await refusal({ listen: '0.0.0.0:http' })).toMatch(/the port must be a number/);
  });

  it('matches the proxy by address or range, IPv4-mapped forms included', () => {
    expect(matchesProxy('10.0.0.5', '10.0.0.5')).toBe(true);
    expect(matchesProxy('::ffff:10.0.0.5', '10.0.0.5')).toBe(true);
    expect(matchesProxy('172.18.3.4', '172.18.0.0/16')).toBe(true);
    expect(matchesProxy('172.19.0.1', '172.18.0.0/16')).toBe(false);
    expect(matchesProxy('fd00::1', '172.18.0.0/16')).toBe(false);
    expect(matchesProxy(undefined, '10.0.0.5')).toBe(false);
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function startServe(args: string[]): Promise<{ stop: () => Promise<number | null>; out: () => string }> {
  const dataDir = await tempDir('tw-listen-host-');
  const child = spawnTs('electron/host/serve.ts', ['--data-dir', dataDir, ...args], { TOOLWRIGHT_TOKEN: 'team-token' });
  const run = collect(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await expect.poll(() => out, { timeout: 30_000 }).toMatch(/^MCP: /m);
  return {
    out: () => out,
    stop: async () => {
      child.kill('SIGTERM');
      return (await run.done).code;
    },
  };
}

const insecure = new Agent({ connect: { rejectUnauthorized: false } });
afterAll(() => insecure.close());

async function get(url: string, headers: Record<string, string> = {}, dispatcher: Agent = insecure): Promise<number> {
  const res = await request(url, { headers, dispatcher });
  await res.body.dump();
  return res.statusCode;
}

describe('a host on every interface, over TLS', () => {
  it('serves HTTPS under its public name; other names and origins are refused; health needs no token', async () => {
    const port = await freePort();
    const publicUrl = `https://toolwright.test:${port}`;
    const host = await startServe(['--listen', `0.0.0.0:${port}`, '--tls-cert', cert, '--tls-key', key, '--public-url', publicUrl]);
    try {
      expect(host.out()).toContain(`Toolwright listening on ${publicUrl}`);
      const base = `https://127.0.0.1:${port}`;
      const auth = { authorization: 'Bearer team-token' };
      expect(await get(`${base}/healthz`)).toBe(200);
      // Ready once its start-up work (Docker's first probe) is done; no token either.
      await expect.poll(() => get(`${base}/readyz`), { timeout: 20_000 }).toBe(200);
      expect(await get(`${base}/tools/bundles`, auth)).toBe(200);
      expect(await get(`${base}/tools/bundles`, { ...auth, host: `toolwright.test:${port}` })).toBe(200);
      expect(await get(`${base}/tools/bundles`, { ...auth, host: `elsewhere.test:${port}` })).toBe(403);
      expect(await get(`${base}/tools/bundles`, { ...auth, host: `toolwright.test:${port}`, origin: publicUrl })).toBe(200);
      expect(await get(`${base}/tools/bundles`, { ...auth, host: `toolwright.test:${port}`, origin: `http://toolwright.test:${port}` })).toBe(403);
      expect(await get(`${base}/tools/bundles`, { host: `toolwright.test:${port}` })).toBe(401);
      // The certificate is the one given: a client that checks it (with the cert as its CA) connects.
      const { readFileSync } = await import('node:fs');
      const checking = new Agent({ connect: { ca: readFileSync(cert), servername: 'toolwright.test' } });
      expect(await get(`${base}/healthz`, {}, checking)).toBe(200);
      await checking.close();
      // Plain HTTP on the TLS port gets no answer of the API.
      await expect(fetch(`http://127.0.0.1:${port}/tools/bundles`, { headers: auth }).then((r) => r.status)).rejects.toThrow();
    } finally {
      expect(await host.stop()).toBe(0);
    }
  }, 60_000);

  it('refuses to start on every interface without protection, with the reason on stderr and exit code 2', async () => {
    const dataDir = await tempDir('tw-listen-refused-');
    const child = spawnTs('electron/host/serve.ts', ['--data-dir', dataDir, '--listen', '0.0.0.0:0']);
    const done = await collect(child).done;
    expect(done.code).toBe(2);
    expect(done.stderr).toMatch(/refusing to listen on 0\.0\.0\.0: listen on a non-loopback address only with TLS/);
  }, 60_000);
});

const outward = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

describe.skipIf(!outward)('a host behind a proxy', () => {
  it('accepts its proxy and this machine only', async () => {
    const port = await freePort();
    const host = await startServe(['--listen', `0.0.0.0:${port}`, '--behind-proxy', '10.255.0.9', '--public-url', `https://toolwright.test`]);
    try {
      const auth = { authorization: 'Bearer team-token', host: 'toolwright.test' };
      expect(await get(`http://127.0.0.1:${port}/tools/bundles`, auth)).toBe(200);
      // From this machine's outward address: a peer that is not the proxy.
      expect(await get(`http://${outward}:${port}/tools/bundles`, auth)).toBe(403);
    } finally {
      expect(await host.stop()).toBe(0);
    }
  }, 60_000);
});
