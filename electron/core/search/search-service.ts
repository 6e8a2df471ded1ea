/**
 * tools.search: the index ranks tool IDs, the tool service turns them into the tools the
 * answer carries, each with why it matched. The index is built on first need (a start with 10,000
 * tools does not wait on it) and then follows the store through its observer.
 */
import type { OpInput } from '../../../shared/operations.js';
import type { Page, SearchHit } from '../../../shared/types.js';
import type { Store } from '../store/store.js';
import type { ToolService } from '../store/tools.js';
import { ToolSearchIndex } from './search-index.js';
import type { ToolSearchLearning } from './tool-search-learning.js';

export class SearchService {
  private readonly index = new ToolSearchIndex();
  /** Whether the index holds what the store loaded: it is built on the first search (or prepare()), not at the store's open. */
  private built = false;
  /** Stops following the store. */
  readonly dispose: () => void;

  constructor(
    private readonly store: Store,
    private readonly tools: ToolService,
    /** Learning from use for agents' tool search (the MCP door feeds it; search-mode scopes rank by it). */
    readonly learning: ToolSearchLearning,
  ) {
    // Until it is built, changes need not reach the index: the build reads the store as it is then.
    this.dispose = store.observe({
      loaded: () => {
        this.built = false;
        this.index.clear();
      },
      toolChanged: (tool, bundle) => {
        if (this.built) this.index.upsert(tool, bundle);
      },
      toolRemoved: (id) => {
        if (this.built) this.index.remove(id);
      },
      bundleChanged: (bundle) => {
        if (this.built) this.index.upsertBundle(bundle);
      },
    });
  }

  /** Builds the index now if it is not built (a host does at idle after it listens). */
  prepare(): void {
    if (this.built) return;
    const reader = this.store.reader;
    const entries = [];
    for (const t of reader.tools()) {
      const b = reader.bundle(t.file.bundleID);
      if (b) entries.push({ tool: t.file, bundle: b.file });
    }
    this.index.load(entries);
    this.built = true;
  }

  search(input: OpInput<'tools.search'>): Page<SearchHit> {
    this.prepare();
    const page = this.index.search(input.q, {
      ...(input.includeDisabled !== undefined ? { includeDisabled: input.includeDisabled } : {}),
      ...(input.pageSize !== undefined ? { pageSize: input.pageSize } : {}),
      ...(input.pageToken !== undefined ? { pageToken: input.pageToken } : {}),
    });
    const items: SearchHit[] = [];
    for (const hit of page.items) {
      const rec = this.store.reader.tool(hit.toolID);
      if (rec) items.push({ ...this.tools.view(rec), search: { tier: hit.tier, matches: hit.matches, score: hit.score } });
    }
    return page.nextPageToken ? { items, nextPageToken: page.nextPageToken } : { items };
  }
}
