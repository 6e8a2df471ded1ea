/**
 * Tool-search bench (issue 21): the agents' ranker (electron/core/agents/tool-search.ts) on
 * 12,000 real API operations and 219 labelled task phrasings (test/fixtures/toolsearch/),
 * beside plain BM25 over name + description (minisearch, default tokenizer, no stemming, no
 * synonyms, no field weights) in the same run. Quality: recall@1, recall@5 and MRR over the
 * tuning part and over the held-out part (every fourth query, never tuned on). Speed: index
 * build, p50/p95 per query (goals: recall@5 ≥ 0.9, p95 ≤ 10 ms, build well under a second).
 *
 * Run alone: npx tsx test/bench/toolsearch.ts
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import MiniSearch from 'minisearch';
import { createToolSearcher, type ToolSearchEntry, type ToolSearcher } from '../../electron/core/agents/tool-search.js';
import { duplicatesOf, loadCorpus, loadQueries, measureQuality, splitQueries, type Quality } from './toolsearch/evaluate.js';
import { median, quantile, row } from './util.js';

const ROUNDS = 5;

function plainBm25(corpus: readonly ToolSearchEntry[]): MiniSearch<ToolSearchEntry> {
  const index = new MiniSearch<ToolSearchEntry>({ idField: 'name', fields: ['name', 'description'] });
  index.addAll(corpus);
  return index;
}

function heapAfter<T>(make: () => T): [number, T] {
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const made = make();
  globalThis.gc?.();
  return [(process.memoryUsage().heapUsed - before) / 2 ** 20, made];
}

function timeBuilds<T>(make: () => T): [number, T] {
  const samples: number[] = [];
  let made = make();
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    made = make();
    samples.push(performance.now() - start);
  }
  return [median(samples), made];
}

function timeQueries(queries: readonly string[], run: (q: string) => void): number[] {
  for (const q of queries) run(q);
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++)
    for (const q of queries) {
      const start = performance.now();
      run(q);
      samples.push(performance.now() - start);
    }
  return samples.sort((a, b) => a - b);
}

const line = (label: string, q: Quality) =>
  `  ${label.padEnd(34)} recall@1 ${q.recallAt1.toFixed(3)}   recall@5 ${q.recallAt5.toFixed(3)}   MRR ${q.mrr.toFixed(3)}   (${q.queries} queries)`;

export async function run(): Promise<void> {
  const corpus = loadCorpus();
  const all = loadQueries();
  const { tuning, heldOut } = splitQueries(all);
  const duplicates = duplicatesOf(corpus);

  const [oursMemory] = heapAfter(() => createToolSearcher(corpus));
  const [plainMemory] = heapAfter(() => plainBm25(corpus));
  const [oursBuild, ours] = timeBuilds<ToolSearcher>(() => createToolSearcher(corpus));
  const [plainBuild, plain] = timeBuilds(() => plainBm25(corpus));

  const oursRank = (q: string, k: number) => ours.search(q, k).map((m) => m.name);
  const plainRank = (q: string, k: number) =>
    plain
      .search(q)
      .slice(0, k)
      .map((r) => String(r.id));
  const texts = all.map((q) => q.query);
  const oursTimes = timeQueries(texts, (q) => void ours.search(q, 10));
  const plainTimes = timeQueries(texts, (q) => void plainRank(q, 10));

  console.log(`toolsearch: ${corpus.length.toLocaleString('en')} tools from real OpenAPI documents, ${all.length} task phrasings × ${ROUNDS} rounds, top 10`);
  console.log('  baseline: plain BM25 over name + description (minisearch defaults); ratio = ours / baseline');
  for (const [label, part] of [
    ['held out (never tuned on)', heldOut],
    ['tuning part', tuning],
    ['all', all],
  ] as const) {
    console.log(line(`ours, ${label}`, measureQuality(part, oursRank, duplicates)));
    console.log(line(`baseline, ${label}`, measureQuality(part, plainRank, duplicates)));
  }
  console.log(row('index build (median of 3)', oursBuild, plainBuild));
  console.log(row('query p50', quantile(oursTimes, 0.5), quantile(plainTimes, 0.5)));
  console.log(row('query p95  (goal ≤ 10 ms)', quantile(oursTimes, 0.95), quantile(plainTimes, 0.95)));
  console.log(row('index heap', oursMemory, plainMemory, 'MB'));
  console.log(
    `  (1-min load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs; heap figures need node --expose-gc, else they include garbage)`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
