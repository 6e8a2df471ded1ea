/**
 * The tool-search corpus and query sets (test/fixtures/toolsearch/), and how a ranking is scored
 * against them; shared by the benchmark (test/bench/toolsearch.ts), the re-ranker's trainer and
 * the quality test.
 *
 * The corpus is the team's shared one (import-corpus.ts): 12,828 operations of 94 APIs. A
 * query's acceptable answers are the tools it names plus their genuine duplicates: tools of the
 * same bundle with the same title and description.
 *
 * queries.json is the earlier round's set, its expected tools carried over to this corpus; the
 * queries marked heldOut (every fourth of the original order) were never looked at against any
 * ranker, so their figures are the honest ones.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { ToolSearchEntry } from '../../../electron/core/agents/tool-search.js';

export interface LabelledQuery {
  query: string;
  expected: string[];
  heldOut?: boolean;
}

export interface Quality {
  queries: number;
  recallAt1: number;
  recallAt5: number;
  recallAt10: number;
  /** Mean reciprocal rank of the first acceptable answer within the top 10 (0 when none is). */
  mrr: number;
  /** Queries with no acceptable answer in the top 5, for reading. */
  misses: { query: string; expected: string[]; got: string[] }[];
}

const fixture = (name: string) => new URL(`../../fixtures/toolsearch/${name}`, import.meta.url);

export type CorpusEntry = ToolSearchEntry & { ref: string };

export function loadCorpus(): CorpusEntry[] {
  return JSON.parse(gunzipSync(readFileSync(fixture('corpus.json.gz'))).toString('utf8')) as CorpusEntry[];
}

export function loadQueries(): LabelledQuery[] {
  return JSON.parse(readFileSync(fixture('queries.json'), 'utf8')) as LabelledQuery[];
}

/** Tasks no tool of the corpus does (test/fixtures/toolsearch/off-topic.json), for the relevance floor. */
export function loadOffTopic(): string[] {
  return (JSON.parse(readFileSync(fixture('off-topic.json'), 'utf8')) as { queries: string[] }).queries;
}

export function splitQueries(queries: readonly LabelledQuery[]): { tuning: LabelledQuery[]; heldOut: LabelledQuery[] } {
  return { tuning: queries.filter((q) => !q.heldOut), heldOut: queries.filter((q) => q.heldOut) };
}

/** name → every name acceptable in its place (itself and its genuine duplicates). */
export function duplicatesOf(corpus: readonly ToolSearchEntry[]): Map<string, string[]> {
  const byContent = new Map<string, string[]>();
  const key = (e: ToolSearchEntry) => JSON.stringify([e.bundle, e.title, e.description]);
  for (const entry of corpus) byContent.set(key(entry), [...(byContent.get(key(entry)) ?? []), entry.name]);
  return new Map(corpus.map((entry) => [entry.name, byContent.get(key(entry))!]));
}

export function measureQuality(
  queries: readonly LabelledQuery[],
  rank: (query: string, limit: number) => string[],
  duplicates: ReadonlyMap<string, readonly string[]>,
): Quality {
  let hitsAt1 = 0;
  let hitsAt5 = 0;
  let hitsAt10 = 0;
  let reciprocal = 0;
  const misses: Quality['misses'] = [];
  for (const { query, expected } of queries) {
    const acceptable = new Set(expected.flatMap((name) => duplicates.get(name) ?? [name]));
    const got = rank(query, 10);
    const first = got.findIndex((name) => acceptable.has(name));
    if (first === 0) hitsAt1++;
    if (first >= 0 && first < 5) hitsAt5++;
    if (first >= 0) hitsAt10++;
    else misses.push({ query, expected, got: got.slice(0, 5) });
    if (first >= 0) reciprocal += 1 / (first + 1);
  }
  const n = Math.max(1, queries.length);
  return { queries: queries.length, recallAt1: hitsAt1 / n, recallAt5: hitsAt5 / n, recallAt10: hitsAt10 / n, mrr: reciprocal / n, misses };
}
