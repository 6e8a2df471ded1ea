/**
 * Auth helpers of http tools (impl.auth).
 *
 * HMAC request signing: for every request sent (each attempt, each redirect hop) the runner
 * signs the string
 *     `${timestamp}\n${METHOD}\n${pathAndQuery}\n${body}`
 * (timestamp: Unix seconds as decimal text, the same value sent in the timestamp header;
 * METHOD upper-case; pathAndQuery as sent, e.g. "/v1/items?q=a%20b"; body the exact request
 * body, "" when there is none) with HMAC-SHA256 (or SHA-512) keyed by the secret's UTF-8
 * bytes, hex-encoded, and sends `${prefix}${hex}` in `header` (default X-Signature) and the
 * timestamp in `timestampHeader` (default X-Timestamp).
 *
 * OAuth2 client credentials (RFC 6749 §4.4): a POST to tokenUrl with
 * `grant_type=client_credentials` (+ scope, audience), the client authenticated with HTTP
 * Basic (§2.3.1, id and secret form-encoded first). The token is cached per (tokenUrl,
 * client id, scope, audience), refreshed 30 s before it expires (half its lifetime when that
 * is shorter), and concurrent callers share one in-flight token request. A 401 from the API
 * drops the cached token so the runner can fetch a new one and retry once.
 */
import { createHmac } from 'node:crypto';
import type { HttpAuth } from '../../../../shared/schemas.js';
import { CoreError } from '../../errors.js';
import { raceAbort } from '../../util/abort.js';
import type { SecretsReader } from '../../secrets/types.js';
import { secretNotSet } from './request.js';

export interface SignInput {
  method: string;
  url: URL;
  body: string | undefined;
}

export function hmacHeaders(auth: Extract<HttpAuth, { type: 'hmac' }>, key: string, req: SignInput, now = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000));
  const stringToSign = `${timestamp}\n${req.method.toUpperCase()}\n${req.url.pathname}${req.url.search}\n${req.body ?? ''}`;
  const signature = createHmac(auth.algorithm ?? 'sha256', key)
    .update(stringToSign, 'utf8')
    .digest('hex');
  return {
    [(auth.header ?? 'X-Signature').toLowerCase()]: `${auth.prefix ?? ''}${signature}`,
    [(auth.timestampHeader ?? 'X-Timestamp').toLowerCase()]: timestamp,
  };
}

export function requireSecret(secrets: SecretsReader, name: string): string {
  const value = secrets.get(name);
  if (value === undefined) throw secretNotSet(name);
  return value;
}

export interface TokenResponse {
  accessToken: string;
  /** Lifetime in seconds as the server gave it (expires_in), if it did. */
  expiresIn: number | undefined;
}

export interface TokenRequest {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string | undefined;
  audience: string | undefined;
}

interface CachedToken {
  token: string;
  refreshAt: number;
}

const DEFAULT_LIFETIME_S = 3600;
const EARLY_REFRESH_S = 30;

export function tokenRequestBody(req: TokenRequest): { headers: Record<string, string>; body: string } {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (req.scope) form.set('scope', req.scope);
  if (req.audience) form.set('audience', req.audience);
  const basic = Buffer.from(`${formEncode(req.clientId)}:${formEncode(req.clientSecret)}`).toString('base64');
  return {
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      authorization: `Basic ${basic}`,
    },
    body: form.toString(),
  };
}

function formEncode(s: string): string {
  return encodeURIComponent(s).replace(/%20/g, '+');
}

/** Parses a token endpoint answer; throws UPSTREAM_ERROR naming what is missing. */
export function parseTokenResponse(host: string, text: string): TokenResponse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CoreError('UPSTREAM_ERROR', `OAuth2 token endpoint ${host} did not answer JSON`, { host });
  }
  const obj = (json ?? {}) as Record<string, unknown>;
  if (typeof obj.access_token !== 'string' || obj.access_token === '') {
    throw new CoreError('UPSTREAM_ERROR', `OAuth2 token endpoint ${host} answered without an access_token`, { host });
  }
  if (typeof obj.token_type === 'string' && obj.token_type.toLowerCase() !== 'bearer') {
    throw new CoreError('UPSTREAM_ERROR', `OAuth2 token endpoint ${host} issued a '${obj.token_type}' token; only Bearer tokens are supported`, { host });
  }
  const raw = typeof obj.expires_in === 'string' ? Number(obj.expires_in) : obj.expires_in;
  const expiresIn = typeof raw === 'number' && Number.isFinite(raw) && raw > 0 ? raw : undefined;
  return { accessToken: obj.access_token, expiresIn };
}

/**
 * Tokens by (tokenUrl, client id, scope, audience). `fetchToken` performs the token request;
 * it is given no caller's AbortSignal because its result is shared by every waiting caller.
 */
export class TokenCache {
  private readonly tokens = new Map<string, CachedToken>();
  private readonly inflight = new Map<string, Promise<CachedToken>>();

  constructor(
    private readonly fetchToken: (req: TokenRequest) => Promise<TokenResponse>,
    private readonly now: () => number = Date.now,
  ) {}

  private key(req: TokenRequest): string {
    return JSON.stringify([req.tokenUrl, req.clientId, req.scope ?? '', req.audience ?? '']);
  }

  async get(req: TokenRequest, signal: AbortSignal): Promise<string> {
    const key = this.key(req);
    const cached = this.tokens.get(key);
    if (cached && this.now() < cached.refreshAt) return cached.token;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.fetchToken(req)
        .then((res) => {
          const lifetime = res.expiresIn ?? DEFAULT_LIFETIME_S;
          const entry = { token: res.accessToken, refreshAt: this.now() + (lifetime - Math.min(EARLY_REFRESH_S, lifetime / 2)) * 1000 };
          this.tokens.set(key, entry);
          return entry;
        })
        .finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return (await raceAbort(pending, signal, (sig) => sig.reason)).token;
  }

  /** Forgets `token` if it is still the cached one (a 401 said it is no longer good). */
  invalidate(req: TokenRequest, token: string): void {
    const key = this.key(req);
    if (this.tokens.get(key)?.token === token) this.tokens.delete(key);
  }

  /** Every token held, for redaction. */
  tokensHeld(): string[] {
    return [...this.tokens.values()].map((t) => t.token);
  }
}
