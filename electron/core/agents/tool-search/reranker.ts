/**
 * The learned re-ranker: a linear model over features.ts's vector, its weights trained offline
 * (test/bench/toolsearch/train-reranker.ts, on the team's written phrasings, never the held-out
 * ones) and shipped as reranker-weights.json. Scoring the first stage's best 100 is 100 dot
 * products of a few dozen numbers.
 */
import shipped from './reranker-weights.json' with { type: 'json' };
import { FEATURE_COUNT, FEATURE_NAMES } from './features.js';

/** A regression tree over the raw features: node i splits on feature[i] (x < threshold[i] goes left), or is a leaf (feature −1) worth value[i]. */
export interface RerankerTree {
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  value: number[];
}

export interface RerankerWeights {
  about?: string;
  features: string[];
  mean: number[];
  scale: number[];
  weights: number[];
  /** Boosted trees added to the linear score (test/bench/toolsearch/boost-trees.ts); none for a linear model. */
  trees?: RerankerTree[];
}

interface FlatTree {
  feature: Int8Array;
  threshold: Float64Array;
  left: Uint16Array;
  right: Uint16Array;
  value: Float64Array;
}

export class Reranker {
  private readonly w: Float32Array;
  private readonly mean: Float32Array;
  private readonly inverseScale: Float32Array;
  private readonly trees: FlatTree[];

  constructor(private readonly model: RerankerWeights) {
    // A file trained on another feature list would score nonsense: say so rather than rank badly.
    const same = model.features.length === FEATURE_COUNT && model.features.every((name, i) => name === FEATURE_NAMES[i]);
    if (!same || model.weights.length !== FEATURE_COUNT || model.mean.length !== FEATURE_COUNT || model.scale.length !== FEATURE_COUNT) {
      throw new Error(
        `re-ranker weights are for the features [${model.features.join(', ')}], not [${FEATURE_NAMES.join(', ')}]: retrain them (train-reranker.ts)`,
      );
    }
    this.w = Float32Array.from(model.weights);
    this.mean = Float32Array.from(model.mean);
    this.inverseScale = Float32Array.from(model.scale, (s) => (s > 0 ? 1 / s : 0));
    this.trees = (model.trees ?? []).map((t) => {
      const nodes = t.feature.length;
      const bad = [t.threshold, t.left, t.right, t.value].some((a) => a.length !== nodes) || t.feature.some((f) => f >= FEATURE_COUNT);
      const child = (i: number) => i >= 0 && i < nodes;
      if (bad || t.feature.some((f, i) => f >= 0 && !(child(t.left[i]!) && child(t.right[i]!) && t.left[i]! > i && t.right[i]! > i)))
        throw new Error('re-ranker weights hold a malformed tree: retrain them (train-reranker.ts)');
      return {
        feature: Int8Array.from(t.feature),
        threshold: Float64Array.from(t.threshold),
        left: Uint16Array.from(t.left, (i) => Math.max(0, i)),
        right: Uint16Array.from(t.right, (i) => Math.max(0, i)),
        value: Float64Array.from(t.value),
      };
    });
  }

  /** The same model without its trees: the bench's lever table measures what they add. */
  linearOnly(): Reranker {
    return new Reranker({ ...this.model, trees: [] });
  }

  /** Sets these features of each row to the model's mean, where they add nothing to the score. */
  neutralise(features: Float32Array, rows: number, which: readonly number[]): void {
    for (let r = 0; r < rows; r++) for (const f of which) features[r * FEATURE_COUNT + f] = this.mean[f]!;
  }

  score(features: Float32Array, offset = 0): number {
    let s = 0;
    for (let i = 0; i < FEATURE_COUNT; i++) s += this.w[i]! * (features[offset + i]! - this.mean[i]!) * this.inverseScale[i]!;
    for (const tree of this.trees) {
      let node = 0;
      while (tree.feature[node]! >= 0) node = features[offset + tree.feature[node]!]! < tree.threshold[node]! ? tree.left[node]! : tree.right[node]!;
      s += tree.value[node]!;
    }
    return s;
  }
}

/** The shipped model, or undefined when the file holds none yet (the first stage then ranks alone). */
export function shippedReranker(): Reranker | undefined {
  const model = shipped as RerankerWeights;
  return model.weights.length ? new Reranker(model) : undefined;
}
