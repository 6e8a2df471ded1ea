/**
 * A bundle's `source` made ready to start: `${SECRET_NAME}` placeholders in the command's
 * arguments and environment, or in the URL and headers, replaced by values from the secrets
 * store at start. The values never reach a file, a log or an error message: an error names the
 * secret that is missing, never a value.
 */
import type { BundleSource } from '../../../../shared/upstream.js';
import type { SecretsReader } from '../../secrets/types.js';
import { CoreError } from '../../errors.js';
import { memoizeByObject } from '../../util/memo.js';

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export type ResolvedSource =
  | { transport: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { transport: 'http'; url: string; headers: Record<string, string>; oauth?: OAuthSettings };

/** How Toolwright signs in to an HTTP server that answers 401 (the source's `auth`, or OAuth with defaults). */
export interface OAuthSettings {
  clientId?: string;
  /** The pre-registered client's secret, filled in from the secrets store. */
  clientSecret?: string;
  clientMetadataUrl?: string;
  scopes?: string[];
}

/**
 * Secret names a source names, for availability ("secret X is not set"). Availability asks on
 * every call: kept per source object (a bundle file's, replaced whole when it changes).
 */
export const sourceSecretNames: (source: BundleSource) => readonly string[] = memoizeByObject(scanSecretNames);

function scanSecretNames(source: BundleSource): string[] {
  const texts =
    source.transport === 'stdio'
      ? [source.command, ...(source.args ?? []), ...Object.values(source.env ?? {})]
      : [source.url, ...Object.values(source.headers ?? {}), ...(source.auth?.clientSecret ? [source.auth.clientSecret] : [])];
  const names = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(PLACEHOLDER)) names.add(m[1]!);
  return [...names];
}

function fill(text: string, secrets: SecretsReader, where: string): string {
  return text.replace(PLACEHOLDER, (_all, name: string) => {
    const value = secrets.get(name);
    if (value === undefined) {
      throw new CoreError('TOOL_UNAVAILABLE', `secret ${name} (named in the server's ${where}) is not set; set it in Settings → Secrets`);
    }
    return value;
  });
}

export function resolveSource(source: BundleSource, secrets: SecretsReader): ResolvedSource {
  if (source.transport === 'stdio') {
    return {
      transport: 'stdio',
      command: fill(source.command, secrets, 'command'),
      args: (source.args ?? []).map((a) => fill(a, secrets, 'arguments')),
      env: Object.fromEntries(Object.entries(source.env ?? {}).map(([k, v]) => [k, fill(v, secrets, `environment (${k})`)])),
      ...(source.cwd ? { cwd: source.cwd } : {}),
    };
  }
  const headers = Object.fromEntries(Object.entries(source.headers ?? {}).map(([k, v]) => [k, fill(v, secrets, `header ${k}`)]));
  // A server given its own Authorization header is not signed in to: that header is the credential.
  const ownAuthorization = Object.keys(headers).some((k) => k.toLowerCase() === 'authorization');
  const auth = source.auth;
  const oauth: OAuthSettings | undefined =
    auth?.kind === 'oauth'
      ? {
          ...(auth.clientId ? { clientId: auth.clientId } : {}),
          ...(auth.clientId && auth.clientSecret ? { clientSecret: fill(auth.clientSecret, secrets, 'client secret') } : {}),
          ...(auth.clientMetadataUrl ? { clientMetadataUrl: auth.clientMetadataUrl } : {}),
          ...(auth.scopes?.length ? { scopes: auth.scopes } : {}),
        }
      : ownAuthorization
        ? undefined
        : {};
  return { transport: 'http', url: fill(source.url, secrets, 'URL'), headers, ...(oauth ? { oauth } : {}) };
}
