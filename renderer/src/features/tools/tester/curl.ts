/**
 * An HTTP exchange's request as a cURL command line, quoted for a POSIX shell. The core has
 * already masked secrets in it; asked for, each secret becomes a shell variable named like it
 * ("$WEATHER_API_KEY"), so the command works once the variable is set, and no value is copied.
 */
import type { HttpExchange, SecretPart } from '../../../../../shared/types.js';

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** One shell word from literal pieces (quoted) and secrets (expanded from the variable of their name). */
function shellWord(parts: readonly SecretPart[]): string {
  return parts.map((p) => (typeof p === 'string' ? (p ? shellQuote(p) : '') : `"\${${p.secret}}"`)).join('') || "''";
}

export interface CurlOptions {
  /** Secrets as "$NAME" instead of masked (needs request.secretParts). */
  secretsAsVariables?: boolean;
}

export function curlOf(request: HttpExchange['request'], options: CurlOptions = {}): string {
  const parts = options.secretsAsVariables ? request.secretParts : undefined;
  const word = (text: string, pieces: readonly SecretPart[] | undefined) => (pieces ? shellWord(pieces) : shellQuote(text));
  const out = ['curl'];
  if (request.method !== 'GET') out.push('-X', request.method);
  for (const [name, value] of Object.entries(request.headers)) {
    const pieces = parts?.headers?.[name];
    out.push('-H', word(`${name}: ${value}`, pieces && [`${name}: `, ...pieces]));
  }
  if (request.body !== undefined) out.push('--data-raw', word(request.body, parts?.body));
  out.push(word(request.url, parts?.url));
  return out.join(' ');
}

/** The secrets a command made with secretsAsVariables expects in the shell, in order of first use. */
export function secretVariablesOf(request: HttpExchange['request']): string[] {
  const p = request.secretParts;
  if (!p) return [];
  const all = [...(p.url ?? []), ...Object.values(p.headers ?? {}).flat(), ...(p.body ?? [])];
  return [...new Set(all.flatMap((x) => (typeof x === 'string' ? [] : [x.secret])))];
}
