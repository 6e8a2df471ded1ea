/**
 * The fast loop for tuning the tool-search ranker: builds the index once and prints recall@1/5/10
 * and MRR on the tuning parts only (the held-out parts are read by the full bench, to report).
 * With --misses, sorts each tuning miss into what went wrong: the wrong API entirely (no tool of
 * the expected bundle in the top 5), the right API but another operation, or a near-duplicate of
 * the expected operation (same bundle, same resource words, another verb: list vs get).
 *
 *   npx tsx test/bench/toolsearch/quick.ts [--misses] [--first-stage]
 */
import { createToolSearcher } from '../../../electron/core/agents/tool-search.js';
import type { RankerOptions } from '../../../electron/core/agents/tool-search/ranker.js';
import { duplicatesOf, loadCorpus, loadQueries, measureQuality, splitQueries, type LabelledQuery } from './evaluate.js';
import { loadPhrasings } from './phrasings.js';

const showMisses = process.argv.includes('--misses');
const corpus = loadCorpus();
const duplicates = duplicatesOf(corpus);
const byName = new Map(corpus.map((e) => [e.name, e]));
const started = performance.now();
// --options '{"compounds":true}' measures a ranker option.
const optionsAt = process.argv.indexOf('--options');
const options = optionsAt > 0 ? (JSON.parse(process.argv[optionsAt + 1]!) as RankerOptions) : {};
const searcher = createToolSearcher(corpus, process.argv.includes('--first-stage') ? { ...options, reranker: null } : options);
const built = performance.now() - started;
const phrasings = loadPhrasings(corpus);
const sets: [string, LabelledQuery[]][] = [
  ['tuning, earlier set', splitQueries(loadQueries()).tuning],
  // The train-*.txt phrasings (training only, written to the tuning misses) are not in it, so it stays the set earlier figures were on.
  ['tuning, written', phrasings.filter((p) => !p.heldOut && !p.file.startsWith('train-'))],
];
const rank = (q: string, k: number) => searcher.search(q, k).map((m) => m.name);
console.log(`index built in ${built.toFixed(0)} ms`);
const resourceWords = (name: string) =>
  new Set(
    name
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length > 2 && !/^(get|list|create|update|delete|post|put|patch|by|for|the|all|id)$/.test(w)),
  );
for (const [label, set] of sets) {
  const q = measureQuality(set, rank, duplicates);
  if (process.argv.includes('--first-stage')) {
    const within100 = set.filter(({ query, expected }) => {
      const acceptable = new Set(expected.flatMap((n) => duplicates.get(n) ?? [n]));
      return rank(query, 100).some((n) => acceptable.has(n));
    }).length;
    console.log(`${label.padEnd(22)} first stage's 100 hold the expected tool for ${(within100 / set.length).toFixed(3)}`);
  }
  console.log(
    `${label.padEnd(22)} (${set.length}) r@1 ${q.recallAt1.toFixed(3)}  r@5 ${q.recallAt5.toFixed(3)}  r@10 ${q.recallAt10.toFixed(3)}  MRR ${q.mrr.toFixed(3)}`,
  );
  const top5Misses = set.filter(({ query, expected }) => {
    const acceptable = new Set(expected.flatMap((n) => duplicates.get(n) ?? [n]));
    return !rank(query, 5).some((n) => acceptable.has(n));
  });
  const kinds = { 'wrong API': 0, 'right API, other operation': 0, 'near-duplicate operation': 0 };
  const lines: string[] = [];
  for (const { query, expected } of top5Misses) {
    const want = byName.get(expected[0]!)!;
    const got = rank(query, 5);
    const sameBundle = got.filter((n) => byName.get(n)?.bundle === want.bundle);
    const wantWords = resourceWords(want.name);
    let kind: keyof typeof kinds = 'wrong API';
    if (sameBundle.length) {
      const near = sameBundle.some((n) => {
        const words = resourceWords(n);
        return [...wantWords].filter((w) => words.has(w)).length >= Math.max(1, Math.ceil(wantWords.size / 2));
      });
      kind = near ? 'near-duplicate operation' : 'right API, other operation';
    }
    kinds[kind]++;
    lines.push(`  [${kind}] "${query}" want ${want.bundle}/${want.name} got ${got.map((n) => `${byName.get(n)?.bundle}/${n}`).join(', ')}`);
  }
  console.log(
    `  misses@5 ${top5Misses.length}: ${Object.entries(kinds)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  if (showMisses) console.log(lines.join('\n'));
}
