/**
 * Where the headless host listens, and whether that is safe. On loopback (the default) nothing
 * but this machine can reach it. Any other address carries the bearer token and every tool call
 * over a network, so it is refused unless the traffic is encrypted here (`--tls-cert`/`--tls-key`)
 * or a named proxy in front does it (`--behind-proxy ADDR|CIDR`, the only peer then accepted).
 * A host reached from elsewhere is reached by a name, so a public URL is required too: the Host
 * and Origin checks (DNS rebinding, cross-site requests) accept that name and loopback only.
 */
import { readFile } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';
import ipaddr from 'ipaddr.js';

export const DEFAULT_PORT = 7420;

export interface ListenRequest {
  /** ADDR, ADDR:PORT or [V6]:PORT; the loopback address when absent. */
  listen?: string | undefined;
  port?: number | undefined;
  publicUrl?: string | undefined;
  tlsCert?: string | undefined;
  tlsKey?: string | undefined;
  behindProxy?: string | undefined;
}

export interface ListenPlan {
  host: string;
  port: number;
  loopback: boolean;
  tls?: { cert: Buffer; key: Buffer };
  /** The peer address (or range) allowed to connect when the host is behind a proxy. */
  trustedProxy?: string;
  /** The address people and agents use; its host is accepted by the Host and Origin checks. */
  publicUrl?: URL;
}

export class ListenRefused extends Error {}

const USAGE_SAFE =
  'listen on a non-loopback address only with TLS (--tls-cert FILE --tls-key FILE) or behind a TLS proxy (--behind-proxy ADDR, the proxy’s address or CIDR)';

function splitListen(text: string, fallbackPort: number): { host: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] === undefined ? fallbackPort : Number(bracketed[2]) };
  const colons = text.split(':').length - 1;
  if (colons === 1) {
    const [host, port] = text.split(':') as [string, string];
    if (!/^\d+$/.test(port)) throw new ListenRefused(`--listen '${text}': the port must be a number (e.g. 0.0.0.0:7420)`);
    return { host, port: Number(port) };
  }
  return { host: text, port: fallbackPort };
}

/** What else a team host takes from its environment: its token's file and the team's authorization server. */
export interface HostEnvRequest {
  tokenFile?: string;
  oauthIssuer?: string;
  oauthAudience?: string;
}

/** The options a team host takes from its environment (the container image sets them), flags winning. */
export function listenFromEnv(env: NodeJS.ProcessEnv = process.env): ListenRequest & HostEnvRequest {
  const pick = (name: string) => (env[name] && env[name]!.length > 0 ? env[name] : undefined);
  const out: ListenRequest & HostEnvRequest = {};
  const fields = {
    listen: 'TOOLWRIGHT_LISTEN',
    publicUrl: 'TOOLWRIGHT_PUBLIC_URL',
    tlsCert: 'TOOLWRIGHT_TLS_CERT',
    tlsKey: 'TOOLWRIGHT_TLS_KEY',
    behindProxy: 'TOOLWRIGHT_BEHIND_PROXY',
    tokenFile: 'TOOLWRIGHT_TOKEN_FILE',
    oauthIssuer: 'TOOLWRIGHT_OAUTH_ISSUER',
    oauthAudience: 'TOOLWRIGHT_OAUTH_AUDIENCE',
  } as const;
  for (const [key, name] of Object.entries(fields) as [keyof typeof fields, string][]) {
    const value = pick(name);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (!ipaddr.isValid(host)) return false;
  return ipaddr.process(host).range() === 'loopback';
}

/** An address or CIDR, normalised; throws saying what is wrong. */
function parseProxy(text: string): string {
  try {
    if (text.includes('/')) {
      const [addr, bits] = ipaddr.parseCIDR(text);
      return `${addr.toString()}/${bits}`;
    }
    return ipaddr.process(text).toString();
  } catch {
    throw new ListenRefused(`--behind-proxy '${text}' is not an IP address or CIDR range (e.g. 10.0.0.5 or 172.18.0.0/16)`);
  }
}

/** Whether a peer address is the trusted proxy (an address or a CIDR range). */
export function matchesProxy(peer: string | undefined, proxy: string): boolean {
  if (!peer || !ipaddr.isValid(peer)) return false;
  const address = ipaddr.process(peer);
  if (!proxy.includes('/')) return address.toString() === ipaddr.process(proxy).toString();
  const [range, bits] = ipaddr.parseCIDR(proxy);
  return address.kind() === range.kind() && address.match(range, bits);
}

async function readPem(label: string, path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (e) {
    throw new ListenRefused(`${label} '${path}' cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

export async function planListen(req: ListenRequest): Promise<ListenPlan> {
  const fallbackPort = req.port ?? DEFAULT_PORT;
  const { host, port } = splitListen(req.listen?.trim() || '127.0.0.1', fallbackPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ListenRefused(`the port must be a whole number from 0 to 65535 (got ${port})`);
  if (host !== 'localhost' && !ipaddr.isValid(host)) {
    throw new ListenRefused(`--listen '${host}' is not an IP address; give the address of an interface (0.0.0.0 for all, 127.0.0.1 for this machine only)`);
  }
  const loopback = isLoopbackHost(host);
  const plan: ListenPlan = { host, port, loopback };

  if (Boolean(req.tlsCert) !== Boolean(req.tlsKey)) throw new ListenRefused('TLS needs both --tls-cert FILE and --tls-key FILE');
  if (req.tlsCert && req.tlsKey) {
    const tls = { cert: await readPem('--tls-cert', req.tlsCert), key: await readPem('--tls-key', req.tlsKey) };
    try {
      createSecureContext(tls);
    } catch (e) {
      throw new ListenRefused(`the TLS certificate and key do not make a usable pair: ${(e as Error).message}`);
    }
    plan.tls = tls;
  }
  if (req.behindProxy) plan.trustedProxy = parseProxy(req.behindProxy.trim());

  if (req.publicUrl) {
    let url: URL;
    try {
      url = new URL(req.publicUrl);
    } catch {
      throw new ListenRefused(`--public-url '${req.publicUrl}' is not a URL (e.g. https://toolwright.example.com)`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ListenRefused(`--public-url must start with https:// (got '${url.protocol}')`);
    if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
      throw new ListenRefused(`--public-url is the address of the host only, without a path, query or credentials (got '${req.publicUrl}')`);
    }
    if (!loopback && url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      throw new ListenRefused(`--public-url '${req.publicUrl}' is plain http; agents send the token with every request, so give the https:// address`);
    }
    plan.publicUrl = url;
  }

  if (!loopback) {
    if (!plan.tls && !plan.trustedProxy) throw new ListenRefused(`refusing to listen on ${host}: ${USAGE_SAFE}`);
    if (!plan.publicUrl) {
      throw new ListenRefused(
        `listening on ${host} needs --public-url (the https:// address people and agents use), so the Host and Origin checks know the name to accept`,
      );
    }
  }
  return plan;
}

/** The address to print: the public one when there is one, else the loopback address listened on. */
export function listenUrl(plan: ListenPlan, actualPort: number): string {
  if (plan.publicUrl) return plan.publicUrl.origin;
  const host = plan.host.includes(':') ? `[${plan.host}]` : plan.host;
  return `${plan.tls ? 'https' : 'http'}://${host}:${actualPort}`;
}
