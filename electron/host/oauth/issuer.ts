/**
 * The team's authorization server as the host trusts it (the MCP authorization spec): its
 * metadata read once at start (RFC 8414, else OpenID discovery), its signing keys from its JWKS
 * (jose's remote key set: fetched at start, cached, fetched again for a key ID it does not know),
 * and the check of a bearer access token — signature, algorithm, issuer, audience, expiry.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';

export class OAuthRefused extends Error {}

/** A token that is not one of the issuer's valid tokens for this host; the message says why. */
export class InvalidToken extends Error {}

/** The issuer's keys could not be fetched: the token may be fine, the host cannot tell now. */
export class KeysUnavailable extends Error {}

/** Asymmetric algorithms only: `none` and HS* (a shared secret the host does not have) never pass. */
export const ACCEPTED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** Clocks of the host and the authorization server may differ by this much. */
const CLOCK_TOLERANCE_SECONDS = 30;
/** Real access tokens are a few KB at most; anything longer is refused before it is parsed. */
export const MAX_TOKEN_CHARS = 8192;
const METADATA_TIMEOUT_MS = 10_000;

export interface OAuthIssuerRequest {
  issuer: string;
  /** The `aud` tokens must carry; absent: the host's MCP address (its public URL + `/mcp`). */
  audience?: string | undefined;
}

/** Who an accepted token speaks for. */
export interface OAuthCaller {
  subject: string;
  clientId: string | undefined;
  scopes: string[];
  expiresAt: number;
  token: string;
}

export interface OAuthIssuer {
  issuer: string;
  audience: string | undefined;
  /** The caller a token speaks for, if it is the issuer's, for one of `audiences`, unexpired; else throws InvalidToken or KeysUnavailable. */
  verify(token: string, audiences: string[]): Promise<OAuthCaller>;
}

function parseUrl(text: string, what: string): URL {
  try {
    const url = new URL(text);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url;
  } catch {
    // refused below
  }
  throw new OAuthRefused(`${what} '${text}' is not an http(s) URL (e.g. https://login.example.com/realms/team)`);
}

/** RFC 8414's path-inserted address first, then OpenID discovery (appended, as OpenID defines it). */
function metadataUrls(issuer: URL): string[] {
  const path = issuer.pathname === '/' ? '' : issuer.pathname.replace(/\/$/, '');
  return [`${issuer.origin}/.well-known/oauth-authorization-server${path}`, `${issuer.origin}${path}/.well-known/openid-configuration`];
}

async function readMetadata(issuer: URL): Promise<{ issuer?: unknown; jwks_uri?: unknown }> {
  const tried: string[] = [];
  for (const url of metadataUrls(issuer)) {
    try {
      const res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(METADATA_TIMEOUT_MS) });
      if (res.ok) return (await res.json()) as { issuer?: unknown; jwks_uri?: unknown };
      tried.push(`${url}: HTTP ${res.status}`);
    } catch (e) {
      tried.push(`${url}: ${(e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message}`);
    }
  }
  throw new OAuthRefused(`cannot read the authorization server's metadata (${tried.join('; ')}); check --oauth-issuer and that the host can reach it`);
}

/** Reads the issuer's metadata and keys, or throws OAuthRefused saying what to fix. */
export async function loadOAuthIssuer(req: OAuthIssuerRequest): Promise<OAuthIssuer> {
  const issuerUrl = parseUrl(req.issuer, '--oauth-issuer');
  if (req.audience !== undefined) parseUrl(req.audience, '--oauth-audience');
  const metadata = await readMetadata(issuerUrl);
  // RFC 8414 §3.3: the metadata must name exactly the issuer it was fetched for (else a mix-up).
  if (metadata.issuer !== req.issuer) {
    throw new OAuthRefused(
      `the authorization server at '${req.issuer}' names its issuer '${String(metadata.issuer)}'; give exactly that as --oauth-issuer (tokens carry it as iss)`,
    );
  }
  if (typeof metadata.jwks_uri !== 'string')
    throw new OAuthRefused(`the authorization server '${req.issuer}' publishes no jwks_uri, so its tokens cannot be checked`);
  const jwks = createRemoteJWKSet(parseUrl(metadata.jwks_uri, 'its jwks_uri'), { timeoutDuration: 5000, cooldownDuration: 30_000, cacheMaxAge: 600_000 });
  try {
    await jwks.reload();
  } catch (e) {
    throw new OAuthRefused(`cannot read the authorization server's keys at ${metadata.jwks_uri}: ${(e as Error).message}`);
  }

  return {
    issuer: req.issuer,
    audience: req.audience,
    async verify(token, audiences) {
      if (token.length > MAX_TOKEN_CHARS) throw new InvalidToken(`the token is longer than ${MAX_TOKEN_CHARS} characters, so it is none of this host's`);
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, jwks, {
          issuer: req.issuer,
          audience: audiences,
          algorithms: ACCEPTED_ALGORITHMS,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['exp'],
        }));
      } catch (e) {
        throw refusal(e, audiences);
      }
      const scopes =
        typeof payload['scope'] === 'string' ? payload['scope'].split(' ').filter(Boolean) : Array.isArray(payload['scp']) ? payload['scp'].map(String) : [];
      const clientId = typeof payload['client_id'] === 'string' ? payload['client_id'] : typeof payload['azp'] === 'string' ? payload['azp'] : undefined;
      const subject = payload.sub ?? clientId;
      if (!subject) throw new InvalidToken('the token names no subject (sub) nor client (client_id)');
      return { subject, clientId, scopes, expiresAt: payload.exp!, token };
    },
  };
}

/** jose's failure, in words for the caller (they go into error_description). */
function refusal(e: unknown, audiences: string[]): Error {
  // A fetch that failed (TypeError) or timed out: the keys, not the token, are the problem.
  if (e instanceof errors.JWKSTimeout || (!(e instanceof errors.JOSEError) && e instanceof TypeError)) {
    return new KeysUnavailable(`the authorization server's keys could not be fetched (${(e as Error).message}); try again shortly`);
  }
  if (e instanceof errors.JWTExpired) return new InvalidToken('the token has expired; get a new one from the authorization server');
  if (e instanceof errors.JWTClaimValidationFailed) {
    if (e.claim === 'aud') return new InvalidToken(`the token is for another audience; ask for one with resource=${audiences[0]}`);
    if (e.claim === 'iss') return new InvalidToken('the token is from another issuer than this host trusts');
    if (e.claim === 'nbf') return new InvalidToken('the token is not valid yet (nbf)');
    return new InvalidToken(`the token's ${e.claim} claim is not acceptable: ${e.reason}`);
  }
  if (e instanceof errors.JOSEAlgNotAllowed)
    return new InvalidToken(`the token's signing algorithm is not accepted (allowed: ${ACCEPTED_ALGORITHMS.join(', ')})`);
  if (e instanceof errors.JWSSignatureVerificationFailed) return new InvalidToken("the token's signature does not verify with the issuer's keys");
  if (e instanceof errors.JWKSNoMatchingKey)
    return new InvalidToken("no key of the issuer matches the token's key ID (kid) and algorithm: the signature cannot verify");
  return new InvalidToken('the token is not a well-formed signed JWT');
}
