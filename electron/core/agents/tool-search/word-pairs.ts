/**
 * Which words of a tool a task's words go with, learned from the team's written training
 * phrasings: "song" went with tools named "track", "sms" with "message", "page" with "incident",
 * "free" with "freebusy". Unlike word-apis.ts it does not name the tool or its API, so it reaches
 * tools no phrasing was written for: any tool whose name says "track" gains from "song".
 *
 * Two tables of the same shape: word-pairs.json pairs a query term with the terms of the meant
 * tool's name and title that the phrasing did not say itself (pairs seen at least twice);
 * word-description-pairs.json with the terms of its description that neither the phrasing nor
 * the name says, kept only where the pair is well above chance ("subscribe" → the "audience" of
 * a Mailchimp member's description, "upload" → "object"). The re-ranker gets, per candidate and
 * table, the sum over the query's words of the best P(tool word | query word) among the
 * candidate's words. Cross-fitted in training as word-apis.ts is (train-reranker.ts).
 */
import shipped from './word-pairs.json' with { type: 'json' };
import shippedDescription from './word-description-pairs.json' with { type: 'json' };
import { conditionalProbabilities, type WordTable } from './word-table.js';

/** query term → [phrasings holding it, { tool term → how many of them meant a tool with it }]. */
export type WordPairTable = WordTable;

/** Where a tool's words lie in `toolTerms`: from bounds[d · step + first] to bounds[d · step + first + 1]. */
export interface ToolSpans {
  step: number;
  first: number;
}

const CONSECUTIVE: ToolSpans = { step: 1, first: 0 };

export class WordPairs {
  /** query term → [tool term ids, their P] (parallel arrays). */
  private readonly byTerm = new Map<string, [Int32Array, Float32Array]>();
  /** P by tool term id for the query word being scored; zero again after each. */
  private readonly dense: Float32Array;

  /** `idOf`: a term's id in the index, undefined when no tool holds it. */
  constructor(table: WordPairTable, idOf: (term: string) => number | undefined) {
    let top = -1;
    for (const [term, byId] of conditionalProbabilities(table, idOf)) {
      this.byTerm.set(term, [Int32Array.from(byId.keys()), Float32Array.from(byId.values())]);
      for (const id of byId.keys()) top = Math.max(top, id);
    }
    this.dense = new Float32Array(top + 1);
  }

  /** Writes each candidate's feature (`slot` of its row, rows `stride` apart). */
  fill(
    terms: readonly string[],
    candidates: readonly number[],
    toolTerms: Int32Array,
    bounds: Int32Array,
    out: Float32Array,
    slot: number,
    stride: number,
    spans: ToolSpans = CONSECUTIVE,
  ): void {
    const { dense } = this;
    const size = dense.length;
    candidates.forEach((_, r) => (out[r * stride + slot] = 0));
    for (const term of terms) {
      const pair = this.byTerm.get(term);
      if (!pair) continue;
      const [ids, ps] = pair;
      for (let i = 0; i < ids.length; i++) dense[ids[i]!] = ps[i]!;
      candidates.forEach((d, r) => {
        const at = d * spans.step + spans.first;
        let best = 0;
        for (let i = bounds[at]!; i < bounds[at + 1]!; i++) {
          const id = toolTerms[i]!;
          if (id < size && dense[id]! > best) best = dense[id]!;
        }
        out[r * stride + slot]! += best;
      });
      for (let i = 0; i < ids.length; i++) dense[ids[i]!] = 0;
    }
  }
}

export function shippedWordPairs(): WordPairTable {
  return shipped as unknown as WordPairTable;
}

export function shippedDescriptionPairs(): WordPairTable {
  return shippedDescription as unknown as WordPairTable;
}
