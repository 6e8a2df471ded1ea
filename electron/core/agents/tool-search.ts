/**
 * The seam of a profile's search mode: a searcher built once per view of a profile (and rebuilt
 * when the view changes), asked with an agent's query. For now it ranks with the store's own
 * search index (search/search-index.ts: prefix, whole word, then fuzzy tiers; more query words
 * matched first), over the names the agent would call; among equals, the more used tool first.
 */
import type { BundleFile, ToolFile } from '../../../shared/schemas.js';
import { ToolSearchIndex, MAX_PAGE_SIZE } from '../search/search-index.js';

export interface ToolSearchEntry {
  name: string;
  title: string;
  description: string;
  argNames: string[];
  argDescriptions: string[];
  tags: string[];
  bundle: string;
  calls: number;
}
export interface ToolSearchMatch {
  name: string;
  score: number;
  why: string;
}
export interface ToolSearcher {
  search(query: string, limit: number): ToolSearchMatch[];
}

const FIELD_WORDS: Record<string, string> = {
  slug: 'name',
  displayName: 'title',
  description: 'description or arguments',
  tags: 'tags',
  bundleSlug: 'bundle',
  bundleDisplayName: 'bundle',
};

export function createToolSearcher(entries: readonly ToolSearchEntry[]): ToolSearcher {
  const index = new ToolSearchIndex();
  const bundles = new Map<string, BundleFile>();
  const bundleOf = (slug: string): BundleFile => {
    let b = bundles.get(slug);
    if (!b) {
      b = { bundleID: `b${bundles.size}`, slug, displayName: slug, isEnabled: true } as BundleFile;
      bundles.set(slug, b);
    }
    return b;
  };
  // The index breaks ties by modifiedAt, newer first: calls stand in for it, so the more used tool leads.
  index.load(
    entries.map((e) => {
      const bundle = bundleOf(e.bundle);
      const tool = {
        toolID: e.name,
        bundleID: bundle.bundleID,
        slug: e.name,
        displayName: e.title,
        description: [e.description, ...e.argNames, ...e.argDescriptions].join('\n'),
        tags: e.tags,
        isEnabled: true,
        modifiedAt: new Date(Math.min(e.calls, 8.64e15)).toISOString(),
      } as ToolFile;
      return { tool, bundle };
    }),
  );
  return {
    search(query, limit) {
      const page = index.search(query, { pageSize: Math.max(1, Math.min(limit, MAX_PAGE_SIZE)) });
      return page.items.map((hit) => {
        const why = Object.entries(hit.matches)
          .map(([field, words]) => `${words.join(', ')} in ${FIELD_WORDS[field] ?? field}`)
          .join('; ');
        return { name: hit.toolID, score: hit.score, why: `${hit.tier} match: ${why}` };
      });
    },
  };
}
