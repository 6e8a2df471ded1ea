/**
 * The learned re-ranker: a linear model over features.ts's vector, its weights trained offline
 * (test/bench/toolsearch/train-reranker.ts, on the team's written phrasings, never the held-out
 * ones) and shipped as reranker-weights.json. Scoring the first stage's best 100 is 100 dot
 * products of a few dozen numbers.
 */
import shipped from './reranker-weights.json' with { type: 'json' };
import { FEATURE_COUNT, FEATURE_NAMES } from './features.js';

export interface RerankerWeights {
  about?: string;
  features: string[];
  mean: number[];
  scale: number[];
  weights: number[];
}

export class Reranker {
  private readonly w: Float32Array;
  private readonly mean: Float32Array;
  private readonly inverseScale: Float32Array;

  constructor(model: RerankerWeights) {
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
  }

  score(features: Float32Array, offset = 0): number {
    let s = 0;
    for (let i = 0; i < FEATURE_COUNT; i++) s += this.w[i]! * (features[offset + i]! - this.mean[i]!) * this.inverseScale[i]!;
    return s;
  }
}

/** The shipped model, or undefined when the file holds none yet (the first stage then ranks alone). */
export function shippedReranker(): Reranker | undefined {
  const model = shipped as RerankerWeights;
  return model.weights.length ? new Reranker(model) : undefined;
}
