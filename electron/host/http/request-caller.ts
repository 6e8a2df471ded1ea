/**
 * The caller value (shared/caller.ts) of a request that came through the guard: the credential the
 * guard found — an OAuth access token (its subject and client) or a profile's token (its ID); the
 * host's own token adds nothing — rides on the Node request as `auth`, the field the MCP SDK hands
 * its handlers as `ctx.http.authInfo`, so REST routes and MCP handlers read one and the same thing.
 */
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Caller } from '../../../shared/caller.js';

/** Where a profile token's ID travels in AuthInfo.extra (an OAuth token's subject is `extra.subject`). */
const PROFILE_TOKEN = 'profileToken';

/** The credential the guard put on the request (an OAuth token, or a profile's token), if any. */
export function requestAuth(req: { raw: object }): AuthInfo | undefined {
  return (req.raw as { auth?: AuthInfo }).auth;
}

/** Called by the guard when a profile's token opened the door. */
export function attachProfileToken(req: { raw: IncomingMessage }, tokenID: string): void {
  const auth: AuthInfo = { token: '', clientId: '', scopes: [], extra: { [PROFILE_TOKEN]: tokenID } };
  (req.raw as IncomingMessage & { auth?: AuthInfo }).auth = auth;
}

/** The caller's credential fields: an OAuth subject and client, or a profile token's ID. */
export function credentialOf(auth: AuthInfo | undefined): Pick<Caller, 'subject' | 'client' | 'token'> {
  const subject = auth?.extra?.['subject'];
  if (typeof subject === 'string') return { subject, ...(auth!.clientId ? { client: auth!.clientId } : {}) };
  const token = auth?.extra?.[PROFILE_TOKEN];
  return typeof token === 'string' ? { token } : {};
}

/** A REST request's caller: plain REST, or the OAuth caller the guard found. */
export function restCaller(req: { raw: object }): Caller {
  return { transport: 'rest', name: 'rest', ...credentialOf(requestAuth(req)) };
}

/** An agent's caller: its MCP client by name, the profile whose address it reached, and its credential. */
export function mcpCaller(client: string, auth: AuthInfo | undefined, profile?: string): Caller {
  return { transport: 'mcp', name: client, ...(profile ? { profile } : {}), ...credentialOf(auth) };
}
