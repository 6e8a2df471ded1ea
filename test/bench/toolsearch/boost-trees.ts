/**
 * Gradient-boosted regression trees on top of the linear re-ranker (train-reranker.ts): each
 * round fits a small tree to the listwise softmax loss's Newton step (gradient p − y, hessian
 * p(1 − p), as LambdaMART's leaves do), starting from the linear model's scores, so the trees
 * only add what a weighted sum of the features cannot say (an interaction: "the bundle named
 * and the verb agrees"). Histogram splits over at most BINS quantile thresholds per feature.
 * Deterministic: no sampling.
 */
import { FEATURE_COUNT } from '../../../electron/core/agents/tool-search/features.js';
import type { RerankerTree } from '../../../electron/core/agents/tool-search/reranker.js';
import type { Example } from './train-reranker.js';

const BINS = 32;

export interface BoostOptions {
  rounds: number;
  depth: number;
  learningRate: number;
  /** L2 on leaf values (Newton's denominator). */
  lambda: number;
  /** A leaf needs at least this much hessian. */
  minHessian: number;
}

export const DEFAULT_BOOST: BoostOptions = { rounds: 300, depth: 4, learningRate: 0.1, lambda: 1, minHessian: 0.5 };

interface Rows {
  x: Float32Array;
  bins: Uint8Array;
  groups: { start: number; count: number; positives: number[] }[];
  rows: number;
}

/** Per feature, the thresholds between bins: midpoints between quantiles of its distinct values. */
export function binEdges(examples: readonly Example[]): number[][] {
  const edges: number[][] = [];
  for (let f = 0; f < FEATURE_COUNT; f++) {
    const values: number[] = [];
    for (const e of examples) for (let r = 0; r < e.count; r += 3) values.push(e.features[r * FEATURE_COUNT + f]!);
    values.sort((a, b) => a - b);
    const distinct = [...new Set(values)];
    const cuts: number[] = [];
    if (distinct.length <= BINS) for (let i = 1; i < distinct.length; i++) cuts.push((distinct[i - 1]! + distinct[i]!) / 2);
    else
      for (let q = 1; q < BINS; q++) {
        const v = values[Math.floor((q * values.length) / BINS)]!;
        const next = distinct.find((d) => d > v);
        if (next !== undefined) {
          const cut = (v + next) / 2;
          if (!cuts.length || cut > cuts[cuts.length - 1]!) cuts.push(cut);
        }
      }
    edges.push(cuts);
  }
  return edges;
}

function rowsOf(examples: readonly Example[], edges: readonly number[][]): Rows {
  const rows = examples.reduce((n, e) => n + e.count, 0);
  const x = new Float32Array(rows * FEATURE_COUNT);
  const bins = new Uint8Array(rows * FEATURE_COUNT);
  const groups: Rows['groups'] = [];
  let at = 0;
  for (const e of examples) {
    groups.push({ start: at, count: e.count, positives: e.positives });
    x.set(e.features.subarray(0, e.count * FEATURE_COUNT), at * FEATURE_COUNT);
    at += e.count;
  }
  for (let i = 0; i < x.length; i++) {
    const cuts = edges[i % FEATURE_COUNT]!;
    let b = 0;
    while (b < cuts.length && x[i]! >= cuts[b]!) b++;
    bins[i] = b;
  }
  return { x, bins, groups, rows };
}

export function treeScore(tree: RerankerTree, x: Float32Array, offset: number): number {
  let node = 0;
  while (tree.feature[node]! >= 0) node = x[offset + tree.feature[node]!]! < tree.threshold[node]! ? tree.left[node]! : tree.right[node]!;
  return tree.value[node]!;
}

/** Gradient and hessian of the listwise loss for every row, given the current scores. */
function newton(data: Rows, scores: Float64Array, g: Float64Array, h: Float64Array): number {
  let loss = 0;
  for (const { start, count, positives } of data.groups) {
    let max = -Infinity;
    for (let r = start; r < start + count; r++) max = Math.max(max, scores[r]!);
    let total = 0;
    for (let r = start; r < start + count; r++) total += Math.exp(scores[r]! - max);
    let positive = 0;
    for (const p of positives) positive += Math.exp(scores[start + p]! - max);
    loss -= Math.log(positive / total);
    for (let r = start; r < start + count; r++) {
      const p = Math.exp(scores[r]! - max) / total;
      g[r] = p;
      h[r] = Math.max(p * (1 - p), 1e-6);
    }
    for (const q of positives) g[start + q]! -= Math.exp(scores[start + q]! - max) / positive;
  }
  return loss / data.groups.length;
}

function growTree(data: Rows, edges: readonly number[][], g: Float64Array, h: Float64Array, options: BoostOptions): RerankerTree {
  const tree: RerankerTree = { feature: [], threshold: [], left: [], right: [], value: [] };
  const histG = new Float64Array(FEATURE_COUNT * (BINS + 1));
  const histH = new Float64Array(FEATURE_COUNT * (BINS + 1));
  const grow = (rows: Int32Array, depth: number): number => {
    const node = tree.feature.length;
    tree.feature.push(-1);
    tree.threshold.push(0);
    tree.left.push(-1);
    tree.right.push(-1);
    let G = 0;
    let H = 0;
    for (const r of rows) {
      G += g[r]!;
      H += h[r]!;
    }
    tree.value.push((-G / (H + options.lambda)) * options.learningRate);
    if (depth >= options.depth || H < 2 * options.minHessian) return node;
    histG.fill(0);
    histH.fill(0);
    for (const r of rows) {
      const base = r * FEATURE_COUNT;
      for (let f = 0; f < FEATURE_COUNT; f++) {
        const slot = f * (BINS + 1) + data.bins[base + f]!;
        histG[slot]! += g[r]!;
        histH[slot]! += h[r]!;
      }
    }
    const parent = (G * G) / (H + options.lambda);
    let bestGain = 1e-6;
    let bestFeature = -1;
    let bestBin = -1;
    for (let f = 0; f < FEATURE_COUNT; f++) {
      let gl = 0;
      let hl = 0;
      for (let b = 0; b < edges[f]!.length; b++) {
        gl += histG[f * (BINS + 1) + b]!;
        hl += histH[f * (BINS + 1) + b]!;
        const gr = G - gl;
        const hr = H - hl;
        if (hl < options.minHessian || hr < options.minHessian) continue;
        const gain = (gl * gl) / (hl + options.lambda) + (gr * gr) / (hr + options.lambda) - parent;
        if (gain > bestGain) {
          bestGain = gain;
          bestFeature = f;
          bestBin = b;
        }
      }
    }
    if (bestFeature < 0) return node;
    // Bin b holds values below edges[b]: rows in bins ≤ bestBin go left (x < edges[bestBin]).
    const leftRows = rows.filter((r) => data.bins[r * FEATURE_COUNT + bestFeature]! <= bestBin);
    const rightRows = rows.filter((r) => data.bins[r * FEATURE_COUNT + bestFeature]! > bestBin);
    tree.feature[node] = bestFeature;
    tree.threshold[node] = edges[bestFeature]![bestBin]!;
    tree.left[node] = grow(leftRows, depth + 1);
    tree.right[node] = grow(rightRows, depth + 1);
    return node;
  };
  grow(
    Int32Array.from({ length: data.rows }, (_, i) => i),
    0,
  );
  return tree;
}

/**
 * Boosts trees on the examples from the base scores; calls `checkpoint` every `every` rounds with
 * the trees so far (to measure on data kept aside).
 */
export function boost(
  examples: readonly Example[],
  base: (features: Float32Array, offset: number) => number,
  options: BoostOptions,
  checkpoint?: (trees: RerankerTree[], round: number) => void,
  every = 25,
): { trees: RerankerTree[]; edges: number[][] } {
  const edges = binEdges(examples);
  const data = rowsOf(examples, edges);
  const scores = new Float64Array(data.rows);
  for (let r = 0; r < data.rows; r++) scores[r] = base(data.x, r * FEATURE_COUNT);
  const g = new Float64Array(data.rows);
  const h = new Float64Array(data.rows);
  const trees: RerankerTree[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    newton(data, scores, g, h);
    const tree = growTree(data, edges, g, h, options);
    trees.push(tree);
    for (let r = 0; r < data.rows; r++) scores[r]! += treeScore(tree, data.x, r * FEATURE_COUNT);
    if (checkpoint && round % every === 0) checkpoint(trees, round);
  }
  return { trees, edges };
}
