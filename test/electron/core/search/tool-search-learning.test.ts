/**
 * Learning from use, replayed from a session log (test/fixtures/toolsearch/session-log.jsonl):
 * agents' searches and the calls after them, on the real corpus. The words of a search that led
 * to a call strengthen the tool called; the session's earlier, unanswered searches count as
 * attempts; a search nothing was called after weakens what it showed. The state is kept in the
 * data folder and read back; it is bounded; it resets per tool or whole.
 */
import { readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createToolSearcher, type ToolSearcher } from '../../../../electron/core/agents/tool-search.js';
import { ToolSearchLearning } from '../../../../electron/core/search/tool-search-learning.js';
import { emptyLearning, MAX_WORDS_PER_TOOL, UsageLearner } from '../../../../electron/core/search/tool-search-learning-rules.js';
import { loadCorpus } from '../../../bench/toolsearch/evaluate.js';
import { tempDir } from '../../../helpers/store.js';

type Event = { at: string; session: string; search?: string; call?: string };
const log = readFileSync(new URL('../../../fixtures/toolsearch/session-log.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Event);

const quiet = { error() {}, warn() {}, info() {} };
let dir: string;
let searcher: ToolSearcher;
const top = (query: string, k = 5) => searcher.search(query, k).map((m) => m.name);

const corpus = loadCorpus();
beforeAll(async () => {
  dir = await tempDir('tw-learn-');
});
beforeEach(() => {
  searcher = createToolSearcher(corpus);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function replay(learning: ToolSearchLearning, clock: { now: number }): void {
  for (const event of log) {
    clock.now = Date.parse(event.at);
    if (event.search) learning.searched(event.session, event.search, top(event.search, 10));
    if (event.call) learning.called(event.session, event.call);
    // As the app's searchers do: learn what changed before the next search.
    for (const toolID of learning.learnedTools()) searcher.learn(toolID, learning.wordsOf(toolID));
  }
}

describe('learning from use', () => {
  it('replays a session log: the words that led to a call find the tool next time, and the state is kept on disk', async () => {
    expect(top('what song am I listening to', 5)).not.toContain('get-the-users-currently-playing-track');
    const clock = { now: 0 };
    const learning = new ToolSearchLearning(
      dir,
      () => true,
      quiet,
      () => clock.now,
    );
    replay(learning, clock);
    const view = learning.view('droplet-actions-post')!;
    expect(view.searches.map((s) => s.query)).toEqual(['resize droplet', 'power off the droplet', 'droplet action', 'resize my droplet to 4gb']);
    expect(view.words.find((w) => w.word === 'resize')!.strength).toBe(1.5); // an attempt (0.5), then a search that showed it (1)
    // One session's attempt (strength 0.5) lifts it from beyond the top 5 into the top 3.
    expect(top('what song am I listening to', 3)).toContain('get-the-users-currently-playing-track');
    expect(searcher.search('what song am I listening to', 3).find((m) => m.name === 'get-the-users-currently-playing-track')!.why).toMatch(
      /found before by: .*'song'/,
    );
    await learning.close();
    const again = new ToolSearchLearning(dir, () => true, quiet);
    await again.load();
    expect(again.view('droplet-actions-post')).toEqual(view);
    expect(JSON.parse(await readFile(join(dir, 'search', 'learned.json'), 'utf8'))).toMatchObject({ version: 1 });
  });

  it('weakens what a search showed when nothing was called after it, and forgets on reset', async () => {
    const clock = { now: 0 };
    const learning = new ToolSearchLearning(
      await tempDir('tw-learn-'),
      () => true,
      quiet,
      () => clock.now,
    );
    replay(learning, clock);
    const before = learning.view('get-the-users-currently-playing-track')!.words.find((w) => w.word === 'song')!.strength;
    // cursor-8 searched "what song am I listening to" and called nothing; its window ends.
    clock.now += 31 * 60 * 1000;
    learning.searched('later', 'anything', []);
    const after = learning.view('get-the-users-currently-playing-track')!.words.find((w) => w.word === 'song')!.strength;
    expect(after).toBeLessThan(before);
    expect((await learning.reset('get-the-users-currently-playing-track')).reset).toBe(1);
    expect(learning.view('get-the-users-currently-playing-track')).toBeUndefined();
    expect((await learning.reset()).reset).toBe(1);
    expect(learning.learnedTools()).toEqual([]);
  });

  it('learns nothing when the setting is off, and stays bounded', () => {
    const clock = { now: 0 };
    const off = new ToolSearchLearning(
      dir,
      () => false,
      quiet,
      () => clock.now,
    );
    replay(off, clock);
    expect(off.learnedTools()).toEqual([]);
    const learner = new UsageLearner(emptyLearning(), (q) => q.split(' '));
    for (let i = 0; i < 200; i++) {
      learner.searched('s', `word${i} other${i}`, ['t'], i);
      learner.called('s', 't', i);
    }
    expect(Object.keys(learner.state.tools['t']!.words).length).toBe(MAX_WORDS_PER_TOOL);
    expect(learner.state.tools['t']!.searches.length).toBe(10);
  });
});
