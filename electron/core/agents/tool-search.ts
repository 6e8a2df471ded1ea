/**
 * Tool search for agents (the search_tools meta-tool): ranks tools by what a task says — their
 * names, titles, descriptions, arguments, tags and bundle, with synonyms for common verbs and a
 * small usage prior. The ranking lives in tool-search/; docs/tool-search.md has its figures.
 *
 * A query with no searchable words (empty, only punctuation or filler words) answers []. Only a
 * query's first 2,000 characters and 32 distinct words count, so a pasted megabyte is cheap.
 */
import { Bm25fRanker, type RankerOptions } from './tool-search/ranker.js';

export type { ToolSearchEntry, ToolSearchMatch } from './tool-search/entry.js';
import type { ToolSearchEntry, ToolSearchMatch } from './tool-search/entry.js';

export interface ToolSearcher {
  /** The best `limit` tools for the query, best first; [] when the query has no searchable words. */
  search(query: string, limit: number): ToolSearchMatch[];
  /** Replaces what a tool (by entry id, else name) has learned from use: word → strength ({} forgets). */
  learn(id: string, words: Readonly<Record<string, number>>): void;
}

export function createToolSearcher(entries: readonly ToolSearchEntry[], options?: RankerOptions): ToolSearcher {
  const ranker = new Bm25fRanker(entries, options);
  return { search: (query, limit) => ranker.search(query, limit), learn: (id, words) => ranker.learned.set(id, words) };
}
