/**
 * The shape both learned word tables share (word-apis.json, word-pairs.json), counted from the
 * team's written training phrasings by test/bench/toolsearch/word-tables.ts, and how a table
 * becomes probabilities.
 */
export interface WordTable {
  about?: string;
  /** query term → [phrasings holding it, { key (an API, or a word of a tool's name) → how many of them meant a tool with it }]. */
  terms: Record<string, [number, Record<string, number>]>;
}

/** Added to a term's count: a word seen once says what it goes with at 1/(1 + 1), not certainty. */
const SMOOTHING = 1;

/** term → (id → P(key | term)), for the keys `idOf` knows; terms left with none are left out. */
export function conditionalProbabilities(table: WordTable, idOf: (key: string) => number | undefined): Map<string, Map<number, number>> {
  const byTerm = new Map<string, Map<number, number>>();
  for (const [term, [total, counts]] of Object.entries(table.terms)) {
    const byId = new Map<number, number>();
    for (const [key, n] of Object.entries(counts)) {
      const id = idOf(key);
      if (id !== undefined) byId.set(id, n / (total + SMOOTHING));
    }
    if (byId.size) byTerm.set(term, byId);
  }
  return byTerm;
}
