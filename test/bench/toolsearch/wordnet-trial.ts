/**
 * The WordNet trial of docs/tool-search.md: the ranker with WordNet groups beside its own
 * synonyms (wordnet-groups.ts), against the ranker as it ships, on the tuning part for every
 * variant and on the held-out part for the one chosen on tuning (WORDNET_CHOSEN). Not a part of
 * `npm run bench` (it reads WordNet for each variant, ~20 s each on a loaded machine).
 *
 * Run: npx tsx test/bench/toolsearch/wordnet-trial.ts
 */
import { performance } from 'node:perf_hooks';
import { createToolSearcher, type ToolSearchEntry } from '../../../electron/core/agents/tool-search.js';
import { tableOfGroups } from '../../../electron/core/agents/tool-search/synonyms.js';
import { duplicatesOf, loadCorpus, loadQueries, measureQuality, splitQueries, type LabelledQuery } from './evaluate.js';
import { WORDNET_CHOSEN, wordnetGroups, type WordnetOptions } from './wordnet-groups.js';
import { quantile } from '../util.js';

const corpus = loadCorpus();
const duplicates = duplicatesOf(corpus);
const { tuning, heldOut } = splitQueries(loadQueries());

function measure(entries: readonly ToolSearchEntry[], queries: readonly LabelledQuery[], wordnet?: { options: WordnetOptions; weight: number }) {
  const table = wordnet && tableOfGroups(wordnetGroups(entries, wordnet.options));
  const searcher = createToolSearcher(entries, table ? { moreSynonyms: { table, weight: wordnet.weight } } : {});
  const q = measureQuality(queries, (query, k) => searcher.search(query, k).map((m) => m.name), duplicates);
  const times: number[] = [];
  for (let round = 0; round < 4; round++)
    for (const { query } of queries) {
      const start = performance.now();
      searcher.search(query, 10);
      if (round > 0) times.push(performance.now() - start);
    }
  times.sort((a, b) => a - b);
  const groups = table ? ` (${table.size} terms)` : '';
  return `recall@1 ${q.recallAt1.toFixed(3)}  recall@5 ${q.recallAt5.toFixed(3)}  MRR ${q.mrr.toFixed(3)}  p95 ${quantile(times, 0.95).toFixed(1)} ms${groups}`;
}

const variants: { options: WordnetOptions; weight: number }[] = [];
for (const senses of [1, 2]) for (const weight of [0.2, 0.3]) variants.push({ options: { minTools: 25, senses, verbHypernyms: false }, weight });
for (const minTools of [10, 60]) variants.push({ options: { minTools, senses: 2, verbHypernyms: false }, weight: 0.2 });
variants.push({ options: WORDNET_CHOSEN, weight: 0.2 }, { options: WORDNET_CHOSEN, weight: 0.3 });

console.log(`tuning part (${tuning.length}), as shipped: ${measure(corpus, tuning)}`);
for (const v of variants) console.log(`tuning part, ${JSON.stringify(v.options)} at ${v.weight}: ${measure(corpus, tuning, v)}`);
console.log(`held out (${heldOut.length}), as shipped: ${measure(corpus, heldOut)}`);
console.log(`held out, ${JSON.stringify(WORDNET_CHOSEN)} at 0.2: ${measure(corpus, heldOut, { options: WORDNET_CHOSEN, weight: 0.2 })}`);
