/**
 * The one way code outside store/ asks the store's memory what it holds. The store answers
 * through this narrow, read-only interface (`store.reader`), so its representation (StoreState's
 * maps and indexes) can change without touching its readers; test/architecture.test.ts and
 * ESLint keep StoreState itself inside store/ (docs/architecture.md, "The store's read interface").
 */
import type { BundleRecord, ToolRecord } from './loader.js';
import type { StoreState } from './state.js';

export type { BundleRecord, ToolRecord };

export interface StoreReader {
  /** A tool by its toolID, whatever its switches. */
  tool(toolID: string): ToolRecord | undefined;
  /** A bundle by its bundleID, in the Trash or not. */
  bundle(bundleID: string): BundleRecord | undefined;
  /** The tool holding <slug,version> in a bundle; slug and version as stored (NFC). */
  toolByPair(bundleID: string, slug: string, version: string): ToolRecord | undefined;
  /** The tools of one bundle. */
  toolsOf(bundleID: string): ToolRecord[];
  /** Every tool held. */
  tools(): Iterable<ToolRecord>;
  /** Every bundle held, the Trash's included. */
  bundles(): Iterable<BundleRecord>;
  /** Bundles not in the Trash with this slug (NFC-normalised here). */
  bundlesWithSlug(slug: string): BundleRecord[];
}

export function readerOf(state: StoreState): StoreReader {
  return {
    tool: (toolID) => state.tools.get(toolID),
    bundle: (bundleID) => state.bundles.get(bundleID),
    toolByPair(bundleID, slug, version) {
      const toolID = state.pairOwner(bundleID, slug, version);
      return toolID === undefined ? undefined : state.tools.get(toolID);
    },
    toolsOf: (bundleID) => state.toolIDsOf(bundleID).flatMap((id) => state.tools.get(id) ?? []),
    tools: () => state.tools.values(),
    bundles: () => state.bundles.values(),
    bundlesWithSlug(slug) {
      const wanted = slug.normalize('NFC');
      return [...state.bundles.values()].filter((b) => b.file.slug === wanted && !b.file.softDeletedAt);
    },
  };
}
