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
 *
 * Shares: what a tool learned is kept per principal (the credential an agent speaks for, as a
 * short hash), so one agent cannot flood a tool's field — a principal's share of a word stops at
 * PRINCIPAL_MAX_STRENGTH, it teaches one tool at most PRINCIPAL_MAX_WORDS words, a tool keeps the
 * shares of its MAX_PRINCIPALS_PER_TOOL latest teachers, and a principal's unanswered searches
 * weaken other principals' shares of a tool at most once per WEAKEN_OTHERS_EVERY_MS. A word's
 * strength is the sum of its shares, capped at MAX_STRENGTH.
 */
import { createHash } from 'node:crypto';

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
/** One principal's share of one word of one tool. */
export const PRINCIPAL_MAX_STRENGTH = 4;
/** The words one principal may teach one tool. */
export const PRINCIPAL_MAX_WORDS = 24;
export const MAX_PRINCIPALS_PER_TOOL = 8;
/** How often one principal's unanswered searches may weaken what others taught a tool. */
export const WEAKEN_OTHERS_EVERY_MS = 24 * 3600 * 1000;
const MAX_WEAKENINGS_REMEMBERED = 10_000;
/** The share of what a version-1 file learned before shares were kept. */
const EARLIER = 'p-earlier';
/** Searches a session keeps waiting for a call. */
const MAX_PENDING_PER_SESSION = 8;
const MAX_SESSIONS = 1_000;
const MAX_QUERY_CHARS = 200;
const MAX_WORDS_PER_QUERY = 16;

export interface LearnedTool {
  /** word (as the query said it, folded) → strength: the sum of its shares, capped at MAX_STRENGTH. */
  words: Record<string, number>;
  /** principal (`p-` and a short hash of its key) → word → its share; least recent teacher first. */
  shares?: Record<string, Record<string, number>>;
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
  /** Who searched: the holder of the share it teaches. */
  principal: string;
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
  /** `principal\0toolID` → when that principal last weakened others' shares of that tool. */
  private readonly weakenedOthers = new Map<string, number>();

  constructor(
    readonly state: LearningState,
    /** A query's words worth learning (the ranker's analyzer, folded, filler dropped). */
    private readonly wordsOf: (query: string) => string[],
  ) {}

  /**
   * An agent searched; nothing is learned until it calls something (or its window ends).
   * `principal` names the share it teaches (shareHolder of the principal's key); the session when absent.
   */
  searched(session: string, query: string, shownToolIDs: readonly string[], now: number, principal: string = shareHolder(session)): LearningChange {
    const change = this.expire(now);
    const words = [...new Set(this.wordsOf(query.slice(0, MAX_QUERY_CHARS)))].slice(0, MAX_WORDS_PER_QUERY);
    if (!words.length) return change;
    if (!this.pending.has(session) && this.pending.size >= MAX_SESSIONS) this.dropOldestSession(now, change);
    const list = this.pending.get(session) ?? [];
    list.push({ principal, query: query.slice(0, MAX_QUERY_CHARS), words, shown: shownToolIDs.slice(0, 10), at: now, chosen: false });
    while (list.length > MAX_PENDING_PER_SESSION) this.settle(list.shift()!, change);
    this.pending.set(session, list);
    return change;
  }

  /**
   * An agent called a tool: the latest search of its session in the window that showed the tool
   * teaches the tool its words (else the latest search, as an attempt); the tools it showed above weaken.
   */
  called(session: string, toolID: string, now: number): LearningChange {
    // Most calls follow no search (every call of every agent comes here): those cost a lookup.
    if (!this.pending.get(session)?.length) return { tools: [] };
    const change = this.expire(now);
    const list = this.pending.get(session);
    if (!list?.length) return change;
    const showing = [...list].reverse().find((s) => s.shown.includes(toolID));
    const search = showing ?? list[list.length - 1]!;
    // The session's earlier searches nothing was called after were attempts at the same task, in other words.
    for (const attempt of list) {
      if (attempt.chosen || attempt === search) continue;
      attempt.chosen = true;
      this.strengthen(toolID, attempt, ATTEMPT_STRENGTH, now, change);
    }
    search.chosen = true;
    // A tool no search showed was found another way: the latest search was an attempt too.
    this.strengthen(toolID, search, showing ? 1 : ATTEMPT_STRENGTH, now, change);
    for (const other of search.shown) {
      if (other === toolID) break;
      this.weaken(other, search, PASSED_OVER_DECAY, now, change);
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
    for (const toolID of search.shown.slice(0, 5)) this.weaken(toolID, search, UNANSWERED_DECAY, search.at, change);
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
    const shares = sharesOf(tool);
    const share = shares[search.principal] ?? {};
    for (const word of search.words) {
      if (share[word] === undefined && Object.keys(share).length >= PRINCIPAL_MAX_WORDS) continue;
      share[word] = Math.min(PRINCIPAL_MAX_STRENGTH, (share[word] ?? 0) + by);
    }
    // The latest teacher last: the first is the one to let go.
    delete shares[search.principal];
    shares[search.principal] = share;
    const holders = Object.keys(shares);
    for (const holder of holders.slice(0, Math.max(0, holders.length - MAX_PRINCIPALS_PER_TOOL))) delete shares[holder];
    tool.words = sumShares(shares);
    const words = Object.entries(tool.words);
    if (words.length > MAX_WORDS_PER_TOOL) {
      const kept = new Set(
        words
          .sort((a, b) => b[1] - a[1])
          .slice(0, MAX_WORDS_PER_TOOL)
          .map(([w]) => w),
      );
      for (const s of Object.values(shares)) for (const w of Object.keys(s)) if (!kept.has(w)) delete s[w];
      tool.words = sumShares(shares);
    }
    tool.shares = withoutEmpty(shares);
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

  /** Weakens the search's words of a tool: the searcher's own share always, others' at most once per WEAKEN_OTHERS_EVERY_MS. */
  private weaken(toolID: string, search: PendingSearch, factor: number, now: number, change: LearningChange): void {
    const tool = this.state.tools[toolID];
    if (!tool) return;
    const shares = sharesOf(tool);
    const key = `${search.principal}\u0000${toolID}`;
    const last = this.weakenedOthers.get(key);
    const others = last === undefined || now - last >= WEAKEN_OTHERS_EVERY_MS;
    let touched = false;
    for (const [holder, share] of Object.entries(shares)) {
      if (holder !== search.principal && !others) continue;
      for (const word of search.words) {
        const strength = share[word];
        if (strength === undefined) continue;
        touched = true;
        if (strength * factor < MIN_STRENGTH) delete share[word];
        else share[word] = strength * factor;
      }
    }
    if (!touched) return;
    if (others && Object.keys(shares).some((h) => h !== search.principal)) this.rememberWeakening(key, now);
    tool.shares = withoutEmpty(shares);
    tool.words = sumShares(tool.shares);
    if (!Object.keys(tool.words).length) delete this.state.tools[toolID];
    change.tools.push(toolID);
  }

  private rememberWeakening(key: string, now: number): void {
    this.weakenedOthers.delete(key);
    this.weakenedOthers.set(key, now);
    if (this.weakenedOthers.size > MAX_WEAKENINGS_REMEMBERED) this.weakenedOthers.delete(this.weakenedOthers.keys().next().value!);
  }
}

/** The holder of a principal's share: `p-` and a short hash of its key, so no credential's name lands in the file. */
export function shareHolder(principalKey: string): string {
  return `p-${createHash('sha256').update(principalKey).digest('hex').slice(0, 12)}`;
}

/** A tool's shares; a file written before shares were kept holds its words as one earlier share. */
function sharesOf(tool: LearnedTool): Record<string, Record<string, number>> {
  return (tool.shares ??= Object.keys(tool.words).length ? { [EARLIER]: { ...tool.words } } : {});
}

function sumShares(shares: Readonly<Record<string, Readonly<Record<string, number>>>>): Record<string, number> {
  const words: Record<string, number> = {};
  for (const share of Object.values(shares)) for (const [word, s] of Object.entries(share)) words[word] = (words[word] ?? 0) + s;
  for (const word of Object.keys(words)) {
    if (words[word]! < MIN_STRENGTH) delete words[word];
    else words[word] = Math.min(MAX_STRENGTH, words[word]!);
  }
  return words;
}

function withoutEmpty(shares: Record<string, Record<string, number>>): Record<string, Record<string, number>> {
  for (const holder of Object.keys(shares)) if (!Object.keys(shares[holder]!).length) delete shares[holder];
  return shares;
}
