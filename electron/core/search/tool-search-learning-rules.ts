/**
 * Learning from use, as rules over events (no I/O; the store in electron/core/search/ keeps the
 * state in the data folder). When an agent searches and then calls a tool in the same session
 * within SESSION_WINDOW_MS, the words of the search that led there strengthen that tool's learned
 * field; the tools that search showed above the one chosen, and the tools a search showed that
 * nothing was called after, weaken slowly on those words. Bounded: so many words per tool, so
 * many tools, so many remembered searches per tool ("found by these searches", shown in the app).
 *
 * A session's earlier searches that nothing was called after count as attempts at the same task
 * and teach the tool at ATTEMPT_STRENGTH. Strength grows by 1 a use, is capped at MAX_STRENGTH, and is multiplied by PASSED_OVER_DECAY
 * (shown, not chosen) or UNANSWERED_DECAY (a search nothing was called after); a word falling
 * below MIN_STRENGTH is forgotten.
 */
export const SESSION_WINDOW_MS = 30 * 60 * 1000;
export const MAX_STRENGTH = 8;
/** What an earlier search of the session, that nothing was called after, teaches the tool finally called. */
export const ATTEMPT_STRENGTH = 0.5;
export const MIN_STRENGTH = 0.2;
export const PASSED_OVER_DECAY = 0.9;
export const UNANSWERED_DECAY = 0.95;
export const MAX_WORDS_PER_TOOL = 48;
export const MAX_TOOLS = 5_000;
export const MAX_SEARCHES_PER_TOOL = 10;
/** Searches a session keeps waiting for a call. */
const MAX_PENDING_PER_SESSION = 8;
const MAX_SESSIONS = 1_000;
const MAX_QUERY_CHARS = 200;
const MAX_WORDS_PER_QUERY = 16;

export interface LearnedTool {
  /** word (as the query said it, folded) → strength. */
  words: Record<string, number>;
  /** The latest searches that led to a call of it, newest first. */
  searches: { query: string; at: string }[];
  updatedAt: string;
}

export interface LearningState {
  version: 1;
  /** toolID → what it learned. */
  tools: Record<string, LearnedTool>;
}

export const emptyLearning = (): LearningState => ({ version: 1, tools: {} });

interface PendingSearch {
  query: string;
  words: string[];
  /** toolIDs shown, best first. */
  shown: string[];
  at: number;
  chosen: boolean;
}

export interface LearningChange {
  /** Tools whose learned words changed, for the index to update. */
  tools: string[];
}

export class UsageLearner {
  private readonly pending = new Map<string, PendingSearch[]>();

  constructor(
    readonly state: LearningState,
    /** A query's words worth learning (the ranker's analyzer, folded, filler dropped). */
    private readonly wordsOf: (query: string) => string[],
  ) {}

  /** An agent searched; nothing is learned until it calls something (or its window ends). */
  searched(session: string, query: string, shownToolIDs: readonly string[], now: number): LearningChange {
    const change = this.expire(now);
    const words = [...new Set(this.wordsOf(query.slice(0, MAX_QUERY_CHARS)))].slice(0, MAX_WORDS_PER_QUERY);
    if (!words.length) return change;
    if (!this.pending.has(session) && this.pending.size >= MAX_SESSIONS) this.dropOldestSession(now, change);
    const list = this.pending.get(session) ?? [];
    list.push({ query: query.slice(0, MAX_QUERY_CHARS), words, shown: shownToolIDs.slice(0, 10), at: now, chosen: false });
    while (list.length > MAX_PENDING_PER_SESSION) this.settle(list.shift()!, change);
    this.pending.set(session, list);
    return change;
  }

  /**
   * An agent called a tool: the latest search of its session in the window that showed the tool
   * (else the latest search) teaches the tool its words; the tools it showed above weaken.
   */
  called(session: string, toolID: string, now: number): LearningChange {
    const change = this.expire(now);
    const list = this.pending.get(session);
    if (!list?.length) return change;
    const search = [...list].reverse().find((s) => s.shown.includes(toolID)) ?? list[list.length - 1]!;
    // The session's earlier searches nothing was called after were attempts at the same task, in other words.
    for (const attempt of list) {
      if (attempt.chosen || attempt === search) continue;
      attempt.chosen = true;
      this.strengthen(toolID, attempt, ATTEMPT_STRENGTH, now, change);
    }
    search.chosen = true;
    this.strengthen(toolID, search, 1, now, change);
    for (const other of search.shown) {
      if (other === toolID) break;
      this.weaken(other, search.words, PASSED_OVER_DECAY, change);
    }
    return change;
  }

  /** Settles the searches whose window has passed; an unanswered one weakens what it showed. */
  expire(now: number): LearningChange {
    const change: LearningChange = { tools: [] };
    for (const [session, list] of this.pending) {
      while (list.length && now - list[0]!.at > SESSION_WINDOW_MS) this.settle(list.shift()!, change);
      if (!list.length) this.pending.delete(session);
    }
    return change;
  }

  forget(toolID?: string): void {
    if (toolID === undefined) this.state.tools = {};
    else delete this.state.tools[toolID];
  }

  private settle(search: PendingSearch, change: LearningChange): void {
    if (search.chosen) return;
    for (const toolID of search.shown.slice(0, 5)) this.weaken(toolID, search.words, UNANSWERED_DECAY, change);
  }

  private dropOldestSession(now: number, change: LearningChange): void {
    let oldest: string | undefined;
    let at = now;
    for (const [session, list] of this.pending) if (list[0] && list[0].at <= at) [oldest, at] = [session, list[0].at];
    if (oldest === undefined) return;
    for (const search of this.pending.get(oldest)!) this.settle(search, change);
    this.pending.delete(oldest);
  }

  private strengthen(toolID: string, search: PendingSearch, by: number, now: number, change: LearningChange): void {
    const at = new Date(now).toISOString();
    const tool = this.state.tools[toolID] ?? { words: {}, searches: [], updatedAt: at };
    for (const word of search.words) tool.words[word] = Math.min(MAX_STRENGTH, (tool.words[word] ?? 0) + by);
    const words = Object.entries(tool.words);
    if (words.length > MAX_WORDS_PER_TOOL) tool.words = Object.fromEntries(words.sort((a, b) => b[1] - a[1]).slice(0, MAX_WORDS_PER_TOOL));
    tool.searches = [{ query: search.query, at }, ...tool.searches.filter((s) => s.query !== search.query)].slice(0, MAX_SEARCHES_PER_TOOL);
    tool.updatedAt = at;
    this.state.tools[toolID] = tool;
    change.tools.push(toolID);
    const ids = Object.keys(this.state.tools);
    if (ids.length > MAX_TOOLS) {
      const stalest = ids.sort((a, b) => this.state.tools[a]!.updatedAt.localeCompare(this.state.tools[b]!.updatedAt)).slice(0, ids.length - MAX_TOOLS);
      for (const id of stalest) {
        delete this.state.tools[id];
        change.tools.push(id);
      }
    }
  }

  private weaken(toolID: string, words: readonly string[], factor: number, change: LearningChange): void {
    const tool = this.state.tools[toolID];
    if (!tool) return;
    let touched = false;
    for (const word of words) {
      const strength = tool.words[word];
      if (strength === undefined) continue;
      touched = true;
      if (strength * factor < MIN_STRENGTH) delete tool.words[word];
      else tool.words[word] = strength * factor;
    }
    if (!touched) return;
    if (!Object.keys(tool.words).length) delete this.state.tools[toolID];
    change.tools.push(toolID);
  }
}
