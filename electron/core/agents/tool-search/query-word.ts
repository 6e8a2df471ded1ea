/**
 * A query's word as the ranker holds it (the word, its term, its expansions' postings), and what
 * is read of one tool against those words after ranking: its relevance (search_tools's floor)
 * and the words it matched, per field (its `why`).
 */
import type { Analyzer } from './analyze.js';
import { FIELDS } from './fields.js';
import type { Postings } from './inverted-index.js';
import type { LearnedField } from './learned.js';
import { indexOf } from './top-k.js';
import type { MatchedWord } from './why.js';

export interface QueryWord {
  word: string;
  term: string;
  /** What matching this word counts for coverage: its best expansion's idf. */
  weight: number;
  expansions: { term: string; weight: number; postings: Postings }[];
}

/** A word with a digit (a number, a date, an id) is an argument's value, not what the task is: relevance leaves it out. */
export const ARGUMENT_VALUE = /\d/;

/**
 * How much of what the query says a tool answers, 0 to 1: the idf-weighted share of the query's
 * words it holds in any field (a synonym or widened verb at its weight, a learned word at its
 * idf), the query's words that no tool holds (`unknownWeight`) counting against every tool as the
 * rarest word of the index. What search_tools's relevance floor is compared with
 * (docs/tool-search.md).
 */
export function relevanceOf(doc: number, words: readonly QueryWord[], unknownWeight: number, learned: LearnedField): number {
  let matched = 0;
  let whole = unknownWeight;
  for (const word of words) {
    if (ARGUMENT_VALUE.test(word.word)) continue;
    whole += word.weight;
    let best = learned.score(doc, [word]);
    for (const { weight, postings } of word.expansions) {
      if (weight * postings.idf <= best) continue;
      const i = indexOf(postings.docs, doc);
      if (i >= 0) best = Math.max(best, weight * postings.idf * postings.saturated[i]!);
    }
    matched += Math.min(best, word.weight);
  }
  return whole > 0 ? matched / whole : 0;
}

/** Per query word, the expansion that matched the tool best and the fields it matched in, and the words it learned. */
export function matchedWordsOf(doc: number, words: readonly QueryWord[], learned: LearnedField, analyzer: Analyzer): MatchedWord[] {
  const out: MatchedWord[] = [];
  for (const { word, expansions } of words) {
    let best: MatchedWord | undefined;
    let bestScore = 0;
    for (const { term, weight, postings } of expansions) {
      const i = indexOf(postings.docs, doc);
      if (i < 0) continue;
      const s = weight * postings.idf * postings.saturated[i]!;
      if (s > bestScore) {
        bestScore = s;
        best = { word, term, viaSynonym: weight < 1 ? analyzer.surface(term) : undefined, fields: postings.fields[i]! };
      }
    }
    if (best) out.push(best);
    if (learned.holds(doc, word)) out.push({ word, term: word, viaSynonym: undefined, fields: 1 << FIELDS.length });
  }
  return out;
}
