/**
 * Counts the tables of electron/core/agents/tool-search/word-apis.ts and word-pairs.ts (both) from
 * written phrasings: per query term, how many phrasings held it and how many of them meant a tool
 * of each API, or a tool whose name holds each word. And the cross-fitting the trainer and the
 * cross-validation share: five folds by a hash of the phrasing, each phrasing's features computed
 * with the tables counted without its fold.
 */
import { createHash } from 'node:crypto';
import { createAnalyzer } from '../../../electron/core/agents/tool-search/analyze.js';
import type { Bm25fRanker } from '../../../electron/core/agents/tool-search/ranker.js';
import { type WordApiTable, WordApis } from '../../../electron/core/agents/tool-search/word-apis.js';
import { type WordPairTable, WordPairs } from '../../../electron/core/agents/tool-search/word-pairs.js';
import type { CorpusEntry, LabelledQuery } from './evaluate.js';

export const FOLDS = 5;
/** The fold of a phrasing: cross-validate.ts judges fold k by a model fitted on the others, with the same folds. */
export const foldOf = (query: string) => createHash('sha256').update(`fold:${query}`).digest()[0]! % FOLDS;

/** A word with a digit is an argument's value (an id, a number), not what names a service. */
const VALUE = /\d/;

function queryTerms(analyzer: ReturnType<typeof createAnalyzer>, query: string): Set<string> {
  return new Set(
    analyzer
      .words(query)
      .filter((w) => !VALUE.test(w.word))
      .map((w) => w.term),
  );
}

const sorted = <T>(entries: Iterable<[string, T]>) => [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** A (query word, name word) pair seen fewer times than this is chance, not an association. */
const MIN_PAIR = 2;

type Counts = Map<string, [number, Map<string, number>]>;

/**
 * Per query term of the phrasings: how many held it, and how many of them gave each target
 * (`targetsOf`: what the phrasing's meant tool says, given the phrasing's own terms; undefined
 * skips the phrasing). At least `least` of a target to keep it.
 */
function countTargets(
  queries: readonly LabelledQuery[],
  targetsOf: (expected: readonly string[], terms: ReadonlySet<string>, analyzer: ReturnType<typeof createAnalyzer>) => Iterable<string> | undefined,
  least: number,
): Record<string, [number, Record<string, number>]> {
  const analyzer = createAnalyzer();
  const counts: Counts = new Map();
  for (const { query, expected } of queries) {
    const terms = queryTerms(analyzer, query);
    const targets = targetsOf(expected, terms, analyzer);
    if (!targets) continue;
    const unique = new Set(targets);
    for (const term of terms) {
      let entry = counts.get(term);
      if (!entry) counts.set(term, (entry = [0, new Map()]));
      entry[0]++;
      for (const target of unique) entry[1].set(target, (entry[1].get(target) ?? 0) + 1);
    }
  }
  const out: Record<string, [number, Record<string, number>]> = {};
  for (const [term, [total, targets]] of sorted(counts)) {
    const kept = sorted([...targets].filter(([, n]) => n >= least));
    if (kept.length) out[term] = [total, Object.fromEntries(kept)];
  }
  return out;
}

export function countWordPairs(queries: readonly LabelledQuery[], corpus: readonly CorpusEntry[]): WordPairTable {
  const byName = new Map(corpus.map((e) => [e.name, e]));
  const headOf = (expected: readonly string[], terms: ReadonlySet<string>, analyzer: ReturnType<typeof createAnalyzer>) => {
    const tool = byName.get(expected[0]!);
    return tool && [...analyzer.terms(tool.name), ...analyzer.terms(tool.title)].filter((t) => !terms.has(t));
  };
  return { terms: countTargets(queries, headOf, MIN_PAIR) };
}

/**
 * A description pair must be this many times likelier than the description word is among all
 * the phrasings' meant tools: descriptions are long, and most of their words ("returns", "the
 * specified") go with every task alike.
 */
const DESCRIPTION_LIFT = 3;
/** Descriptions give many chance pairs: a description pair must be seen this often. */
const MIN_DESCRIPTION_PAIR = 3;

export function countDescriptionPairs(queries: readonly LabelledQuery[], corpus: readonly CorpusEntry[]): WordPairTable {
  const byName = new Map(corpus.map((e) => [e.name, e]));
  const described = (expected: readonly string[], terms: ReadonlySet<string>, analyzer: ReturnType<typeof createAnalyzer>) => {
    const tool = byName.get(expected[0]!);
    if (!tool) return undefined;
    const head = new Set([...analyzer.terms(tool.name), ...analyzer.terms(tool.title)]);
    return analyzer.terms(tool.description).filter((t) => !terms.has(t) && !head.has(t) && !VALUE.test(t));
  };
  const table = countTargets(queries, described, MIN_DESCRIPTION_PAIR);
  // How often each description word is a target at all: the chance level of a pair.
  const analyzer = createAnalyzer();
  const base = new Map<string, number>();
  let phrasings = 0;
  for (const { query, expected } of queries) {
    const targets = described(expected, queryTerms(analyzer, query), analyzer);
    if (!targets) continue;
    phrasings++;
    for (const t of new Set(targets)) base.set(t, (base.get(t) ?? 0) + 1);
  }
  const terms: WordPairTable['terms'] = {};
  for (const [term, [total, targets]] of Object.entries(table)) {
    const kept = Object.entries(targets).filter(([t, n]) => n / total >= (DESCRIPTION_LIFT * (base.get(t) ?? 0)) / Math.max(1, phrasings));
    if (kept.length) terms[term] = [total, Object.fromEntries(kept)];
  }
  return { terms };
}

export function countWordApis(queries: readonly LabelledQuery[], corpus: readonly CorpusEntry[]): WordApiTable {
  const apiOf = new Map(corpus.map((e) => [e.name, e.bundle]));
  return { terms: countTargets(queries, (expected) => expected.flatMap((name) => apiOf.get(name) ?? []), 1) };
}

/**
 * Sets the ranker's tables, before each training phrasing's features are computed, to the one
 * counted without the phrasing's fold: the features a model is fitted on never hold the
 * phrasing's own label, as the features of a task it has not seen never do.
 */
export function crossFitting(ranker: Bm25fRanker, counted: readonly LabelledQuery[], corpus: readonly CorpusEntry[]): (query: string) => void {
  const tables = Array.from({ length: FOLDS }, (_, k) => {
    const others = counted.filter((q) => foldOf(q.query) !== k);
    return {
      apis: new WordApis(countWordApis(others, corpus), ranker.bundleIds),
      pairs: new WordPairs(countWordPairs(others, corpus), (term) => ranker.termId(term)),
      descriptionPairs: new WordPairs(countDescriptionPairs(others, corpus), (term) => ranker.termId(term)),
    };
  });
  return (query) => {
    const fold = tables[foldOf(query)]!;
    ranker.wordApis = fold.apis;
    ranker.wordPairs = fold.pairs;
    ranker.descriptionPairs = fold.descriptionPairs;
  };
}
