/**
 * Learning from use, kept in the data folder (`<data>/search/learned.json`): the learner's state
 * (tool-search-learning-rules.ts) loaded at start, written a moment after it
 * changes (whole file, temp then rename), bounded by the learner's limits. Local only: nothing
 * leaves the machine. Off when config.toolSearch.learnFromUse is false: nothing is learned and
 * the searchers see no learned words (what was learned stays on disk until reset).
 *
 * The agent surface (electron/core/agent-surface/) tells it what agents searched (search_tools)
 * and called, per session and principal; the audiences' searchers ask what changed since they
 * last looked (version, changedSince) and learn it; the app shows a tool's "found by these
 * searches" and resets one tool or all (tools.searchLearning.*).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import type { Logger } from '../log.js';
import type { ConfigStore } from '../config.js';
import type { Disposables } from '../lifecycle.js';
import type { ToolSearchLearningView } from '../../../shared/operations/tools.js';
import { tokenize } from './normalize.js';
import { STOPWORDS } from './stopwords.js';
import { emptyLearning, shareHolder, UsageLearner, type LearningChange, type LearningState } from './tool-search-learning-rules.js';

const WRITE_DELAY_MS = 1_000;

/** The words of a query worth learning: folded, filler dropped (the ranker analyses them again when it learns them). */
export const queryWords = (query: string): string[] => tokenize(query).filter((w) => !STOPWORDS.has(w));
/** Changes remembered for searchers that look rarely; one further behind relearns everything. */
const MAX_CHANGES = 2_000;

export interface LearnedView {
  toolID: string;
  /** Words, strongest first, with how many principals taught each. */
  words: { word: string; strength: number; teachers: number }[];
  /** The latest searches that led an agent to call it, newest first. */
  searches: { query: string; at: string }[];
  updatedAt: string;
}

export class ToolSearchLearning {
  private learner: UsageLearner;
  private readonly file: string;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Bumped on every change; changes[i] happened at version firstVersion + i. */
  version = 0;
  private firstVersion = 0;
  private changes: string[] = [];

  constructor(
    dataDir: string,
    private readonly enabled: () => boolean,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.file = join(dataDir, 'search', 'learned.json');
    this.learner = this.learnerOf(emptyLearning());
  }

  private learnerOf(state: LearningState): UsageLearner {
    return new UsageLearner(state, queryWords);
  }

  async load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.logger.error(`reading ${this.file}`, e);
      return;
    }
    try {
      const state = JSON.parse(text) as LearningState;
      if (state?.version !== 1 || typeof state.tools !== 'object' || state.tools === null) throw new Error('not a learned-words file of version 1');
      this.learner = this.learnerOf(state);
      this.everything();
    } catch (e) {
      // A damaged file costs what was learned, never the search: start afresh, keep the file for a look.
      this.logger.warn(`tool search: ${this.file} could not be read (${(e as Error).message}); learning starts afresh`);
    }
  }

  /** An agent searched: `principal` is the key of the credential it speaks for (shared/caller.ts principalKey); the session when absent. */
  searched(session: string, query: string, toolIDs: readonly string[], principal?: string): void {
    if (!this.enabled()) return;
    this.record(this.learner.searched(session, query, toolIDs, this.now(), shareHolder(principal ?? session)));
  }

  called(session: string, toolID: string): void {
    if (!this.enabled()) return;
    this.record(this.learner.called(session, toolID, this.now()));
  }

  /** What a tool learned, as the ranker takes it ({} when learning is off or it learned nothing). */
  wordsOf(toolID: string): Readonly<Record<string, number>> {
    if (!this.enabled()) return {};
    return this.learner.state.tools[toolID]?.words ?? {};
  }

  /** The tools that learned something (whatever the setting: the app shows them). */
  learnedTools(): string[] {
    return Object.keys(this.learner.state.tools);
  }

  /** What tools.searchLearning answers: the view, empty when the tool learned nothing, and the setting. */
  show(toolID: string): ToolSearchLearningView {
    return { ...(this.view(toolID) ?? { toolID, words: [], searches: [] }), learnFromUse: this.enabled() };
  }

  view(toolID: string): LearnedView | undefined {
    const tool = this.learner.state.tools[toolID];
    if (!tool) return undefined;
    const shares = Object.values(tool.shares ?? {});
    const words = Object.entries(tool.words)
      .map(([word, strength]) => ({
        word,
        strength: Math.round(strength * 100) / 100,
        teachers: Math.max(1, shares.filter((s) => s[word] !== undefined).length),
      }))
      .sort((a, b) => b.strength - a.strength || a.word.localeCompare(b.word));
    return { toolID, words, searches: tool.searches, updatedAt: tool.updatedAt };
  }

  /** Forgets what one tool (or, without one, every tool) learned. */
  async reset(toolID?: string): Promise<{ reset: number }> {
    const count = toolID === undefined ? this.learnedTools().length : this.learner.state.tools[toolID] ? 1 : 0;
    this.learner.forget(toolID);
    if (toolID === undefined) this.everything();
    else this.record({ tools: [toolID] });
    await this.flush();
    return { reset: count };
  }

  /** The setting changed: every searcher relearns (or unlearns) everything. */
  settingChanged(): void {
    this.everything();
  }

  /** The tools changed since `version`, or 'all' when too far behind. */
  changedSince(version: number): string[] | 'all' {
    if (version >= this.version) return [];
    if (version < this.firstVersion) return 'all';
    return [...new Set(this.changes.slice(version - this.firstVersion))];
  }

  private everything(): void {
    this.version++;
    this.firstVersion = this.version;
    this.changes = [];
  }

  private record(change: LearningChange): void {
    if (!change.tools.length) return;
    for (const id of change.tools) {
      this.changes.push(id);
      this.version++;
    }
    if (this.changes.length > MAX_CHANGES) this.everything();
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, WRITE_DELAY_MS);
    this.timer.unref?.();
  }

  /** Writes the state now (after any write under way). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const text = `${JSON.stringify(this.learner.state)}\n`;
    this.writing = this.writing.then(async () => {
      try {
        await mkdir(join(this.file, '..'), { recursive: true });
        await writeFileAtomic(this.file, text, { skipDirSync: true });
      } catch (e) {
        this.logger.error(`writing ${this.file}`, e);
      }
    });
    return this.writing;
  }

  async close(): Promise<void> {
    if (this.timer) await this.flush();
    await this.writing;
  }
}

/** The composition root's part: loaded from the data folder, told when the setting changes, flushed on close. */
export async function openToolSearchLearning(opts: { dataDir: string; config: ConfigStore; logger: Logger; owned: Disposables }): Promise<ToolSearchLearning> {
  const on = () => opts.config.get().toolSearch?.learnFromUse !== false;
  const learning = new ToolSearchLearning(opts.dataDir, on, opts.logger);
  await learning.load();
  let was = on();
  opts.owned.listen(opts.config, 'changed', () => {
    if (on() !== was) learning.settingChanged();
    was = on();
  });
  opts.owned.add(() => learning.close());
  return learning;
}
