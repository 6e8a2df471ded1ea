/** Whole lists from the paged list operations, for commands that show or count everything. */
import type { OpInput } from '../../shared/operations.js';
import type { BundleView, ToolView } from '../../shared/types.js';
import type { CliSession } from './session.js';

export async function allTools(session: CliSession, input: Omit<OpInput<'tools.list'>, 'pageToken'>): Promise<ToolView[]> {
  const items: ToolView[] = [];
  let pageToken: string | undefined;
  do {
    const page = await session.call('tools.list', { ...input, pageSize: 500, ...(pageToken ? { pageToken } : {}) });
    items.push(...page.items);
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
  return items;
}

export async function allBundles(session: CliSession, input: Omit<OpInput<'bundles.list'>, 'pageToken'>): Promise<BundleView[]> {
  const items: BundleView[] = [];
  let pageToken: string | undefined;
  do {
    const page = await session.call('bundles.list', { ...input, pageSize: 1000, ...(pageToken ? { pageToken } : {}) });
    items.push(...page.items);
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
  return items;
}

/** Every bundle's slug by ID, the Trash's too (a tool row names its bundle by slug). */
export async function bundleSlugs(session: CliSession): Promise<Map<string, string>> {
  const bundles = await allBundles(session, { includeDisabled: true, deleted: 'include' });
  return new Map(bundles.map((b) => [b.bundleID, b.slug]));
}
