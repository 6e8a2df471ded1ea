/**
 * Page tokens of the search: the rank tuple of the last item on the page (keyset paging, so
 * creating or deleting tools between pages never repeats or skips an unchanged item), bound to
 * what was searched (folded query words + includeDisabled). The codec is the one every list
 * uses (util/page-token.ts), with its own `ts1.` prefix.
 */
import { PageTokenCodec, queryBinding } from '../util/page-token.js';
import type { RankKey } from './rank.js';

const MAX_TOOL_ID_LENGTH = 128;

/** Identifies one search; queries that fold to the same words share it ("Météo" and "meteo"). */
export function searchBinding(queryWords: readonly string[], includeDisabled: boolean): string {
  return queryBinding([queryWords, includeDisabled]);
}

type Cursor = [count: number, tier: RankKey['tier'], modifiedAtMs: number, toolID: string];

const searchTokens = new PageTokenCodec<Cursor>({
  prefix: 'ts1.',
  cursor(v) {
    if (v.length !== 4) return undefined;
    const [count, tier, modifiedAtMs, toolID] = v;
    if (!Number.isInteger(count) || (count as number) < 1) return undefined;
    if (tier !== 0 && tier !== 1 && tier !== 2) return undefined;
    if (!Number.isSafeInteger(modifiedAtMs)) return undefined;
    if (typeof toolID !== 'string' || toolID.length === 0 || toolID.length > MAX_TOOL_ID_LENGTH) return undefined;
    return [count as number, tier, modifiedAtMs as number, toolID];
  },
  messages: {
    foreign: 'pageToken is not a search page token; pass the nextPageToken of the previous page of this same search, or omit it for the first page',
    damaged: 'pageToken is damaged; pass the nextPageToken exactly as returned, or omit it for the first page',
    otherQuery: 'pageToken belongs to a different search (other q or includeDisabled); start again without a pageToken',
  },
});

export function encodePageToken(binding: string, last: RankKey): string {
  return searchTokens.encode(binding, [last.count, last.tier, last.modifiedAtMs, last.toolID]);
}

/** The rank tuple to continue after; throws INVALID_INPUT when the token is damaged or from another search. */
export function decodePageToken(token: string, binding: string): RankKey {
  const [count, tier, modifiedAtMs, toolID] = searchTokens.decode(token, binding);
  return { count, tier, modifiedAtMs, toolID };
}
