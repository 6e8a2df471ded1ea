/**
 * A read-only view of the tools and bundles the store holds, for code that must look other
 * tools up but may change nothing: a pipeline's save checks (do its steps' tools exist, does it
 * call itself through another pipeline) and an import re-linking pipelines.
 */
import type { BundleFile, ToolFile } from '../../../shared/schemas.js';
import type { StoreReader } from './reader.js';

export interface ToolCatalog {
  bundle(bundleID: string): BundleFile | undefined;
  /** The tool holding <slug,version> in a bundle, whatever its switches. */
  tool(bundleID: string, slug: string, version: string): ToolFile | undefined;
  /** Bundles (not in the Trash) with this slug: where an import looks for a step's tool by name. */
  bundlesWithSlug(slug: string): BundleFile[];
}

export function catalogOf(reader: StoreReader): ToolCatalog {
  return {
    bundle: (bundleID) => reader.bundle(bundleID.toLowerCase())?.file,
    tool: (bundleID, slug, version) => reader.toolByPair(bundleID.toLowerCase(), slug.normalize('NFC'), version.normalize('NFC'))?.file,
    bundlesWithSlug: (slug) => reader.bundlesWithSlug(slug).map((b) => b.file),
  };
}
