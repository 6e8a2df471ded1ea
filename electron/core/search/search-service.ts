/**
 * tools.search: the index ranks tool IDs, the tool service turns them into the tools the
 * answer carries, each with why it matched. The index follows the store through its observer.
 */
import type { OpInput } from '../../../shared/operations.js';
import type { Page, SearchHit } from '../../../shared/types.js';
import type { Store } from '../store/store.js';
import type { ToolService } from '../store/tools.js';
import { ToolSearchIndex } from './search-index.js';

export class SearchService {
  readonly index = new ToolSearchIndex();
  /** Stops following the store. */
  readonly dispose: () => void;

  constructor(
    private readonly store: Store,
    private readonly tools: ToolService,
  ) {
    this.dispose = store.observe({
      loaded: (reader) => {
        const entries = [];
        for (const t of reader.tools()) {
          const b = reader.bundle(t.file.bundleID);
          if (b) entries.push({ tool: t.file, bundle: b.file });
        }
        this.index.load(entries);
      },
      toolChanged: (tool, bundle) => this.index.upsert(tool, bundle),
      toolRemoved: (id) => this.index.remove(id),
      bundleChanged: (bundle) => this.index.upsertBundle(bundle),
    });
  }

  search(input: OpInput<'tools.search'>): Page<SearchHit> {
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
