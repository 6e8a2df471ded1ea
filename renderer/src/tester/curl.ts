/** An HTTP exchange's request as a cURL command line, quoted for a POSIX shell. The core has already masked secrets in it. */
import type { HttpExchange } from '../../../shared/types.js';

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function curlOf(request: HttpExchange['request']): string {
  const parts = ['curl'];
  if (request.method !== 'GET') parts.push('-X', request.method);
  for (const [name, value] of Object.entries(request.headers)) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (request.body !== undefined) parts.push('--data-raw', shellQuote(request.body));
  parts.push(shellQuote(request.url));
  return parts.join(' ');
}
