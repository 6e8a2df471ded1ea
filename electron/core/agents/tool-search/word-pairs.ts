/**
 * Which words of a tool's name a task's words go with, learned from the team's written training
 * phrasings: "song" went with tools named "track", "sms" with "message", "page" with "incident",
 * "free" with "freebusy". Unlike word-apis.ts it does not name the tool or its API, so it reaches
 * tools no phrasing was written for: any tool whose name says "track" gains from "song".
 *
 * The table (word-pairs.json): per query term, the phrasings holding it and, per term of the
 * meant tool's name and title that the phrasing did not say itself, how many of them meant a tool
 * with it (pairs seen at least twice). The re-ranker gets, per candidate, the sum over the query's
 * words of the best P(name word | query word) among its name's words. Cross-fitted in training as
 * word-apis.ts is (train-reranker.ts).
 */
import shipped from './word-pairs.json' with { type: 'json' };
import { conditionalProbabilities, type WordTable } from './word-table.js';

/** query term → [phrasings holding it, { name term → how many of them meant a tool whose name holds it }]. */
export type WordPairTable = WordTable;

export class WordPairs {
  /** query term → (name term id → P). */
  private readonly byTerm: Map<string, Map<number, number>>;

  /** `idOf`: a term's id in the index, undefined when no tool holds it. */
  constructor(table: WordPairTable, idOf: (term: string) => number | undefined) {
    this.byTerm = conditionalProbabilities(table, idOf);
  }

  /** Writes each candidate's feature (`slot` of its row, rows `stride` apart). */
  fill(
    terms: readonly string[],
    candidates: readonly number[],
    headTerms: Int32Array,
    headStarts: Int32Array,
    out: Float32Array,
    slot: number,
    stride: number,
  ): void {
    const maps: Map<number, number>[] = [];
    for (const term of terms) {
      const map = this.byTerm.get(term);
      if (map) maps.push(map);
    }
    candidates.forEach((d, r) => {
      let sum = 0;
      for (const map of maps) {
        let best = 0;
        for (let i = headStarts[d]!; i < headStarts[d + 1]!; i++) best = Math.max(best, map.get(headTerms[i]!) ?? 0);
        sum += best;
      }
      out[r * stride + slot] = sum;
    });
  }
}

export function shippedWordPairs(): WordPairTable {
  return shipped as unknown as WordPairTable;
}
