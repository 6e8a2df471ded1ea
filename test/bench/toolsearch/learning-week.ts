/**
 * A simulated week of use for the learning lever: agents search the team's written phrasings of
 * the tuning half of the tools (one phrasing of each, the others kept to measure) and call the
 * tool meant — at once when the search showed it in its top 10, else after a second search by the
 * tool's own title, as an agent tries other words; one session in five searches and calls
 * nothing. The events go through the learner the app runs (electron/core/search/tool-search-learning-rules.ts), three agents' credentials sharing the sessions; then the
 * ranker gets what it learned and the phrasings kept aside are measured again.
 */
import { createHash } from 'node:crypto';
import { createToolSearcher } from '../../../electron/core/agents/tool-search.js';
import { createAnalyzer } from '../../../electron/core/agents/tool-search/analyze.js';
import { emptyLearning, UsageLearner } from '../../../electron/core/search/tool-search-learning-rules.js';
import { measureQuality, type CorpusEntry, type Quality } from './evaluate.js';
import type { Phrasing } from './phrasings.js';

export interface WeekFigures {
  sessions: number;
  calls: number;
  ignored: number;
  before: Quality;
  after: Quality;
  untouchedBefore: Quality;
  untouchedAfter: Quality;
}

const DAY = 24 * 3600 * 1000;
const hashOf = (text: string) => createHash('sha256').update(text).digest()[0]!;

/** Which tuning phrasings a simulated week replays (one per tool of the tuning half) and which it keeps to measure. */
export function weekPlan(phrasings: readonly Phrasing[]): { replayed: Phrasing[]; kept: Phrasing[]; usedNames: Set<string> } {
  const byTool = new Map<string, Phrasing[]>();
  // The train-*.txt phrasings (phrasings.ts) stay out of it: the week is the one earlier figures were on.
  for (const p of phrasings) if (!p.heldOut && !p.file.startsWith('train-')) byTool.set(p.expected[0]!, [...(byTool.get(p.expected[0]!) ?? []), p]);
  // The tuning half of the tools: those with two or more tuning phrasings, every other one by name hash.
  const used = [...byTool].filter(([name, list]) => list.length >= 2 && hashOf(name) % 2 === 0);
  return { replayed: used.map(([, list]) => list[0]!), kept: used.flatMap(([, list]) => list.slice(1)), usedNames: new Set(used.map(([name]) => name)) };
}

/**
 * Replays agents' sessions through the learner the app runs, the searcher learning as it goes;
 * returns the counts.
 */
export function replayWeek(
  searcher: { search(q: string, k: number): { name: string }[]; learn(id: string, words: Readonly<Record<string, number>>): void },
  corpus: readonly CorpusEntry[],
  replayed: readonly Phrasing[],
): { calls: number; ignored: number } {
  const titleOf = new Map(corpus.map((e) => [e.name, e.title]));
  const rank = (q: string, k: number) => searcher.search(q, k).map((m) => m.name);
  const analyzer = createAnalyzer();
  const learner = new UsageLearner(emptyLearning(), (q) => analyzer.words(q).map((w) => w.word));
  let now = Date.parse('2026-11-02T08:00:00Z');
  let calls = 0;
  let ignored = 0;
  replayed.forEach((p, i) => {
    const session = `session-${i}`;
    // A team's three agents, each with its own credential: the principals whose shares are kept.
    const principal = `agent-${hashOf(session) % 3}`;
    now += (7 * DAY) / replayed.length;
    learner.searched(session, p.query, rank(p.query, 10), now, principal);
    if (hashOf(`ignored:${p.query}`) % 5 === 0) {
      ignored++;
      return;
    }
    const meant = p.expected[0]!;
    if (!rank(p.query, 10).includes(meant))
      learner.searched(session, titleOf.get(meant) ?? meant, rank(titleOf.get(meant) ?? meant, 10), now + 20_000, principal);
    const change = learner.called(session, meant, now + 40_000);
    for (const id of change.tools) searcher.learn(id, learner.state.tools[id]?.words ?? {});
    calls++;
  });
  const change = learner.expire(now + DAY);
  for (const id of change.tools) searcher.learn(id, learner.state.tools[id]?.words ?? {});
  return { calls, ignored };
}

export function simulateWeek(corpus: readonly CorpusEntry[], phrasings: readonly Phrasing[], duplicates: ReadonlyMap<string, readonly string[]>): WeekFigures {
  const { replayed, kept, usedNames } = weekPlan(phrasings);
  const untouched = phrasings.filter((p) => p.heldOut && !usedNames.has(p.expected[0]!));
  const searcher = createToolSearcher(corpus);
  const rank = (q: string, k: number) => searcher.search(q, k).map((m) => m.name);
  const before = measureQuality(kept, rank, duplicates);
  const untouchedBefore = measureQuality(untouched, rank, duplicates);
  const { calls, ignored } = replayWeek(searcher, corpus, replayed);
  return {
    sessions: replayed.length,
    calls,
    ignored,
    before,
    after: measureQuality(kept, rank, duplicates),
    untouchedBefore,
    untouchedAfter: measureQuality(untouched, rank, duplicates),
  };
}
