/** Small array helpers of the ranker: a binary search over a posting list, and the k best tools of a query. */

/** Where value sits in a sorted posting list, or −1. */
export function indexOf(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid]!;
    if (v === value) return mid;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The k best by score, ties by name so equal tools come in a stable order. */
export function topK(candidates: readonly number[], k: number, score: (d: number) => number, name: (d: number) => string): number[] {
  const better = (a: number, b: number) => score(a) > score(b) || (score(a) === score(b) && name(a) < name(b));
  if (k > 64) {
    // A common word touches thousands of tools: find the k-th best score with the engine's numeric
    // sort of a typed array, then order only the tools at or above it (ties included) by the rule.
    let chosen = candidates;
    if (candidates.length > 2 * k) {
      const values = Float64Array.from(candidates, score).sort();
      const threshold = values[values.length - k]!;
      chosen = candidates.filter((d) => score(d) >= threshold);
    }
    return [...chosen].sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0)).slice(0, k);
  }
  const best: number[] = [];
  for (const d of candidates) {
    if (best.length === k && !better(d, best[k - 1]!)) continue;
    let i = best.length === k ? k - 1 : best.length;
    while (i > 0 && better(d, best[i - 1]!)) {
      best[i] = best[i - 1]!;
      i--;
    }
    best[i] = d;
  }
  return best;
}
