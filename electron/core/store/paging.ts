/**
 * Keyset paging over IDs sorted ascending (UUIDv7, so creation order). A token says "after
 * this ID, for this query"; items created or deleted between pages never make an unchanged
 * item repeat or go missing, as an offset would. Tokens are opaque (base64url JSON) and bound
 * to the query that made them.
 */
import { PageTokenCodec, queryBinding } from '../util/page-token.js';

/** Binds a token to the filters of a list. */
export const queryFingerprint = queryBinding;

const NOT_OURS = 'pageToken is not a token this server issued; drop it to start from the first page';
const listTokens = new PageTokenCodec<[string]>({
  prefix: '',
  cursor: (v) => (v.length === 1 && typeof v[0] === 'string' && v[0].length <= 128 ? [v[0]] : undefined),
  messages: {
    foreign: NOT_OURS,
    damaged: NOT_OURS,
    otherQuery: 'pageToken belongs to a different query (other filters); drop it to start from the first page',
  },
});

export function encodePageToken(after: string, fingerprint: string): string {
  return listTokens.encode(fingerprint, [after]);
}

export function decodePageToken(token: string, fingerprint: string): string {
  return listTokens.decode(token, fingerprint)[0];
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
