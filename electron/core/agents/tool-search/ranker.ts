/**
 * BM25F over the fields of fields.ts, with query words widened by synonyms.ts and a small
 * usage prior. Everything that does not depend on the query is computed once when the index is
 * built: each (term, tool) posting holds its saturated, length-normalised, field-weighted
 * frequency, so a query is a few passes over typed arrays.
 *
 * Score of a tool = Σ over query words of max over (the word, its synonyms at SYNONYM_WEIGHT)
 * of idf(term) · tf̃ / (K1 + tf̃), where tf̃ = Σ_fields weight · tf / (1 − b + b · len / avgLen);
 * then × (1 + USAGE_WEIGHT · log(1 + calls) / log(1 + most calls)). The max keeps a tool that
 * says "get" and "retrieve" from counting one query word twice.
 */
import type { ToolSearchEntry, ToolSearchMatch } from './entry.js';
import { createAnalyzer } from './analyze.js';
import { FIELDS, K1 } from './fields.js';
import { SYNONYM_WEIGHT, synonymTable } from './synonyms.js';
import { explain, type MatchedWord } from './why.js';
import { type Action, ACTION_COUNT, actionAgreement, ACTION_WEIGHT, queryAction, taskPhraseWords, toolAction, widenedVerbs } from './actions.js';

/** At most this much of a query is read; a pasted megabyte costs no more than a paragraph. */
export const MAX_QUERY_CHARS = 2_000;
/** At most this many distinct words of a query count. */
export const MAX_QUERY_WORDS = 32;
/** The most-used tool gets at most this much more score than an unused one: enough to break ties. */
export const USAGE_WEIGHT = 0.03;

/**
 * How much each agreement beyond the words' BM25F multiplies a tool's score by (1 + weight · x):
 * coverage, the idf-weighted share of the query's words the tool matches in any field; head, the
 * share of the tool's own name and title words the query holds (so a long name that repeats the
 * query's nouns does not win over a short one that is all query); action, the agreement of what
 * the task asks (read, list, create, …) with what the tool does; service, a tool of the bundle
 * the query names ("on GitHub").
 */
export const RANKING = { coverage: 1, head: 1, action: 0.6, service: 1 };
/** A bundle word names a service when at most this many bundles hold it … */
const MAX_SERVICE_BUNDLES = 3;
/** … and at least this share of the tools holding it anywhere are of those bundles. */
const MIN_SERVICE_SHARE = 0.5;

interface Postings {
  id: number;
  idf: number;
  docs: Int32Array;
  saturated: Float32Array;
  /** Bit i: the term occurs in FIELDS[i]. */
  fields: Uint8Array;
}

interface QueryWord {
  word: string;
  /** What matching this word counts for coverage: its best expansion's idf. */
  weight: number;
  expansions: { term: string; weight: number; postings: Postings }[];
}

const NAME = FIELDS.findIndex((f) => f.label === 'name');
const TITLE = FIELDS.findIndex((f) => f.label === 'title');
const BUNDLE = FIELDS.findIndex((f) => f.label === 'bundle');

export interface RankerOptions {
  /**
   * Groups besides synonyms.ts's, at their own weight: how the WordNet trial of
   * docs/tool-search.md was measured (test/bench/toolsearch/wordnet-trial.ts). None ships.
   */
  moreSynonyms?: { table: ReadonlyMap<string, readonly string[]>; weight: number };
}

export class Bm25fRanker {
  private readonly postings = new Map<string, Postings>();
  private readonly analyzer = createAnalyzer();
  private readonly synonyms = synonymTable();
  private readonly usageBoost: Float32Array;
  private readonly scores: Float32Array;
  private readonly wordScores: Float32Array;
  private readonly covered: Float32Array;
  /** Per tool, the distinct terms of its name and title. */
  private headTerms = new Int32Array(0);
  /** Tool d's head terms are headTerms[headStarts[d] … headStarts[d + 1]). */
  private readonly headStarts: Int32Array;
  private readonly actions: Uint8Array;
  private readonly bundleOf: Int32Array;
  /** Bundle words that name a service → the bundles they name. */
  private readonly services = new Map<string, number[]>();
  /** Per term id, its weight in the running query (0 when not one of its terms); cleared after each. */
  private queryWeight = new Float32Array(0);

  constructor(
    private readonly entries: readonly ToolSearchEntry[],
    private readonly options: RankerOptions = {},
  ) {
    const count = entries.length;
    this.scores = new Float32Array(count);
    this.wordScores = new Float32Array(count);
    this.covered = new Float32Array(count);
    this.actions = new Uint8Array(count);
    this.bundleOf = new Int32Array(count);
    this.headStarts = new Int32Array(count + 1);
    this.usageBoost = new Float32Array(count);
    const mostCalls = entries.reduce((most, e) => Math.max(most, e.calls > 0 && Number.isFinite(e.calls) ? e.calls : 0), 0);
    for (let d = 0; d < count; d++) {
      const calls = entries[d]!.calls > 0 && Number.isFinite(entries[d]!.calls) ? entries[d]!.calls : 0;
      this.usageBoost[d] = 1 + (mostCalls > 0 ? (USAGE_WEIGHT * Math.log1p(calls)) / Math.log1p(mostCalls) : 0);
    }
    this.build();
  }

  /**
   * Two passes: the first turns each field into term numbers and sums the field lengths, the
   * second weighs each (term, tool) once the average lengths are known. Numbers and flat arrays,
   * not objects per word: a million words of real tool text made the collector the slow part.
   */
  private build(): void {
    const count = this.entries.length;
    const termIDs = new Map<string, number>();
    const termNames: string[] = [];
    const idOf = (term: string) => {
      let id = termIDs.get(term);
      if (id === undefined) {
        id = termNames.length;
        termIDs.set(term, id);
        termNames.push(term);
      }
      return id;
    };
    const fieldCount = FIELDS.length;
    const docTerms: Int32Array[] = [];
    const docFieldEnds: Int32Array[] = [];
    const totalLength = new Float64Array(fieldCount);
    const bundleIDs = new Map<string, number>();
    const bundleSizes: number[] = [];
    const bundleWords = new Map<string, Set<number>>();
    const heads: number[] = [];
    this.entries.forEach((entry, d) => {
      const ids: number[] = [];
      const ends = new Int32Array(fieldCount);
      const fieldTerms = FIELDS.map((field, f) => {
        const terms = this.analyzer.terms(field.text(entry));
        for (const term of terms) ids.push(idOf(term));
        ends[f] = ids.length;
        totalLength[f]! += terms.length;
        return terms;
      });
      docTerms.push(Int32Array.from(ids));
      docFieldEnds.push(ends);
      const nameTerms = fieldTerms[NAME]!;
      const titleTerms = fieldTerms[TITLE]!;
      for (const id of new Set([...nameTerms, ...titleTerms].map(idOf))) heads.push(id);
      this.headStarts[d + 1] = heads.length;
      this.actions[d] = toolAction(nameTerms, titleTerms);
      let bundle = bundleIDs.get(entry.bundle);
      if (bundle === undefined) {
        bundle = bundleSizes.length;
        bundleIDs.set(entry.bundle, bundle);
        bundleSizes.push(0);
        for (const term of fieldTerms[BUNDLE]!) bundleWords.set(term, (bundleWords.get(term) ?? new Set()).add(bundle));
      }
      bundleSizes[bundle]!++;
      this.bundleOf[d] = bundle;
    });
    const fieldFactor = FIELDS.map((field, f) => {
      const average = Math.max(1, totalLength[f]! / Math.max(1, count));
      return { weight: field.weight, b: field.b, average };
    });

    const postingDocs: number[][] = termNames.map(() => []);
    const postingWeights: number[][] = termNames.map(() => []);
    const postingFields: number[][] = termNames.map(() => []);
    const weight = new Float64Array(termNames.length);
    const fields = new Uint8Array(termNames.length);
    const touched: number[] = [];
    for (let d = 0; d < count; d++) {
      const ids = docTerms[d]!;
      const ends = docFieldEnds[d]!;
      let start = 0;
      for (let f = 0; f < fieldCount; f++) {
        const { weight: fieldWeight, b, average } = fieldFactor[f]!;
        const length = ends[f]! - start;
        const norm = fieldWeight / (1 - b + (b * length) / average);
        for (let i = start; i < ends[f]!; i++) {
          const id = ids[i]!;
          if (weight[id] === 0) touched.push(id);
          weight[id]! += norm;
          fields[id]! |= 1 << f;
        }
        start = ends[f]!;
      }
      for (const id of touched) {
        postingDocs[id]!.push(d);
        postingWeights[id]!.push(weight[id]! / (K1 + weight[id]!));
        postingFields[id]!.push(fields[id]!);
        weight[id] = 0;
        fields[id] = 0;
      }
      touched.length = 0;
    }
    this.queryWeight = new Float32Array(termNames.length);
    this.headTerms = Int32Array.from(heads);
    termNames.forEach((term, id) => {
      const df = postingDocs[id]!.length;
      const bundles = bundleWords.get(term);
      if (bundles && bundles.size <= MAX_SERVICE_BUNDLES) {
        const tools = [...bundles].reduce((sum, b) => sum + bundleSizes[b]!, 0);
        if (tools >= MIN_SERVICE_SHARE * df) this.services.set(term, [...bundles]);
      }
      this.postings.set(term, {
        id,
        idf: Math.log(1 + (count - df + 0.5) / (df + 0.5)),
        docs: Int32Array.from(postingDocs[id]!),
        saturated: Float32Array.from(postingWeights[id]!),
        fields: Uint8Array.from(postingFields[id]!),
      });
    });
  }

  /** The query's words with their expansions, what it asks to do, and the bundles it names. */
  private parse(query: string): { words: QueryWord[]; action: Action; bundles: Set<number> } {
    const text = query.slice(0, MAX_QUERY_CHARS);
    const analyzed = [...this.analyzer.words(text), ...taskPhraseWords(text).map((word) => ({ word, term: stemOf(this.analyzer, word) }))];
    const { action, verb } = queryAction(
      text,
      analyzed.map((a) => a.term),
    );
    const words: QueryWord[] = [];
    const bundles = new Set<number>();
    const seen = new Set<string>();
    for (const { word, term } of analyzed) {
      if (seen.has(term)) continue;
      seen.add(term);
      const candidates: [string, number][] = [[term, 1]];
      for (const synonym of this.synonyms.get(term) ?? []) candidates.push([synonym, SYNONYM_WEIGHT]);
      const more = this.options.moreSynonyms;
      for (const synonym of more?.table.get(term) ?? []) candidates.push([synonym, more!.weight]);
      if (term === verb) for (const widened of widenedVerbs(term)) candidates.push([widened, ACTION_WEIGHT]);
      const expansions: QueryWord['expansions'] = [];
      for (const [candidate, weight] of candidates) {
        const postings = this.postings.get(candidate);
        if (postings && !expansions.some((e) => e.term === candidate)) expansions.push({ term: candidate, weight, postings });
      }
      for (const bundle of this.services.get(term) ?? []) bundles.add(bundle);
      if (expansions.length) words.push({ word, weight: Math.max(...expansions.map((e) => e.weight * e.postings.idf)), expansions });
      if (seen.size >= MAX_QUERY_WORDS) break;
    }
    return { words, action, bundles };
  }

  search(query: string, limit: number): ToolSearchMatch[] {
    const wanted = Math.min(Math.floor(limit), this.entries.length);
    if (!(wanted > 0) || typeof query !== 'string') return [];
    const { words, action, bundles } = this.parse(query);
    if (!words.length) return [];

    const { scores, wordScores, covered } = this;
    let totalWeight = 0;
    for (const word of words) {
      totalWeight += word.weight;
      for (const { postings, weight } of word.expansions) this.queryWeight[postings.id] = Math.max(this.queryWeight[postings.id]!, weight);
    }
    const touched: number[] = [];
    for (const { weight: wordWeight, expansions } of words) {
      const wordTouched: number[] = [];
      for (const { weight, postings } of expansions) {
        const { docs, saturated } = postings;
        const factor = weight * postings.idf;
        for (let i = 0; i < docs.length; i++) {
          const d = docs[i]!;
          const s = factor * saturated[i]!;
          if (wordScores[d] === 0) wordTouched.push(d);
          if (s > wordScores[d]!) wordScores[d] = s;
        }
      }
      for (const d of wordTouched) {
        if (scores[d] === 0) touched.push(d);
        scores[d]! += wordScores[d]!;
        covered[d]! += wordWeight;
        wordScores[d] = 0;
      }
    }
    // Per-tool factors as table lookups: this loop may visit every tool.
    const actionFactor = Float32Array.from({ length: ACTION_COUNT }, (_, toolAction) => 1 + RANKING.action * actionAgreement(action, toolAction as Action));
    const { queryWeight, headTerms, headStarts, actions, bundleOf, usageBoost } = this;
    const coverageFactor = RANKING.coverage / totalWeight;
    for (const d of touched) {
      const start = headStarts[d]!;
      const end = headStarts[d + 1]!;
      let inQuery = 0;
      for (let i = start; i < end; i++) inQuery += queryWeight[headTerms[i]!]!;
      scores[d]! *=
        usageBoost[d]! *
        (1 + coverageFactor * covered[d]!) *
        (1 + (RANKING.head * inQuery) / Math.max(1, end - start)) *
        actionFactor[actions[d]!]! *
        (bundles.size && bundles.has(bundleOf[d]!) ? 1 + RANKING.service : 1);
      covered[d] = 0;
    }

    const best = topK(
      touched,
      wanted,
      (d) => scores[d]!,
      (d) => this.entries[d]!.name,
    );
    const matches = best.map((d) => ({
      name: this.entries[d]!.name,
      score: Math.round(scores[d]! * 1000) / 1000,
      why: explain(this.entries[d]!, this.matchedWords(d, words), this.analyzer),
    }));
    for (const d of touched) scores[d] = 0;
    for (const word of words) for (const { postings } of word.expansions) this.queryWeight[postings.id] = 0;
    return matches;
  }

  private matchedWords(doc: number, words: readonly QueryWord[]): MatchedWord[] {
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
          best = { word, term, viaSynonym: weight < 1 ? this.analyzer.surface(term) : undefined, fields: postings.fields[i]! };
        }
      }
      if (best) out.push(best);
    }
    return out;
  }
}

function stemOf(analyzer: { terms(text: string): string[] }, word: string): string {
  return analyzer.terms(word)[0] ?? word;
}

function indexOf(sorted: Int32Array, value: number): number {
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
function topK(candidates: readonly number[], k: number, score: (d: number) => number, name: (d: number) => string): number[] {
  const better = (a: number, b: number) => score(a) > score(b) || (score(a) === score(b) && name(a) < name(b));
  if (k > 64) return [...candidates].sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0)).slice(0, k);
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
