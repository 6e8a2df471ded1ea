/**
 * What the re-ranker knows of a (query, tool) pair: numbers the first stage already has or can
 * read cheaply for its few best candidates. Per field, the BM25 of the query's words in that
 * field alone (each word at its best expansion), and the agreements the first stage multiplies
 * by: coverage, head, action, service, the learned field, usage.
 *
 * FEATURE_NAMES is the order of the vector, and the names the weights file is keyed by.
 */
import { FIELDS, K1 } from './fields.js';
import type { InvertedIndex } from './inverted-index.js';

export const FEATURE_NAMES: readonly string[] = [
  'first stage (log, against the best)',
  'first stage rank (reciprocal)',
  ...FIELDS.map((f) => `bm25 ${f.label}`),
  'coverage',
  'coverage in name or title',
  'head',
  'action agrees',
  'action differs',
  'service named, this one',
  'service named, another',
  'learned',
  'usage',
  'head length (reciprocal)',
  'bundle fit (against the best bundle)',
  'bundle rank (reciprocal)',
  'bundle share of the candidates',
  'tool pages',
  'tool text says many',
  'tool deprecated',
  'tool name ends with a parameter',
  'tool arguments naming one thing',
  'tool action',
  'query action',
  'query is a question',
  'query asks for many',
  'query names one',
  'question, tool changes things',
  'many asked, tool lists',
  'one named, tool lists',
  'words say this API (learned)',
  'words say this API, against the best API',
  'words go with this tool name (learned)',
  'object number agrees',
  'tool object plural',
  'tool path parameters',
  'tool path depth',
  'tool older version',
  'tool unstable version',
  'query asks details',
  'one asked, tool acts on one',
  'description words go with the task (learned)',
];

export const FEATURE_COUNT = FEATURE_NAMES.length;
const FIELD_BASE = 2;
const F = FIELDS.length;

export interface QueryTerms {
  /** Per query word, its weight for coverage (its best expansion's idf). */
  wordWeights: Float32Array;
  /** term id → [(word index, expansion weight · idf)], for the terms of the query's expansions. */
  byTerm: Map<number, { word: number; weight: number }[]>;
  totalWeight: number;
}

/** Scratch space for one query's candidates, reused. */
export class FeatureScratch {
  private tf = new Float32Array(0);
  private readonly touched: number[] = [];
  private wordField = new Float32Array(0);
  private wordAny = new Float32Array(0);
  private wordHead = new Float32Array(0);

  constructor(private readonly index: InvertedIndex) {
    this.tf = new Float32Array(index.termCount);
  }

  /** Per field BM25, coverage and name-or-title coverage of candidate d into out[FIELD_BASE …]. */
  lexical(d: number, query: QueryTerms, out: Float32Array): { coverage: number; headCoverage: number } {
    const { index } = this;
    const words = query.wordWeights.length;
    if (this.wordField.length < words * F) {
      this.wordField = new Float32Array(words * F);
      this.wordAny = new Float32Array(words);
      this.wordHead = new Float32Array(words);
    }
    const { tf, touched, wordField, wordAny, wordHead } = this;
    let start = index.docStarts[d]!;
    for (let f = 0; f < F; f++) {
      const end = index.fieldEnds[d * F + f]!;
      for (let i = start; i < end; i++) {
        const id = index.docTerms[i]!;
        if (!query.byTerm.has(id)) continue;
        if (tf[id] === 0) touched.push(id);
        tf[id]!++;
      }
      const norm = index.lengthNorm(f, end - start) / index.fieldNorms[f]!.weight;
      for (const id of touched) {
        const t = tf[id]! * norm;
        const saturated = t / (K1 + t);
        for (const { word, weight } of query.byTerm.get(id)!) {
          const s = weight * saturated;
          const slot = word * F + f;
          if (s > wordField[slot]!) wordField[slot] = s;
          wordAny[word] = 1;
          if (f <= 1) wordHead[word] = 1;
        }
        tf[id] = 0;
      }
      touched.length = 0;
      start = end;
    }
    let coverage = 0;
    let headCoverage = 0;
    for (let f = 0; f < F; f++) out[FIELD_BASE + f] = 0;
    for (let w = 0; w < words; w++) {
      for (let f = 0; f < F; f++) {
        out[FIELD_BASE + f]! += wordField[w * F + f]!;
        wordField[w * F + f] = 0;
      }
      coverage += wordAny[w]! * query.wordWeights[w]!;
      headCoverage += wordHead[w]! * query.wordWeights[w]!;
      wordAny[w] = 0;
      wordHead[w] = 0;
    }
    const total = Math.max(1e-6, query.totalWeight);
    return { coverage: coverage / total, headCoverage: headCoverage / total };
  }
}

export const FEATURE = {
  firstStage: 0,
  firstRank: 1,
  field: (f: number) => FIELD_BASE + f,
  coverage: FIELD_BASE + F,
  headCoverage: FIELD_BASE + F + 1,
  head: FIELD_BASE + F + 2,
  actionAgrees: FIELD_BASE + F + 3,
  actionDiffers: FIELD_BASE + F + 4,
  serviceHere: FIELD_BASE + F + 5,
  serviceElsewhere: FIELD_BASE + F + 6,
  learned: FIELD_BASE + F + 7,
  usage: FIELD_BASE + F + 8,
  headLength: FIELD_BASE + F + 9,
  bundleFit: FIELD_BASE + F + 10,
  bundleRank: FIELD_BASE + F + 11,
  bundleShare: FIELD_BASE + F + 12,
  toolPages: FIELD_BASE + F + 13,
  toolSaysMany: FIELD_BASE + F + 14,
  toolDeprecated: FIELD_BASE + F + 15,
  toolEndsWithParameter: FIELD_BASE + F + 16,
  toolOneThingArgs: FIELD_BASE + F + 17,
  toolAction: FIELD_BASE + F + 18,
  queryAction: FIELD_BASE + F + 19,
  queryQuestion: FIELD_BASE + F + 20,
  queryMany: FIELD_BASE + F + 21,
  queryOne: FIELD_BASE + F + 22,
  questionToolChanges: FIELD_BASE + F + 23,
  manyToolLists: FIELD_BASE + F + 24,
  oneToolLists: FIELD_BASE + F + 25,
  wordApiSum: FIELD_BASE + F + 26,
  wordApiRelative: FIELD_BASE + F + 27,
  wordPairs: FIELD_BASE + F + 28,
  objectNumberAgrees: FIELD_BASE + F + 29,
  toolObjectPlural: FIELD_BASE + F + 30,
  toolPathParameters: FIELD_BASE + F + 31,
  toolDepth: FIELD_BASE + F + 32,
  toolOlderVersion: FIELD_BASE + F + 33,
  toolUnstableVersion: FIELD_BASE + F + 34,
  queryDetails: FIELD_BASE + F + 35,
  oneAskedToolActsOnOne: FIELD_BASE + F + 36,
  descriptionPairs: FIELD_BASE + F + 37,
} as const;
