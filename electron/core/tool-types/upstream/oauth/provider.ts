/**
 * Toolwright's OAuth client for one upstream MCP server, as the SDK's `OAuthClientProvider`: the
 * SDK's `auth()` does discovery (RFC 9728, RFC 8414), dynamic registration or a client ID
 * metadata document, PKCE, the code exchange and refresh; this class only keeps what it is given.
 * The registered client and the tokens live in the secrets store (encrypted, shared by every
 * process on the data folder, redacted from results and logs), under names derived from the
 * bundle ID; the PKCE verifier, the state and the discovery result live in memory for one flow.
 */
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { SecretsReader } from '../../../secrets/types.js';

/** What the provider needs of the secrets store: read, and write its own two entries. */
export interface OAuthSecrets extends SecretsReader {
  set(name: string, value: string): Promise<unknown>;
  delete(name: string): Promise<boolean>;
}

/** RFC 8252 §7.3: a loopback redirect URI's port is chosen per request; the server must accept any. */
export const LOOPBACK_REDIRECT = 'http://127.0.0.1/callback';

export function oauthSecretNames(bundleID: string): { tokens: string; client: string; challenge: string } {
  const key = bundleID.replace(/[^A-Za-z0-9]/g, '_').toUpperCase();
  return { tokens: `MCP_OAUTH_${key}_TOKENS`, client: `MCP_OAUTH_${key}_CLIENT`, challenge: `MCP_OAUTH_${key}_CHALLENGE` };
}

/**
 * What the server last asked a sign-in to cover, from its 401 or 403 challenge as the SDK read
 * it: the scope (RFC 6750 §3, already joined with what was granted before, SEP-2350) and where
 * its protected-resource metadata is (RFC 9728 §5.1, which may be at no well-known address). It
 * is kept beside the tokens because the sign-in that answers it may start in another process
 * (the challenge met by a `sync`, the sign-in by `toolwright authorize`).
 */
export interface SignInChallenge {
  scope?: string;
  resourceMetadataUrl?: string;
}

export interface StoredOAuthProviderOptions {
  bundleID: string;
  secrets: OAuthSecrets;
  /** The flow's loopback listener; without one (a call that met 401) authorization cannot finish here. */
  redirectUrl?: string;
  /** A client registered ahead with the authorization server (bundle.json `auth.clientId`), and its secret. */
  clientId?: string;
  clientSecret?: string;
  /** Toolwright's client ID metadata document, the client ID where the authorization server supports one. */
  clientMetadataUrl?: string;
  scopes?: string[];
  /** The SDK wants the person sent to this URL. */
  onAuthorizationNeeded?: (url: URL) => void;
}

function parsed<T>(text: string | undefined): T | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as T) : undefined;
  } catch {
    return undefined;
  }
}

export class StoredOAuthProvider implements OAuthClientProvider {
  private readonly names: ReturnType<typeof oauthSecretNames>;
  /** The scope the authorization URL asked for: the granted scope when the token response names none (RFC 6749 §5.1). */
  private requestedScope: string | undefined;
  private verifier: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private readonly stateValue = randomBytes(16).toString('base64url');
  /** Set when the SDK asked for the person to sign in (no token, or a refresh the server refused). */
  authorizationUrl: URL | undefined;

  constructor(private readonly opts: StoredOAuthProviderOptions) {
    this.names = oauthSecretNames(opts.bundleID);
  }

  get redirectUrl(): string {
    return this.opts.redirectUrl ?? LOOPBACK_REDIRECT;
  }

  get clientMetadataUrl(): string | undefined {
    return this.opts.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Toolwright',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.opts.scopes?.length ? { scope: this.opts.scopes.join(' ') } : {}),
    };
  }

  state(): string {
    return this.stateValue;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    const stored = parsed<StoredOAuthClientInformation>(this.opts.secrets.get(this.names.client));
    const { clientId, clientSecret } = this.opts;
    if (clientId) {
      const known = stored?.client_id === clientId ? stored : { client_id: clientId };
      return clientSecret ? { ...known, client_secret: clientSecret } : known;
    }
    return stored?.client_id ? stored : undefined;
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    // A pre-registered client's secret stays where the person put it, under its own name.
    const { client_secret: _secret, ...rest } = info;
    await this.opts.secrets.set(this.names.client, JSON.stringify(this.opts.clientSecret && info.client_id === this.opts.clientId ? rest : info));
  }

  tokens(): StoredOAuthTokens | undefined {
    const stored = parsed<StoredOAuthTokens>(this.opts.secrets.get(this.names.tokens));
    return stored?.access_token ? stored : undefined;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const scope = tokens.scope ?? this.requestedScope;
    await this.opts.secrets.set(this.names.tokens, JSON.stringify(scope ? { ...tokens, scope } : tokens));
  }

  /** What the server last asked a sign-in to cover (see SignInChallenge). */
  challenge(): SignInChallenge {
    return parsed<SignInChallenge>(this.opts.secrets.get(this.names.challenge)) ?? {};
  }

  async saveChallenge(challenge: SignInChallenge): Promise<void> {
    await this.opts.secrets.set(this.names.challenge, JSON.stringify(challenge));
  }

  /**
   * The SDK wants the person sent to `url`. Inside a sign-in that is the link; on a connection
   * (no listener to come back to) it means the server asked for a sign-in, and the URL holds
   * what the SDK read of its challenge, kept for the sign-in that follows.
   */
  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrl = url;
    this.requestedScope = url.searchParams.get('scope') ?? undefined;
    if (!this.opts.redirectUrl) {
      // What was asked for before is asked for again (SEP-2350): a new challenge adds to it.
      const { computeScopeUnion } = await import('@modelcontextprotocol/client');
      const scope = computeScopeUnion(this.challenge().scope, this.requestedScope);
      const resourceMetadataUrl = this.discovery?.resourceMetadataUrl;
      await this.saveChallenge({ ...(scope ? { scope } : {}), ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}) });
    }
    this.opts.onAuthorizationNeeded?.(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier)
      throw new Error('no sign-in is in progress for this server (the PKCE verifier is kept only for the flow that started it); sign in again');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'tokens') await this.opts.secrets.delete(this.names.tokens);
    if ((scope === 'all' || scope === 'client') && !this.opts.clientId) await this.opts.secrets.delete(this.names.client);
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }
}
