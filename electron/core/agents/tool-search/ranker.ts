/**
 * Two stages. The first is BM25F over fields.ts's fields with query words widened by
 * synonyms.ts, multiplied by the agreements beyond the words (coverage, head, action, service)
 * and a small usage prior; it visits every tool a query word touches, from typed arrays. The
 * second re-ranks the first's best CANDIDATES by a linear model over features.ts's vector
 * (reranker.ts, weights trained offline); without a model the first stage's order stands.
 *
 * First-stage score of a tool = Σ over query words of max over (the word, its synonyms at
 * SYNONYM_WEIGHT) of idf(term) · tf̃ / (K1 + tf̃), where tf̃ = Σ_fields weight · tf / (1 − b + b ·
 * len / avgLen); plus what the learned field (learned.ts) holds of the query's words; then × the
 * agreements of RANKING and × (1 + USAGE_WEIGHT · log(1 + calls) / log(1 + most calls)). The max
 * keeps a tool that says "get" and "retrieve" from counting one query word twice.
 */
import type { ToolSearchEntry, ToolSearchMatch } from './entry.js';
import { createAnalyzer } from './analyze.js';
import { FIELDS, fieldIndex } from './fields.js';
import { SYNONYM_WEIGHT, synonymTable } from './synonyms.js';
import { explain } from './why.js';
import { ARGUMENT_VALUE, matchedWordsOf, type QueryWord, relevanceOf } from './query-word.js';
import { type Action, ACTION_COUNT, actionAgreement, ACTION_WEIGHT, queryAction, taskPhraseWords, widenedVerbs } from './actions.js';
import { InvertedIndex, type IndexOptions } from './inverted-index.js';
import { loadLexicon } from './lexicon.js';
import { FEATURE, FEATURE_COUNT, FeatureScratch, type QueryTerms } from './features.js';
import { type Reranker, shippedReranker } from './reranker.js';
import { LearnedField } from './learned.js';
import { BundleLevel, fillBundleFeatures } from './bundle-level.js';
import { topK } from './top-k.js';
import { queryShape, type QueryShape, ToolShapes } from './shape.js';
import { queryOperation, type QueryOperation, ToolOperations } from './operation.js';
import { shippedWordApis, type WordApiTable, WordApis } from './word-apis.js';
import { shippedDescriptionPairs, shippedWordPairs, type WordPairTable, WordPairs } from './word-pairs.js';

/** At most this much of a query is read; a pasted megabyte costs no more than a paragraph. */
export const MAX_QUERY_CHARS = 2_000;
/** At most this many distinct words of a query count. */
export const MAX_QUERY_WORDS = 32;
/** The most-used tool gets at most this much more score than an unused one: enough to break ties. */
export const USAGE_WEIGHT = 0.03;
/** How many of the first stage's best the re-ranker orders. */
export const CANDIDATES = 100;

/**
 * How much each agreement beyond the words' BM25F multiplies a tool's first-stage score by
 * (1 + weight · x): coverage, the idf-weighted share of the query's words the tool matches in any
 * field; head, the share of the tool's own name and title words the query holds (so a long name
 * that repeats the query's nouns does not win over a short one that is all query); action, the
 * agreement of what the task asks (read, list, create, …) with what the tool does; service, a
 * tool of the bundle the query names ("on GitHub").
 */
export const RANKING = { coverage: 1, head: 1, action: 0.6, service: 1 };
/** A bundle word names a service when at most this many bundles hold it … */
const MAX_SERVICE_BUNDLES = 3;
/** Where a tool's description terms lie in the index's docTerms (its field's end and the one before). */
const DESCRIPTION_SPANS = { step: FIELDS.length, first: fieldIndex('description') - 1 };
/** … and at least this share of the tools holding it anywhere are of those bundles. */
const MIN_SERVICE_SHARE = 0.5;

interface FirstStage {
  words: QueryWord[];
  action: Action;
  bundles: Set<number>;
  touched: number[];
  totalWeight: number;
  /** What the query's words no tool holds weigh, for relevance: each as much as the rarest word of the index. */
  unknownWeight: number;
  shape: QueryShape;
  operation: QueryOperation;
  /** Every distinct term of the query, those no tool holds too (word-apis.ts knows words tools do not say). */
  terms: string[];
}

export interface RankerOptions extends IndexOptions {
  /**
   * Groups besides synonyms.ts's, at their own weight: how the WordNet trial of
   * docs/tool-search.md was measured (test/bench/toolsearch/wordnet-trial.ts). None ships.
   */
  moreSynonyms?: { table: ReadonlyMap<string, readonly string[]>; weight: number };
  /** The re-ranker: the shipped one by default; null for the first stage alone. */
  reranker?: Reranker | null;
  /** The API-level features (bundle-level.ts); false leaves them at the model's mean, so they count for nothing (the bench's lever table). */
  bundleLevel?: boolean;
  /** false: the re-ranker's linear part alone, without its boosted trees (the bench's lever table). */
  trees?: boolean;
  /** Which API the task's words point to (word-apis.ts): the shipped table by default; null for none. */
  wordApis?: WordApiTable | null;
  /** Which tool-name words the task's words go with (word-pairs.ts): the shipped table by default; null for none. */
  wordPairs?: WordPairTable | null;
  /** Which description words the task's words go with (word-pairs.ts): the shipped table by default; null for none. */
  descriptionPairs?: WordPairTable | null;
}

export class Bm25fRanker {
  private readonly analyzer = createAnalyzer();
  private readonly synonyms = synonymTable();
  private readonly index: InvertedIndex;
  private readonly usageBoost: Float32Array;
  private readonly usage: Float32Array;
  private readonly scores: Float32Array;
  private readonly wordScores: Float32Array;
  private readonly covered: Float32Array;
  /** Bundle words that name a service → the bundles they name. */
  private readonly services = new Map<string, number[]>();
  /** Per term id, its weight in the running query (0 when not one of its terms); cleared after each. */
  private readonly queryWeight: Float32Array;
  private readonly reranker: Reranker | undefined;
  private readonly scratch: FeatureScratch;
  private readonly features = new Float32Array(CANDIDATES * FEATURE_COUNT);
  readonly learned: LearnedField;
  private readonly rarestIdf: number;
  private readonly bundleLevel: BundleLevel | undefined;
  private readonly shapes: ToolShapes;
  private readonly operations: ToolOperations;
  /** Replaced per phrasing while training (cross-fitting: train-reranker.ts). */
  wordApis: WordApis | undefined;
  wordPairs: WordPairs | undefined;
  descriptionPairs: WordPairs | undefined;
  readonly bundleIds = new Map<string, number>();

  constructor(
    private readonly entries: readonly ToolSearchEntry[],
    private readonly options: RankerOptions = {},
  ) {
    const count = entries.length;
    this.index = new InvertedIndex(entries, this.analyzer, loadLexicon(this.analyzer), options);
    this.scores = new Float32Array(count);
    this.wordScores = new Float32Array(count);
    this.covered = new Float32Array(count);
    this.usageBoost = new Float32Array(count);
    this.usage = new Float32Array(count);
    const callsOf = (e: ToolSearchEntry) => (e.calls > 0 && Number.isFinite(e.calls) ? e.calls : 0);
    const mostCalls = entries.reduce((most, e) => Math.max(most, callsOf(e)), 0);
    for (let d = 0; d < count; d++) {
      this.usage[d] = mostCalls > 0 ? Math.log1p(callsOf(entries[d]!)) / Math.log1p(mostCalls) : 0;
      this.usageBoost[d] = 1 + USAGE_WEIGHT * this.usage[d]!;
    }
    this.queryWeight = new Float32Array(this.index.termCount);
    for (const [term, bundles] of this.index.bundleWords) {
      const df = this.index.postings.get(term)?.docs.length ?? 0;
      if (bundles.size > MAX_SERVICE_BUNDLES) continue;
      const tools = [...bundles].reduce((sum, b) => sum + this.index.bundleSizes[b]!, 0);
      if (tools >= MIN_SERVICE_SHARE * df) this.services.set(term, [...bundles]);
    }
    const reranker = options.reranker === null ? undefined : (options.reranker ?? shippedReranker());
    this.reranker = options.trees === false ? reranker?.linearOnly() : reranker;
    this.scratch = new FeatureScratch(this.index);
    this.learned = new LearnedField(entries, this.analyzer, (term) => this.index.postings.get(term)?.docs.length ?? 0);
    this.rarestIdf = Math.log(1 + (count - 1 + 0.5) / 1.5);
    this.bundleLevel = options.bundleLevel === false ? undefined : new BundleLevel(this.index);
    this.shapes = new ToolShapes(entries);
    this.operations = new ToolOperations(entries, this.analyzer);
    entries.forEach((e, d) => this.bundleIds.set(e.bundle, this.index.bundleOf[d]!));
    this.wordApis = options.wordApis === null ? undefined : new WordApis(options.wordApis ?? shippedWordApis(), this.bundleIds);
    this.wordPairs = options.wordPairs === null ? undefined : new WordPairs(options.wordPairs ?? shippedWordPairs(), (term) => this.termId(term));
    this.descriptionPairs =
      options.descriptionPairs === null ? undefined : new WordPairs(options.descriptionPairs ?? shippedDescriptionPairs(), (term) => this.termId(term));
  }

  /** A term's id in the index; undefined when no tool holds it. */
  termId(term: string): number | undefined {
    return this.index.postings.get(term)?.id;
  }

  /** The query's words with their expansions, what it asks to do, and the bundles it names. */
  private parse(query: string): { words: QueryWord[]; action: Action; bundles: Set<number>; unknown: number; terms: string[] } {
    const text = query.slice(0, MAX_QUERY_CHARS);
    const plain = this.analyzer.words(text);
    const analyzed = [...plain, ...taskPhraseWords(text).map((word) => ({ word, term: this.analyzer.terms(word)[0] ?? word }))];
    const { action, verb } = queryAction(
      text,
      analyzed.map((a) => a.term),
    );
    const words: QueryWord[] = [];
    const bundles = new Set<number>();
    const seen = new Set<string>();
    let unknown = 0;
    for (const [i, { word, term }] of analyzed.entries()) {
      if (seen.has(term)) continue;
      seen.add(term);
      const candidates: [string, number][] = [[term, 1]];
      for (const synonym of this.synonyms.get(term) ?? []) candidates.push([synonym, SYNONYM_WEIGHT]);
      const more = this.options.moreSynonyms;
      for (const synonym of more?.table.get(term) ?? []) candidates.push([synonym, more!.weight]);
      if (term === verb) for (const widened of widenedVerbs(term)) candidates.push([widened, ACTION_WEIGHT]);
      const expansions: QueryWord['expansions'] = [];
      for (const [candidate, weight] of candidates) {
        const postings = this.index.postings.get(candidate);
        if (postings && !expansions.some((e) => e.term === candidate)) expansions.push({ term: candidate, weight, postings });
      }
      for (const bundle of this.services.get(term) ?? []) bundles.add(bundle);
      const learnedIdf = this.learned.idf(term);
      if (expansions.length || learnedIdf > 0) {
        const best = Math.max(learnedIdf, ...expansions.map((e) => e.weight * e.postings.idf));
        words.push({ word, term, weight: best, expansions });
      } else if (i < plain.length && !ARGUMENT_VALUE.test(word)) unknown++;
      if (seen.size >= MAX_QUERY_WORDS) break;
    }
    return { words, action, bundles, unknown, terms: [...seen] };
  }

  /**
   * The first stage for a query: fills `scores` of the tools its words touch (and `queryWeight`
   * of its terms) and says which; clear() empties both after.
   */
  private firstStage(query: string): FirstStage | undefined {
    const { words, action, bundles, unknown, terms } = this.parse(query);
    if (!words.length) return undefined;
    const { scores, wordScores, covered, index } = this;
    let totalWeight = 0;
    for (const word of words) {
      totalWeight += word.weight;
      for (const { postings, weight } of word.expansions) this.queryWeight[postings.id] = Math.max(this.queryWeight[postings.id]!, weight);
    }
    const touched: number[] = [];
    for (const { weight: wordWeight, expansions, term } of words) {
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
      this.learned.visit(term, (d, s) => {
        if (wordScores[d] === 0) wordTouched.push(d);
        if (s > wordScores[d]!) wordScores[d] = s;
      });
      for (const d of wordTouched) {
        if (scores[d] === 0) touched.push(d);
        scores[d]! += wordScores[d]!;
        covered[d]! += wordWeight;
        wordScores[d] = 0;
      }
    }
    // Per-tool factors as table lookups: this loop may visit every tool.
    const actionFactor = Float32Array.from({ length: ACTION_COUNT }, (_, toolAction) => 1 + RANKING.action * actionAgreement(action, toolAction as Action));
    const { queryWeight, usageBoost } = this;
    const { headTerms, headStarts, actions, bundleOf } = index;
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
    const text = query.slice(0, MAX_QUERY_CHARS);
    const operation = queryOperation(text, this.analyzer.words(text));
    return { words, action, bundles, touched, totalWeight, unknownWeight: unknown * this.rarestIdf, shape: queryShape(text), operation, terms };
  }

  private clear(stage: FirstStage): void {
    for (const d of stage.touched) this.scores[d] = 0;
    for (const word of stage.words) for (const { postings } of word.expansions) this.queryWeight[postings.id] = 0;
  }

  search(query: string, limit: number): ToolSearchMatch[] {
    const wanted = Math.min(Math.floor(limit), this.entries.length);
    if (!(wanted > 0) || typeof query !== 'string') return [];
    const stage = this.firstStage(query);
    if (!stage) return [];
    try {
      const { scores } = this;
      const name = (d: number) => this.entries[d]!.name;
      let score: (d: number) => number = (d) => scores[d]!;
      let best: number[];
      if (this.reranker) {
        const candidates = topK(stage.touched, Math.min(CANDIDATES, stage.touched.length), score, name);
        const features = this.featuresOf(candidates, stage);
        const reranked = new Map(candidates.map((d, rank) => [d, this.reranker!.score(features, rank * FEATURE_COUNT)]));
        score = (d) => reranked.get(d)!;
        best = topK(candidates, wanted, score, name);
      } else best = topK(stage.touched, wanted, score, name);
      return best.map((d) => ({
        name: this.entries[d]!.name,
        score: Math.round(score(d) * 1000) / 1000,
        relevance: Math.round(relevanceOf(d, stage.words, stage.unknownWeight, this.learned) * 1000) / 1000,
        why: explain(this.entries[d]!, matchedWordsOf(d, stage.words, this.learned, this.analyzer), this.analyzer),
      }));
    } finally {
      this.clear(stage);
    }
  }

  /** The features of each candidate (best first), for the re-ranker and for training it. */
  private featuresOf(candidates: readonly number[], stage: FirstStage): Float32Array {
    const { index, scores, queryWeight } = this;
    const { words, action, bundles, totalWeight, shape } = stage;
    const terms: QueryTerms = { wordWeights: Float32Array.from(words, (w) => w.weight), byTerm: new Map(), totalWeight };
    words.forEach((word, w) => {
      for (const { postings, weight } of word.expansions) {
        const list = terms.byTerm.get(postings.id) ?? [];
        list.push({ word: w, weight: weight * postings.idf });
        terms.byTerm.set(postings.id, list);
      }
    });
    const top = candidates.length ? Math.log(Math.max(1e-9, scores[candidates[0]!]!)) : 0;
    const out = this.features.length >= candidates.length * FEATURE_COUNT ? this.features : new Float32Array(candidates.length * FEATURE_COUNT);
    candidates.forEach((d, rank) => {
      const row = out.subarray(rank * FEATURE_COUNT, (rank + 1) * FEATURE_COUNT);
      row.fill(0);
      row[FEATURE.firstStage] = Math.log(Math.max(1e-9, scores[d]!)) - top;
      row[FEATURE.firstRank] = 1 / (rank + 1);
      const { coverage, headCoverage } = this.scratch.lexical(d, terms, row);
      row[FEATURE.coverage] = coverage;
      row[FEATURE.headCoverage] = headCoverage;
      const start = index.headStarts[d]!;
      const end = index.headStarts[d + 1]!;
      let inQuery = 0;
      for (let i = start; i < end; i++) inQuery += queryWeight[index.headTerms[i]!]!;
      row[FEATURE.head] = inQuery / Math.max(1, end - start);
      row[FEATURE.headLength] = 1 / Math.max(1, end - start);
      const agreement = actionAgreement(action, index.actions[d] as Action);
      row[FEATURE.actionAgrees] = agreement;
      row[FEATURE.actionDiffers] = action !== 0 && index.actions[d] !== 0 && agreement === 0 ? 1 : 0;
      const here = bundles.has(index.bundleOf[d]!);
      row[FEATURE.serviceHere] = here ? 1 : 0;
      row[FEATURE.serviceElsewhere] = bundles.size && !here ? 1 : 0;
      row[FEATURE.learned] = this.learned.score(d, words);
      row[FEATURE.usage] = this.usage[d]!;
      this.shapes.fill(row, d, index.actions[d] as Action, action, shape);
      this.operations.fill(row, d, stage.operation, shape.one, row[FEATURE.toolEndsWithParameter] === 1);
    });
    const slots = { firstStage: FEATURE.firstStage, fit: FEATURE.bundleFit, rank: FEATURE.bundleRank, share: FEATURE.bundleShare, stride: FEATURE_COUNT };
    if (this.bundleLevel) fillBundleFeatures(this.bundleLevel, words, candidates, index.bundleOf, out, slots);
    else this.reranker?.neutralise(out, candidates.length, [slots.fit, slots.rank, slots.share]);
    this.wordApis?.fill(stage.terms, candidates, index.bundleOf, out, { sum: FEATURE.wordApiSum, relative: FEATURE.wordApiRelative, stride: FEATURE_COUNT });
    this.wordPairs?.fill(stage.terms, candidates, index.headTerms, index.headStarts, out, FEATURE.wordPairs, FEATURE_COUNT);
    // A tool's description terms are docTerms from fieldEnds[d · F + DESCRIPTION − 1] to fieldEnds[d · F + DESCRIPTION].
    this.descriptionPairs?.fill(stage.terms, candidates, index.docTerms, index.fieldEnds, out, FEATURE.descriptionPairs, FEATURE_COUNT, DESCRIPTION_SPANS);
    return out;
  }

  /**
   * The first stage's best CANDIDATES for a query with their features, for training the
   * re-ranker offline (train-reranker.ts); nothing of it runs when agents search.
   */
  candidatesWithFeatures(query: string): { names: string[]; features: Float32Array } {
    const stage = this.firstStage(query);
    if (!stage) return { names: [], features: new Float32Array(0) };
    try {
      const candidates = topK(
        stage.touched,
        Math.min(CANDIDATES, stage.touched.length),
        (d) => this.scores[d]!,
        (d) => this.entries[d]!.name,
      );
      const features = Float32Array.from(this.featuresOf(candidates, stage).subarray(0, candidates.length * FEATURE_COUNT));
      return { names: candidates.map((d) => this.entries[d]!.name), features };
    } finally {
      this.clear(stage);
    }
  }
}
