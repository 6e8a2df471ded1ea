/**
 * How an OAuth caller is named in the audit log and in an approval's binding: by the token's
 * subject, with the OAuth client when that is someone else (a person's token used by an app).
 * A client-credentials token's subject is its client, so it is named once.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';

export function oauthCallerName(auth: AuthInfo | undefined): string | undefined {
  const subject = auth?.extra?.['subject'];
  if (typeof subject !== 'string') return undefined;
  return auth!.clientId && auth!.clientId !== subject ? `oauth:${subject},client=${auth!.clientId}` : `oauth:${subject}`;
}

/** The OAuth caller the guard put on the request (resource.ts attachCaller), if any. */
export function requestAuth(req: { raw: object }): AuthInfo | undefined {
  return (req.raw as { auth?: AuthInfo }).auth;
}

/** An agent's call as the audit log and approvals name it: its MCP client, and its token's caller under OAuth. */
export function mcpCallerName(client: string, auth: AuthInfo | undefined): string {
  const oauth = oauthCallerName(auth);
  return `mcp:${client}${oauth ? `@${oauth}` : ''}`;
}
