/**
 * Tools that call other tools, across machines: what travels with an export and how an import
 * re-links it. The generic half; each type says what it calls and how it re-links through its
 * transfer hooks (ToolTypeModule.transfer, e.g. tool-types/pipeline/transfer.ts, which explains
 * the pipelines' rules).
 */
import type { BundleFile, ToolFile } from '../../../shared/schemas.js';
import type { ImportReport } from '../../../shared/types.js';
import { TOOL_TYPES } from '../../../shared/tool-types/catalog.js';
import type { StoreReader } from '../store/reader.js';
import type { ToolCatalog } from '../store/tool-catalog.js';
import { toolTypeModule } from '../tool-types/registry.js';
import type { BundleDraft } from './validate.js';

function calledBundles(file: ToolFile): string[] {
  return toolTypeModule(file.type).transfer?.calledBundles?.(file.impl) ?? [];
}

// ---- export -------------------------------------------------------------------------------------

/** The bundles to export: those asked for, then every (non built-in, not deleted) bundle their tools call into, transitively. */
export function exportClosure(store: StoreReader, bundleIDs: readonly string[]): string[] {
  const out = [...bundleIDs];
  const seen = new Set(out);
  for (let i = 0; i < out.length; i++) {
    for (const { file } of store.toolsOf(out[i]!)) {
      for (const called of calledBundles(file)) {
        const id = called.toLowerCase();
        if (seen.has(id)) continue;
        const rec = store.bundle(id);
        if (!rec || rec.builtin || rec.file.softDeletedAt) continue;
        seen.add(id);
        out.push(id);
      }
    }
  }
  return out;
}

/** A tool.json as exported: its type may add hints (a pipeline's steps carry their bundles' slugs). */
export function withBundleHints(file: ToolFile, bundle: (bundleID: string) => BundleFile | undefined): ToolFile {
  const exported = toolTypeModule(file.type).transfer?.exported;
  return exported ? { ...file, impl: exported(file.impl, bundle) } : file;
}

// ---- import -------------------------------------------------------------------------------------

export interface Relinked {
  drafts: BundleDraft[];
  report: Partial<ImportReport>;
  warnings: string[];
}

/**
 * Lets every type re-link its tools among the drafts an import writes. `finalIDs` maps each
 * bundle ID of the archive to the ID it has here after the import. Throws INVALID_INPUT when a
 * type refuses (a pipeline that would call itself).
 */
export function relinkImport(drafts: readonly BundleDraft[], finalIDs: ReadonlyMap<string, string>, base: ToolCatalog): Relinked {
  let out = [...drafts];
  const report: Partial<ImportReport> = {};
  const warnings: string[] = [];
  for (const type of TOOL_TYPES) {
    const relink = toolTypeModule(type).transfer?.relinkImport;
    if (!relink) continue;
    const linked = relink(out, finalIDs, base);
    out = linked.drafts;
    Object.assign(report, linked.report);
    warnings.push(...linked.warnings);
  }
  return { drafts: out, report, warnings };
}
