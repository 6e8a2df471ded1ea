/**
 * Which network addresses an http tool may reach. Two checks share one classification:
 * - statically, on the URL after expansion and on every redirect hop (URL.hostname: IP literals,
 *   which WHATWG URL has already normalised from decimal/octal/hex forms);
 * - at connect time, inside the DNS lookup of the HTTP agent, on every address a name resolves
 *   to, so a name that resolves (or re-resolves, DNS rebinding) to a private address is refused
 *   on the very socket that would be opened.
 */
import dns from 'node:dns';
import net from 'node:net';
// ipaddr.js (used by Express/Fastify's proxy-addr) knows the IANA special-purpose ranges of
// both families, including IPv4-mapped, NAT64 and 6to4 forms; no hand-written CIDR tables.
import ipaddr from 'ipaddr.js';
import { isHostAllowed } from '../../../../shared/net/hosts.js';
import { CoreError } from '../../errors.js';

export interface AddressVerdict {
  ok: boolean;
  /** Why the address is not public, e.g. "loopback", "private", "linkLocal", "metadata". */
  range: string;
}

const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

/** Classifies one IP address (no brackets). Only public unicast addresses are ok. */
export function classifyAddress(address: string): AddressVerdict {
  if (!ipaddr.isValid(address)) return { ok: false, range: 'invalid' };
  const parsed = ipaddr.process(address); // unwraps IPv4-mapped IPv6 (::ffff:a.b.c.d)
  const normalized = parsed.toString();
  if (METADATA_ADDRESSES.has(normalized)) return { ok: false, range: 'metadata' };
  if (parsed.kind() === 'ipv4') {
    const range = parsed.range();
    return { ok: range === 'unicast', range };
  }
  const v6 = parsed as ipaddr.IPv6;
  const parts = v6.parts;
  // ::/8 is reserved as a whole (unspecified, loopback, IPv4-compatible ::a.b.c.d).
  const range = v6.range();
  if (parts[0] === 0) return { ok: false, range: range === 'loopback' || range === 'unspecified' ? range : 'reserved' };
  if (range === 'rfc6052' && parts[0] === 0x64 && parts[1] === 0xff9b && parts[2] === 0) {
    // NAT64 (DNS64 networks): judge the IPv4 address it carries.
    return embeddedVerdict(parts[6]!, parts[7]!, range);
  }
  if (range === '6to4') return embeddedVerdict(parts[1]!, parts[2]!, range);
  return { ok: range === 'unicast', range };
}

function embeddedVerdict(high: number, low: number, outer: string): AddressVerdict {
  const v4 = `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const inner = classifyAddress(v4);
  return inner.ok ? inner : { ok: false, range: `${outer}(${inner.range})` };
}

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private-network address',
  carrierGradeNat: 'a carrier-grade NAT (100.64/10) address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local (private) IPv6 address',
  metadata: 'a cloud metadata address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};

export function describeRange(range: string): string {
  return RANGE_WORDS[range] ?? `a non-public address (${range})`;
}

export function privateAddressError(host: string, address: string, range: string): CoreError {
  const via = host === address ? `${host} is` : `${host} resolves to ${address}, which is`;
  return new CoreError(
    'FORBIDDEN',
    `refused to connect: ${via} ${describeRange(range)}. Calls to loopback, private, link-local and metadata addresses are blocked; set allowPrivateNetwork to true in the config to allow them`,
    { host, address, range },
  );
}

/** The host without IPv6 brackets, as sockets and ipaddr.js want it. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

export interface DestinationPolicy {
  allowedHosts: readonly string[];
  allowPrivateNetwork: boolean;
}

/**
 * Static check of a destination URL (after expansion, on every redirect hop, and for token
 * URLs). Throws FORBIDDEN with the fix in the message.
 */
export type Classify = (address: string) => AddressVerdict;

export function checkDestination(url: URL, policy: DestinationPolicy, what = 'the destination', classify: Classify = classifyAddress): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CoreError('FORBIDDEN', `${what} ${url.protocol}// is refused: only http and https URLs can be called`, { url: url.protocol });
  }
  if (url.username || url.password) {
    throw new CoreError(
      'FORBIDDEN',
      `${what} carries a user name or password in the URL (user@host), which is refused; put credentials in a header with a secret placeholder instead`,
      { host: url.hostname },
    );
  }
  const host = url.hostname;
  const bare = bareHost(host);
  // An IPv6 literal may be listed with or without brackets.
  if (!isHostAllowed(host, policy.allowedHosts) && !(bare !== host && isHostAllowed(bare, policy.allowedHosts))) {
    throw new CoreError(
      'FORBIDDEN',
      `host ${host} is not in allowedHosts; add "${host.replace(/\.$/, '')}" to allowedHosts in the config to let tools call it`,
      { host },
    );
  }
  if (!policy.allowPrivateNetwork && net.isIP(bare) !== 0) {
    const verdict = classify(bare);
    if (!verdict.ok) throw privateAddressError(host, bare, verdict.range);
  }
}

export type LookupAll = (hostname: string) => Promise<dns.LookupAddress[]>;

export const systemLookup: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net.connect/tls.connect over `resolve`. With `classify`, it refuses every name
 * with a non-public address among its answers (a mixed answer is refused as a whole: the
 * socket could pick either). Node skips lookup for IP literals, which checkDestination covers.
 */
export function guardedLookup(
  resolve: LookupAll,
  classify: Classify | undefined,
): (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => void {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (answers) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family ? answers.filter((a) => a.family === family) : answers;
        for (const a of classify ? answers : []) {
          const verdict = classify!(a.address);
          if (!verdict.ok) {
            callback(privateAddressError(hostname, a.address, verdict.range) as unknown as NodeJS.ErrnoException, '', 0);
            return;
          }
        }
        if (usable.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          err.code = 'ENOTFOUND';
          callback(err, '', 0);
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}
