/**
 * The re-ranker's issue-34 levers: the API-level features (bundle-level.ts) and boosted trees on
 * top of the linear model (reranker.ts, trained by test/bench/toolsearch/train-reranker.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ToolSearchEntry } from '../../../../electron/core/agents/tool-search.js';
import { createAnalyzer } from '../../../../electron/core/agents/tool-search/analyze.js';
import { BundleLevel, fillBundleFeatures, reciprocalRanks } from '../../../../electron/core/agents/tool-search/bundle-level.js';
import { FEATURE, FEATURE_COUNT, FEATURE_NAMES } from '../../../../electron/core/agents/tool-search/features.js';
import { InvertedIndex } from '../../../../electron/core/agents/tool-search/inverted-index.js';
import { loadLexicon } from '../../../../electron/core/agents/tool-search/lexicon.js';
import { Reranker, shippedReranker } from '../../../../electron/core/agents/tool-search/reranker.js';

function tool(name: string, bundle: string, title: string, description = ''): ToolSearchEntry {
  return { name, title, description, argNames: [], argDescriptions: [], tags: [], bundle, calls: 0 };
}

const entries = [
  tool('list-pods', 'kubernetes', 'List pods', 'Lists the pods of a namespace.'),
  tool('read-config-map', 'kubernetes', 'Read config map', 'Reads a config map of a namespace.'),
  tool('list-namespaces', 'kubernetes', 'List namespaces'),
  tool('delete-pod', 'kubernetes', 'Delete pod', 'Deletes a pod.'),
  tool('droplets-list', 'digitalocean', 'List droplets', 'Lists droplets.'),
  tool('kubernetes-list-node-pools', 'digitalocean', 'List node pools of a cluster', 'Pods run on the node pools of a cluster.'),
  tool('volumes-list', 'digitalocean', 'List volumes'),
  tool('send-message', 'slack', 'Send message', 'Posts a message to a channel.'),
];

function index(): { index: InvertedIndex; analyzer: ReturnType<typeof createAnalyzer> } {
  const analyzer = createAnalyzer();
  return { index: new InvertedIndex(entries, analyzer, loadLexicon(analyzer)), analyzer };
}

function queryWords(index: InvertedIndex, analyzer: ReturnType<typeof createAnalyzer>, query: string) {
  return analyzer.terms(query).flatMap((term) => {
    const postings = index.postings.get(term);
    return postings ? [{ expansions: [{ weight: 1, postings }] }] : [];
  });
}

describe('tool search re-ranking: the API-level features', () => {
  it('scores the API whose tools share the query’s words above one whose single tool matches a few', () => {
    const { index: built, analyzer } = index();
    const level = new BundleLevel(built);
    const bundleOf = (name: string) => built.bundleOf[entries.findIndex((e) => e.name === name)]!;
    const scores = level.score(queryWords(built, analyzer, 'pods of the namespace and its config map'));
    expect(scores[bundleOf('list-pods')]).toBeGreaterThan(scores[bundleOf('droplets-list')]!);
    expect(scores[bundleOf('send-message')]).toBe(0);
    const ranks = reciprocalRanks(scores);
    expect(ranks[bundleOf('list-pods')]).toBe(1);
    expect(ranks[bundleOf('send-message')]).toBe(0);
  });

  it('writes fit, rank and share into each candidate’s row: the best API gets fit 1, shares sum to 1', () => {
    const { index: built, analyzer } = index();
    const level = new BundleLevel(built);
    const candidates = [5, 0, 2, 4];
    const out = new Float32Array(candidates.length * FEATURE_COUNT);
    candidates.forEach((_, r) => (out[r * FEATURE_COUNT + FEATURE.firstStage] = -r * 0.5));
    const slots = { firstStage: FEATURE.firstStage, fit: FEATURE.bundleFit, rank: FEATURE.bundleRank, share: FEATURE.bundleShare, stride: FEATURE_COUNT };
    fillBundleFeatures(level, queryWords(built, analyzer, 'list pods in the namespace'), candidates, built.bundleOf, out, slots);
    const row = (r: number, f: number) => out[r * FEATURE_COUNT + f]!;
    // Candidate 0 (rank 0) is DigitalOcean's node pools; candidate 1 is Kubernetes's list-pods.
    expect(row(1, FEATURE.bundleFit)).toBeCloseTo(1, 6);
    expect(row(0, FEATURE.bundleFit)).toBeLessThan(1);
    expect(row(1, FEATURE.bundleRank)).toBe(1);
    expect(row(0, FEATURE.bundleRank)).toBe(0.5);
    const mass = [0, 1, 2, 3].map((r) => Math.exp(-r * 0.5));
    const total = mass.reduce((a, b) => a + b);
    expect(row(1, FEATURE.bundleShare)).toBeCloseTo((mass[1]! + mass[2]!) / total, 5);
    expect(row(0, FEATURE.bundleShare) + row(1, FEATURE.bundleShare)).toBeCloseTo(1, 5);
  });

  it('the shipped model weighs the API-level features (trained with them)', () => {
    const model = shippedReranker()!;
    const features = new Float32Array(FEATURE_COUNT);
    const withFit = Float32Array.from(features);
    withFit[FEATURE.bundleFit] = 1;
    withFit[FEATURE.bundleShare] = 1;
    expect(model.score(withFit)).not.toBeCloseTo(model.score(features), 3);
  });
});

describe('tool search re-ranking: boosted trees on the linear model', () => {
  const linear = { features: [...FEATURE_NAMES], mean: FEATURE_NAMES.map(() => 0), scale: FEATURE_NAMES.map(() => 1), weights: FEATURE_NAMES.map(() => 0) };
  // One split on the bundle fit: below 0.5 adds −1, at or above adds +2.
  const tree = { feature: [FEATURE.bundleFit, -1, -1], threshold: [0.5, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, -1, 2] };

  it('adds each tree’s leaf to the linear score', () => {
    const model = new Reranker({ ...linear, weights: FEATURE_NAMES.map((_, i) => (i === FEATURE.coverage ? 1 : 0)), trees: [tree, tree] });
    const row = new Float32Array(FEATURE_COUNT);
    row[FEATURE.coverage] = 0.25;
    row[FEATURE.bundleFit] = 0.4;
    expect(model.score(row)).toBeCloseTo(0.25 - 2, 6);
    row[FEATURE.bundleFit] = 0.5;
    expect(model.score(row)).toBeCloseTo(0.25 + 4, 6);
  });

  it('refuses a malformed tree (a child out of range, or pointing back) with a message that says what to do', () => {
    expect(() => new Reranker({ ...linear, trees: [{ ...tree, left: [7, -1, -1] }] })).toThrow(/malformed tree: retrain them/);
    expect(() => new Reranker({ ...linear, trees: [{ ...tree, right: [0, -1, -1] }] })).toThrow(/malformed tree/);
    expect(() => new Reranker({ ...linear, trees: [{ ...tree, value: [0] }] })).toThrow(/malformed tree/);
  });
});
