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
