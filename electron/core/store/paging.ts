/**
 * Keyset paging over IDs sorted ascending (UUIDv7, so creation order). A token says "after
 * this ID, for this query"; items created or deleted between pages never make an unchanged
 * item repeat or go missing, as an offset would. Tokens are opaque (base64url JSON) and bound
 * to the query that made them.
 */
import { createHash } from 'node:crypto';
import { CoreError } from '../errors.js';

interface TokenBody {
  v: 1;
  a: string;
  q: string;
}

export function queryFingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

export function encodePageToken(after: string, fingerprint: string): string {
  const body: TokenBody = { v: 1, a: after, q: fingerprint };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

export function decodePageToken(token: string, fingerprint: string): string {
  let body: TokenBody;
  try {
    body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as TokenBody;
  } catch {
    throw new CoreError('INVALID_INPUT', 'pageToken is not a token this server issued; drop it to start from the first page', {
      issues: [{ field: 'pageToken', message: 'is malformed' }],
    });
  }
  if (!body || body.v !== 1 || typeof body.a !== 'string') {
    throw new CoreError('INVALID_INPUT', 'pageToken is not a token this server issued; drop it to start from the first page', {
      issues: [{ field: 'pageToken', message: 'is malformed' }],
    });
  }
  if (body.q !== fingerprint) {
    throw new CoreError('INVALID_INPUT', 'pageToken belongs to a different query (other filters); drop it to start from the first page', {
      issues: [{ field: 'pageToken', message: 'belongs to a different query' }],
    });
  }
  return body.a;
}

/** First index whose id is > after. */
function upperBound(sorted: readonly string[], after: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function pageOf<T>(
  sortedIds: readonly string[],
  accept: (id: string) => T | undefined,
  pageSize: number,
  fingerprint: string,
  pageToken?: string,
): { items: T[]; nextPageToken?: string } {
  const start = pageToken ? upperBound(sortedIds, decodePageToken(pageToken, fingerprint)) : 0;
  const items: T[] = [];
  let lastID = '';
  for (let i = start; i < sortedIds.length; i++) {
    const id = sortedIds[i]!;
    const item = accept(id);
    if (item === undefined) continue;
    if (items.length === pageSize) {
      return { items, nextPageToken: encodePageToken(lastID, fingerprint) };
    }
    items.push(item);
    lastID = id;
  }
  return { items };
}
