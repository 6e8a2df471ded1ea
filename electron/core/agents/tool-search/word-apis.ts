/**
 * Which API a task's words point to, learned from the team's written training phrasings: "song"
 * went with Spotify's tools, "sms" with Twilio's, "configmap" and "pod" with Kubernetes', "on
 * call" with PagerDuty's. A task that names no service still says which one it means the way
 * people name it; the tools' own text often does not ("what song is playing" holds no word of
 * `get-the-users-currently-playing-track`'s bundle).
 *
 * The table (word-apis.json) counts, per query term, the training phrasings that held it and how
 * many of them meant a tool of each API; written by test/bench/toolsearch/train-reranker.ts from
 * the phrasings that are not held out. The re-ranker gets two features per candidate: the sum
 * over the query's words of P(its API | word), and that sum against the best API's. During
 * training each phrasing's features come from a table counted without its own fold
 * (cross-fitted), so the trees learn how far the association generalises, not its own labels.
 */
import shipped from './word-apis.json' with { type: 'json' };
import { conditionalProbabilities, type WordTable } from './word-table.js';

/** term → [phrasings holding it, { api (bundle) → how many of them meant a tool of it }]. */
export type WordApiTable = WordTable;

export interface WordApiSlots {
  sum: number;
  relative: number;
  stride: number;
}

export class WordApis {
  /** term → (bundle id → P(bundle | term)). */
  private readonly byTerm: Map<string, Map<number, number>>;
  private readonly sums: Float32Array;

  /** `bundleIds`: an API's name → the ranker's bundle id; APIs the table names that are not here are skipped. */
  constructor(table: WordApiTable, bundleIds: ReadonlyMap<string, number>) {
    this.byTerm = conditionalProbabilities(table, (api) => bundleIds.get(api));
    this.sums = new Float32Array(Math.max(0, ...bundleIds.values()) + 1);
  }

  /** Writes each candidate's two features into its row of `out`. */
  fill(terms: readonly string[], candidates: readonly number[], bundleOf: Int32Array, out: Float32Array, slots: WordApiSlots): void {
    const { sums } = this;
    const touched: number[] = [];
    let best = 0;
    for (const term of terms)
      for (const [bundle, p] of this.byTerm.get(term) ?? []) {
        if (sums[bundle] === 0) touched.push(bundle);
        sums[bundle]! += p;
        if (sums[bundle]! > best) best = sums[bundle]!;
      }
    candidates.forEach((d, r) => {
      const s = sums[bundleOf[d]!]!;
      out[r * slots.stride + slots.sum] = s;
      out[r * slots.stride + slots.relative] = best > 0 ? s / best : 0;
    });
    for (const b of touched) sums[b] = 0;
  }
}

export function shippedWordApis(): WordApiTable {
  return shipped as unknown as WordApiTable;
}
