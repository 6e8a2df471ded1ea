/**
 * Counts the tables of electron/core/agents/tool-search/word-apis.ts and word-pairs.ts from
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

export function countWordPairs(queries: readonly LabelledQuery[], corpus: readonly CorpusEntry[]): WordPairTable {
  const analyzer = createAnalyzer();
  const byName = new Map(corpus.map((e) => [e.name, e]));
  const counts = new Map<string, [number, Map<string, number>]>();
  for (const { query, expected } of queries) {
    const tool = byName.get(expected[0]!);
    if (!tool) continue;
    const terms = queryTerms(analyzer, query);
    const head = new Set([...analyzer.terms(tool.name), ...analyzer.terms(tool.title)].filter((t) => !terms.has(t)));
    for (const term of terms) {
      let entry = counts.get(term);
      if (!entry) counts.set(term, (entry = [0, new Map()]));
      entry[0]++;
      for (const h of head) entry[1].set(h, (entry[1].get(h) ?? 0) + 1);
    }
  }
  const terms: WordPairTable['terms'] = {};
  for (const [term, [total, pairs]] of sorted(counts)) {
    const kept = sorted([...pairs].filter(([, n]) => n >= MIN_PAIR));
    if (kept.length) terms[term] = [total, Object.fromEntries(kept)];
  }
  return { terms };
}

export function countWordApis(queries: readonly LabelledQuery[], corpus: readonly CorpusEntry[]): WordApiTable {
  const analyzer = createAnalyzer();
  const apiOf = new Map(corpus.map((e) => [e.name, e.bundle]));
  const counts = new Map<string, [number, Map<string, number>]>();
  for (const { query, expected } of queries) {
    const apis = new Set(expected.flatMap((name) => apiOf.get(name) ?? []));
    const terms = queryTerms(analyzer, query);
    for (const term of terms) {
      let entry = counts.get(term);
      if (!entry) counts.set(term, (entry = [0, new Map()]));
      entry[0]++;
      for (const api of apis) entry[1].set(api, (entry[1].get(api) ?? 0) + 1);
    }
  }
  const terms: WordApiTable['terms'] = {};
  for (const [term, [total, apis]] of sorted(counts)) terms[term] = [total, Object.fromEntries(sorted(apis))];
  return { terms };
}

/**
 * Sets the ranker's table, before each training phrasing's features are computed, to the one
 * counted without the phrasing's fold: the features a model is fitted on never hold the
 * phrasing's own label, as the features of a task it has not seen never do.
 */
export function crossFitting(ranker: Bm25fRanker, counted: readonly LabelledQuery[], corpus: readonly CorpusEntry[]): (query: string) => void {
  const tables = Array.from(
    { length: FOLDS },
    (_, k) =>
      new WordApis(
        countWordApis(
          counted.filter((q) => foldOf(q.query) !== k),
          corpus,
        ),
        ranker.bundleIds,
      ),
  );
  const pairs = Array.from(
    { length: FOLDS },
    (_, k) =>
      new WordPairs(
        countWordPairs(
          counted.filter((q) => foldOf(q.query) !== k),
          corpus,
        ),
        (term) => ranker.termId(term),
      ),
  );
  return (query) => {
    ranker.wordApis = tables[foldOf(query)];
    ranker.wordPairs = pairs[foldOf(query)];
  };
}
