/**
 * A read-only view of the tools and bundles the store holds, for code that must look other
 * tools up but may change nothing: a pipeline's save checks (do its steps' tools exist, does it
 * call itself through another pipeline) and an import re-linking pipelines.
 */
import type { BundleFile, ToolFile } from '../../../shared/schemas.js';
import type { StoreState } from './state.js';

export interface ToolCatalog {
  bundle(bundleID: string): BundleFile | undefined;
  /** The tool holding <slug,version> in a bundle, whatever its switches. */
  tool(bundleID: string, slug: string, version: string): ToolFile | undefined;
  /** Bundles (not in the Trash) with this slug: where an import looks for a step's tool by name. */
  bundlesWithSlug(slug: string): BundleFile[];
}

export function catalogOf(state: StoreState): ToolCatalog {
  return {
    bundle: (bundleID) => state.bundles.get(bundleID.toLowerCase())?.file,
    tool(bundleID, slug, version) {
      const toolID = state.pairOwner(bundleID.toLowerCase(), slug.normalize('NFC'), version.normalize('NFC'));
      return toolID ? state.tools.get(toolID)?.file : undefined;
    },
    bundlesWithSlug(slug) {
      const wanted = slug.normalize('NFC');
      return [...state.bundles.values()].filter((b) => b.file.slug === wanted && !b.file.softDeletedAt).map((b) => b.file);
    },
  };
}
