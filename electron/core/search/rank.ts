/**
 * The order of search results, as one total order on a rank tuple:
 *   1. tier: prefix (0) before whole word (1) before fuzzy (2), the spec's order,
 *   2. more distinct query words matched first,
 *   3. newer modifiedAt first,
 *   4. toolID ascending, so equal results still come in one fixed order.
 * Page tokens carry this tuple (keyset paging), so the order must depend on nothing else.
 */
export interface RankKey {
  count: number;
  tier: number;
  modifiedAtMs: number;
  toolID: string;
}

export const TIER_NAMES = ['prefix', 'word', 'fuzzy'] as const;
export type TierName = (typeof TIER_NAMES)[number];
export const TIER_PREFIX = 0;
export const TIER_WORD = 1;
export const TIER_FUZZY = 2;

/** Negative when a ranks before b. */
export function compareRank(a: RankKey, b: RankKey): number {
  if (a.tier !== b.tier) return a.tier - b.tier;
  if (a.count !== b.count) return b.count - a.count;
  if (a.modifiedAtMs !== b.modifiedAtMs) return b.modifiedAtMs - a.modifiedAtMs;
  return a.toolID < b.toolID ? -1 : a.toolID > b.toolID ? 1 : 0;
}

/** Decreases along the result order; equal for results that differ only in recency or toolID. */
export function rankScore(key: Pick<RankKey, 'count' | 'tier'>): number {
  // count is at most MAX_QUERY_WORDS (32), so a tier outweighs any count.
  return (3 - key.tier) * 100 + key.count;
}

/**
 * Keeps the `limit` best items offered, in O(n log limit): a page of 20 out of 10,000 matches
 * does not pay for sorting all of them. A max-heap whose root is the worst item kept.
 */
export class TopK<T extends RankKey> {
  private readonly heap: T[] = [];
  constructor(private readonly limit: number) {}

  offer(item: T): void {
    const heap = this.heap;
    if (heap.length < this.limit) {
      heap.push(item);
      this.siftUp(heap.length - 1);
    } else if (this.limit > 0 && compareRank(item, heap[0]!) < 0) {
      heap[0] = item;
      this.siftDown(0);
    }
  }

  /** Best first. */
  sorted(): T[] {
    return [...this.heap].sort(compareRank);
  }

  private siftUp(index: number): void {
    const heap = this.heap;
    const item = heap[index]!;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (compareRank(heap[parent]!, item) >= 0) break;
      heap[index] = heap[parent]!;
      index = parent;
    }
    heap[index] = item;
  }

  private siftDown(index: number): void {
    const heap = this.heap;
    const item = heap[index]!;
    const length = heap.length;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      const worse = right < length && compareRank(heap[right]!, heap[left]!) > 0 ? right : left;
      if (compareRank(heap[worse]!, item) <= 0) break;
      heap[index] = heap[worse]!;
      index = worse;
    }
    heap[index] = item;
  }
}
