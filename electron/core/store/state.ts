/**
 * The in-memory picture of the store: records by ID, the <slug,version> index per bundle and
 * sorted ID lists for keyset paging. Only the Store mutates it, after disk writes succeeded or
 * when the watcher brings changes made elsewhere.
 */
import { toolKey } from '../../../shared/slug.js';
import type { BundleRecord, ToolRecord } from './loader.js';

export class StoreState {
  readonly bundles = new Map<string, BundleRecord>();
  readonly tools = new Map<string, ToolRecord>();
  /** bundleID → (slug\0version → toolID) */
  private readonly pairs = new Map<string, Map<string, string>>();
  private readonly toolsOfBundle = new Map<string, Set<string>>();
  private sortedTools: string[] | null = null;
  private sortedBundles: string[] | null = null;

  setBundle(rec: BundleRecord): void {
    if (!this.bundles.has(rec.file.bundleID)) this.sortedBundles = null;
    this.bundles.set(rec.file.bundleID, rec);
  }

  removeBundle(bundleID: string): void {
    for (const toolID of [...(this.toolsOfBundle.get(bundleID) ?? [])]) this.removeTool(toolID);
    this.bundles.delete(bundleID);
    this.pairs.delete(bundleID);
    this.toolsOfBundle.delete(bundleID);
    this.sortedBundles = null;
  }

  /** The toolID holding a pair in a bundle, if any. */
  pairOwner(bundleID: string, slug: string, version: string): string | undefined {
    return this.pairs.get(bundleID)?.get(toolKey(slug, version));
  }

  /**
   * Adds or replaces a tool. Returns false (and changes nothing) when another tool already
   * holds its <slug,version> in the bundle: the caller reports the duplicate.
   */
  setTool(rec: ToolRecord): boolean {
    const { toolID, bundleID, slug, version } = rec.file;
    const key = toolKey(slug, version);
    let pairs = this.pairs.get(bundleID);
    if (!pairs) this.pairs.set(bundleID, (pairs = new Map()));
    const owner = pairs.get(key);
    if (owner !== undefined && owner !== toolID) return false;
    const prev = this.tools.get(toolID);
    if (prev) {
      const prevKey = toolKey(prev.file.slug, prev.file.version);
      const moved = prev.file.bundleID !== bundleID;
      if ((prevKey !== key || moved) && this.pairs.get(prev.file.bundleID)?.get(prevKey) === toolID) this.pairs.get(prev.file.bundleID)!.delete(prevKey);
      // A tool folder moved to another bundle (by hand, by git) leaves the old bundle.
      if (moved) this.toolsOfBundle.get(prev.file.bundleID)?.delete(toolID);
    } else {
      this.sortedTools = null;
    }
    pairs.set(key, toolID);
    this.tools.set(toolID, rec);
    let set = this.toolsOfBundle.get(bundleID);
    if (!set) this.toolsOfBundle.set(bundleID, (set = new Set()));
    set.add(toolID);
    return true;
  }

  removeTool(toolID: string): ToolRecord | undefined {
    const rec = this.tools.get(toolID);
    if (!rec) return undefined;
    const { bundleID, slug, version } = rec.file;
    const pairs = this.pairs.get(bundleID);
    const key = toolKey(slug, version);
    if (pairs?.get(key) === toolID) pairs.delete(key);
    this.toolsOfBundle.get(bundleID)?.delete(toolID);
    this.tools.delete(toolID);
    this.sortedTools = null;
    return rec;
  }

  toolIDsOf(bundleID: string): string[] {
    return [...(this.toolsOfBundle.get(bundleID) ?? [])];
  }

  toolCount(bundleID: string): number {
    return this.toolsOfBundle.get(bundleID)?.size ?? 0;
  }

  sortedToolIDs(): string[] {
    if (!this.sortedTools) this.sortedTools = [...this.tools.keys()].sort();
    return this.sortedTools;
  }

  sortedBundleIDs(): string[] {
    if (!this.sortedBundles) this.sortedBundles = [...this.bundles.keys()].sort();
    return this.sortedBundles;
  }
}
