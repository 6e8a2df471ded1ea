/**
 * "Sign-in (OAuth)" of a remote server in the add-server dialog: a client registered ahead with
 * the server's authorization server (its ID and secret), for servers that allow no dynamic
 * registration, and scopes to ask for besides what the server asks. Folded away: most servers
 * need none of it. The secret is never written into the bundle: on save it goes to the secrets
 * store and the bundle keeps `${NAME}` (oauthOf).
 */
import type { HttpSource } from '../../../../shared/upstream.js';
import { TextField } from '../../components/Field.js';
import { secretNameFor } from './commandLine.js';
import './AddUpstream.css';

export interface OAuthClientDraft {
  clientId: string;
  clientSecret: string;
  scopes: string;
}

export const EMPTY_OAUTH_CLIENT: OAuthClientDraft = { clientId: '', clientSecret: '', scopes: '' };

/** The secret to store and the source's `auth`, from the fields; undefined when they are empty. */
export function oauthOf(
  draft: OAuthClientDraft,
  serverSlug: string,
): { auth: NonNullable<HttpSource['auth']>; secret?: { name: string; value: string } } | { error: string } | undefined {
  const clientId = draft.clientId.trim();
  const secretValue = draft.clientSecret.trim();
  const scopes = draft.scopes.split(/[\s,]+/).filter(Boolean);
  if (!clientId && !secretValue && !scopes.length) return undefined;
  if (secretValue && !clientId) return { error: 'A client secret needs the client ID it belongs to.' };
  const secret = secretValue ? { name: secretNameFor(serverSlug, 'OAUTH_CLIENT_SECRET'), value: secretValue } : undefined;
  return {
    auth: {
      kind: 'oauth',
      ...(clientId ? { clientId } : {}),
      ...(secret ? { clientSecret: `\${${secret.name}}` } : {}),
      ...(scopes.length ? { scopes } : {}),
    },
    ...(secret ? { secret } : {}),
  };
}

export function OAuthClientFields({
  draft,
  onChange,
  serverSlug,
  error,
}: {
  draft: OAuthClientDraft;
  onChange(draft: OAuthClientDraft): void;
  serverSlug: string;
  error?: string | undefined;
}) {
  const set = (patch: Partial<OAuthClientDraft>) => onChange({ ...draft, ...patch });
  const filled = !!(draft.clientId || draft.clientSecret || draft.scopes);
  return (
    <details className="oauth-client" open={filled || undefined} data-testid="oauth-client">
      <summary className="field-label">Sign-in (OAuth)</summary>
      <p className="muted oauth-client-hint">
        Toolwright registers itself with the server&apos;s authorization server when it allows that. For one that does not, give the client your administrator
        registered for Toolwright.
      </p>
      <div className="oauth-client-grid">
        <TextField
          label="Client ID"
          mono
          value={draft.clientId}
          maxLength={512}
          autoComplete="off"
          onValue={(v) => set({ clientId: v })}
          data-testid="oauth-client-id"
        />
        <TextField
          label="Client secret"
          mono
          type="password"
          autoComplete="off"
          value={draft.clientSecret}
          hint={
            draft.clientSecret.trim()
              ? `Kept in the secrets store as ${secretNameFor(serverSlug, 'OAUTH_CLIENT_SECRET')}, never in the bundle.`
              : 'Leave empty for a public client.'
          }
          onValue={(v) => set({ clientSecret: v })}
          data-testid="oauth-client-secret"
        />
        <TextField
          label="Scopes"
          className="oauth-client-scopes"
          mono
          value={draft.scopes}
          placeholder="asked for besides what the server asks, separated by spaces"
          onValue={(v) => set({ scopes: v })}
          data-testid="oauth-scopes"
        />
      </div>
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
    </details>
  );
}
