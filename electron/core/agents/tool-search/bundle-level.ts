/**
 * The API-level score: how well a query fits a whole bundle (one API), as BM25 over the bundle
 * seen as one document whose term frequency is how many of its tools hold the term (in the name,
 * title, description, tags or "in other words"), with idf over bundles. A query that says
 * "configmap", "pod" and "namespace" fits Kubernetes better than any other API even when one
 * DigitalOcean tool matches two of its words well; the re-ranker weighs that beside the tool's
 * own score (features.ts: bundle fit, bundle rank, and the bundle's share of the candidates).
 */
import { fieldIndex, FIELDS } from './fields.js';
import type { InvertedIndex } from './inverted-index.js';

/** The fields whose terms say what a bundle is about (not arguments: ids and paging say little). */
const BUNDLE_FIELDS = ['name', 'title', 'description', 'tag', 'in other words'].map(fieldIndex);
const K1 = 1.2;
const B = 0.75;

export interface BundleQueryWord {
  expansions: readonly { weight: number; postings: { id: number } }[];
}

export class BundleLevel {
  /** Per term id, the bundles holding it and the saturated weight there: CSR over term ids. */
  private readonly starts: Int32Array;
  private readonly bundles: Int32Array;
  private readonly weights: Float32Array;
  private readonly idf: Float32Array;
  readonly bundleCount: number;
  private readonly scores: Float32Array;
  private readonly wordScores: Float32Array;

  constructor(index: InvertedIndex) {
    const bundleCount = index.bundleSizes.length;
    this.bundleCount = bundleCount;
    const F = FIELDS.length;
    // term id → bundle → how many of its tools hold the term.
    const counts = new Map<number, Map<number, number>>();
    const seen = new Set<number>();
    for (let d = 0; d < index.count; d++) {
      const bundle = index.bundleOf[d]!;
      for (const f of BUNDLE_FIELDS) {
        const start = f === 0 ? index.docStarts[d]! : index.fieldEnds[d * F + f - 1]!;
        const end = index.fieldEnds[d * F + f]!;
        for (let i = start; i < end; i++) seen.add(index.docTerms[i]!);
      }
      for (const id of seen) {
        let byBundle = counts.get(id);
        if (!byBundle) counts.set(id, (byBundle = new Map()));
        byBundle.set(bundle, (byBundle.get(bundle) ?? 0) + 1);
      }
      seen.clear();
    }
    const average = index.count / Math.max(1, bundleCount);
    this.starts = new Int32Array(index.termCount + 1);
    let pairs = 0;
    for (let id = 0; id < index.termCount; id++) {
      this.starts[id] = pairs;
      pairs += counts.get(id)?.size ?? 0;
    }
    this.starts[index.termCount] = pairs;
    this.bundles = new Int32Array(pairs);
    this.weights = new Float32Array(pairs);
    this.idf = new Float32Array(index.termCount);
    for (const [id, byBundle] of counts) {
      let i = this.starts[id]!;
      this.idf[id] = Math.log(1 + (bundleCount - byBundle.size + 0.5) / (byBundle.size + 0.5));
      for (const [bundle, n] of byBundle) {
        const tf = n / (1 - B + (B * index.bundleSizes[bundle]!) / average);
        this.bundles[i] = bundle;
        this.weights[i] = tf / (K1 + tf);
        i++;
      }
    }
    this.scores = new Float32Array(bundleCount);
    this.wordScores = new Float32Array(bundleCount);
  }

  /**
   * Each bundle's fit to the query's words (each word at its best expansion, a synonym at its
   * weight), into a fresh array indexed by bundle.
   */
  score(words: readonly BundleQueryWord[]): Float32Array {
    const { scores, wordScores } = this;
    scores.fill(0);
    for (const { expansions } of words) {
      wordScores.fill(0);
      for (const { weight, postings } of expansions) {
        const id = postings.id;
        const factor = weight * this.idf[id]!;
        for (let i = this.starts[id]!; i < this.starts[id + 1]!; i++) {
          const s = factor * this.weights[i]!;
          if (s > wordScores[this.bundles[i]!]!) wordScores[this.bundles[i]!] = s;
        }
      }
      for (let b = 0; b < scores.length; b++) scores[b]! += wordScores[b]!;
    }
    return Float32Array.from(scores);
  }
}

/** Per bundle, 1 / its rank by score (ties share the better rank); 0 for a bundle scoring 0. */
export function reciprocalRanks(scores: Float32Array): Float32Array {
  const out = new Float32Array(scores.length);
  for (let b = 0; b < scores.length; b++) {
    if (!(scores[b]! > 0)) continue;
    let ahead = 0;
    for (let o = 0; o < scores.length; o++) if (scores[o]! > scores[b]!) ahead++;
    out[b] = 1 / (ahead + 1);
  }
  return out;
}

/** Where the bundle features sit in a candidate's row, and where its first-stage score (log, against the best) is. */
export interface BundleFeatureSlots {
  firstStage: number;
  fit: number;
  rank: number;
  share: number;
  stride: number;
}

/**
 * Writes each candidate's bundle features into its row of `out`: its bundle's fit against the best
 * bundle's, that bundle's reciprocal rank, and the share of the candidates' first-stage score that
 * is its bundle's (several good tools of one API say the query is about that API).
 */
export function fillBundleFeatures(
  level: BundleLevel,
  words: readonly BundleQueryWord[],
  candidates: readonly number[],
  bundleOf: Int32Array,
  out: Float32Array,
  slots: BundleFeatureSlots,
): void {
  const scores = level.score(words);
  let best = 0;
  for (const s of scores) if (s > best) best = s;
  const ranks = reciprocalRanks(scores);
  const mass = new Map<number, number>();
  let total = 0;
  candidates.forEach((d, r) => {
    const m = Math.exp(out[r * slots.stride + slots.firstStage]!);
    mass.set(bundleOf[d]!, (mass.get(bundleOf[d]!) ?? 0) + m);
    total += m;
  });
  candidates.forEach((d, r) => {
    const row = r * slots.stride;
    const bundle = bundleOf[d]!;
    out[row + slots.fit] = best > 0 ? scores[bundle]! / best : 0;
    out[row + slots.rank] = ranks[bundle]!;
    out[row + slots.share] = total > 0 ? mass.get(bundle)! / total : 0;
  });
}
