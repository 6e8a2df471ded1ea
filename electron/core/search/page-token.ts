/**
 * Opaque page tokens of the search: the rank tuple of the last item on the page (keyset
 * paging, so creating or deleting tools between pages never repeats or skips an unchanged
 * item) plus a hash of what was searched (folded query words + includeDisabled), so a token
 * handed to a different search is refused instead of silently paging through the wrong list.
 */
import { createHash } from 'node:crypto';
import { CoreError } from '../errors.js';
import type { RankKey } from './rank.js';

const TOKEN_PREFIX = 'ts1.';
const MAX_TOOL_ID_LENGTH = 128;

/** Identifies one search; queries that fold to the same words share it ("Météo" and "meteo"). */
export function searchBinding(queryWords: readonly string[], includeDisabled: boolean): string {
  return createHash('sha256')
    .update(JSON.stringify([queryWords, includeDisabled]))
    .digest('base64url')
    .slice(0, 16);
}

export function encodePageToken(binding: string, last: RankKey): string {
  const payload = JSON.stringify([binding, last.count, last.tier, last.modifiedAtMs, last.toolID]);
  return TOKEN_PREFIX + Buffer.from(payload, 'utf8').toString('base64url');
}

/** The rank tuple to continue after; throws INVALID_INPUT when the token is damaged or from another search. */
export function decodePageToken(token: string, binding: string): RankKey {
  if (!token.startsWith(TOKEN_PREFIX)) {
    throw badToken('pageToken is not a search page token; pass the nextPageToken of the previous page of this same search, or omit it for the first page');
  }
  const decoded = parsePayload(token.slice(TOKEN_PREFIX.length));
  if (!decoded) {
    throw badToken('pageToken is damaged; pass the nextPageToken exactly as returned, or omit it for the first page');
  }
  if (decoded.binding !== binding) {
    throw badToken('pageToken belongs to a different search (other q or includeDisabled); start again without a pageToken');
  }
  return decoded.key;
}

function parsePayload(encoded: string): { binding: string; key: RankKey } | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 5) return undefined;
  const [binding, count, tier, modifiedAtMs, toolID] = value as unknown[];
  if (typeof binding !== 'string') return undefined;
  if (!Number.isInteger(count) || (count as number) < 1) return undefined;
  if (tier !== 0 && tier !== 1 && tier !== 2) return undefined;
  if (!Number.isSafeInteger(modifiedAtMs)) return undefined;
  if (typeof toolID !== 'string' || toolID.length === 0 || toolID.length > MAX_TOOL_ID_LENGTH) return undefined;
  return { binding, key: { count: count as number, tier, modifiedAtMs: modifiedAtMs as number, toolID } };
}

function badToken(message: string): CoreError {
  return new CoreError('INVALID_INPUT', message, { issues: [{ field: 'pageToken', message }] });
}
