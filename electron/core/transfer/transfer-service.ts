/**
 * Bundles travel: deterministic ZIP export, all-or-nothing import of untrusted archives, and
 * the formats tools come in from elsewhere (container folders, SKILL.md, OpenAPI) or go out to
 * (OpenAI function definitions). The renderer hands over content, never paths to write to.
 */
import { PassThrough, type Readable } from 'node:stream';
import type { Store } from '../store/store.js';
import type { BundleService } from '../store/bundles.js';
import type { ToolService } from '../store/tools.js';
import type { ConfigStore } from '../config.js';
import type { DataPaths } from '../data-paths.js';
import type { ContainerImportResult, ImportReport } from '../../../shared/types.js';
import { DEFAULT_LIMITS, type TransferLimits } from '../archive/limits.js';
import type { OpenedExport } from './export.js';
import { validateBundles } from './validate.js';
import { applyImport, type OnConflict } from './apply.js';
import { recoverStages } from './stage.js';
import { containerToolFromFiles, readFolderFiles, type FolderFile } from './foreign/container-folder.js';
import type { OpenApiOptions } from './foreign/openapi.js';
import { openAiFunctions, type OpenAiFunction } from './foreign/openai-functions.js';
import { createToolWithFiles, previewToolWithFiles } from './tool-create.js';
import type { ScriptImages } from './foreign/script-image.js';
import { downloadBinaries } from './foreign/binary-download.js';
import type { GuardedWeb } from '../functions/services.js';
import { invalid } from '../errors.js';
import { validateDrafts } from './foreign/common.js';
import type { BundleDraft } from './validate.js';
import { importGuard } from '../guard/tool-guard.js';

export interface TransferDeps {
  store: Store;
  bundles: BundleService;
  tools: ToolService;
  config: ConfigStore;
  paths: DataPaths;
}

export interface TransferOptions {
  limits?: Partial<TransferLimits>;
  /**
   * A guarded HTTP client with this response cap (http tools' SSRF guard and allow-list), for A3S
   * binary backends given by url; without it such a tool is left out of an import, saying why.
   */
  web?: (maxBytes: number) => GuardedWeb;
  /** Base images for SKILL.md script tools (tests point them at a local image). */
  scriptImages?: Partial<ScriptImages>;
}

export interface ImportOptions {
  dryRun?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface ForeignImportOptions {
  dryRun?: boolean;
}

export type { OnConflict, OpenAiFunction, FolderFile, OpenedExport, OpenApiOptions, TransferLimits };
export { DEFAULT_LIMITS };

export class TransferService {
  readonly limits: TransferLimits;
  private readonly scriptImages: Partial<ScriptImages>;
  private readonly web: ((maxBytes: number) => GuardedWeb) | undefined;

  constructor(
    private readonly deps: TransferDeps,
    options: TransferOptions = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.scriptImages = options.scriptImages ?? {};
    this.web = options.web;
  }

  /** Removes import staging left by a crash (<data>/.staging), undoing half-made moves; called once at start. */
  async recover(): Promise<void> {
    const touched = await recoverStages(this.deps.paths);
    for (const id of touched) await this.deps.store.syncBundle(id);
  }

  // ---- export -------------------------------------------------------------------------------

  /** Validates the request, then streams the ZIP (for the REST host: errors before the first byte become statuses). */
  async openExport(bundleIDs: string[], onProgress?: (done: number, total: number) => void): Promise<OpenedExport> {
    // The ZIP, YAML and OpenAPI packages load with the first transfer, not with every core.
    const { collectExport, zipEntries } = await import('./export.js');
    const { entries, fileName } = await collectExport(this.deps.store, bundleIDs, this.limits);
    return {
      stream: zipEntries(entries, onProgress),
      fileName,
      entryCount: entries.length,
      totalBytes: entries.reduce((n, e) => n + e.size, 0),
    };
  }

  async exportBundles(bundleIDs: string[], onProgress?: (done: number, total: number) => void): Promise<{ zip: Uint8Array; fileName: string }> {
    const opened = await this.openExport(bundleIDs, onProgress);
    const { streamToBytes } = await import('./export.js');
    return { zip: await streamToBytes(opened.stream), fileName: opened.fileName };
  }

  /** A readable ZIP of the bundles; validation errors surface as a stream error. */
  exportStream(bundleIDs: string[]): Readable {
    const out = new PassThrough();
    this.openExport(bundleIDs).then(
      (o) => o.stream.once('error', (e) => out.destroy(e)).pipe(out),
      (e: Error) => out.destroy(e),
    );
    return out;
  }

  // ---- import -------------------------------------------------------------------------------

  async importZip(zip: Uint8Array, onConflict: OnConflict, options: ImportOptions = {}): Promise<ImportReport> {
    const [{ indexArchive }, { rawBundlesOf }] = await Promise.all([import('../archive/zip-read.js'), import('./import-zip.js')]);
    const index = await indexArchive(zip, this.limits);
    try {
      const raw = await rawBundlesOf(index, this.limits);
      const validated = validateBundles(raw, this.deps.config.get());
      const warnings = index.ignored.length
        ? [
            `ignored ${index.ignored.length} entr${index.ignored.length === 1 ? 'y' : 'ies'} macOS Finder adds (${index.ignored.slice(0, 3).join(', ')}${index.ignored.length > 3 ? ', …' : ''})`,
          ]
        : [];
      return withGuard(await applyImport(this.deps.store, validated, { onConflict, warnings, ...options }), validated.bundles);
    } finally {
      index.zip.close();
    }
  }

  // ---- foreign formats ------------------------------------------------------------------------

  /**
   * A container tool from a manifest.json + Dockerfile + runner folder, added to an existing
   * bundle. `files` are the folder's files (from a drop or an upload); paths are relative.
   */
  async importContainerFiles(bundleID: string, files: FolderFile[], options: { dryRun?: boolean } = {}): Promise<ContainerImportResult> {
    const draft = containerToolFromFiles(files, { bundleID, now: this.deps.store.now(), limits: this.limits });
    const paths = draft.files.map((f) => f.rel).sort();
    if (options.dryRun) {
      const tool = await previewToolWithFiles(this.deps.store, this.deps.tools, draft.tool);
      return { tool, secrets: draft.secrets, warnings: draft.warnings, files: paths, dryRun: true };
    }
    const tool = await createToolWithFiles(this.deps.store, this.deps.tools, draft.tool, draft.files);
    return { tool, secrets: draft.secrets, warnings: draft.warnings, files: paths };
  }

  /** The same, reading a folder on this machine (main process or CLI only: never a path from the renderer). */
  async importContainerFolder(folder: string, bundleID: string): Promise<ContainerImportResult> {
    return this.importContainerFiles(bundleID, await readFolderFiles(folder, this.limits));
  }

  /** A new bundle from a SKILL.md whose front matter lists tools with http or script backends. */
  async importSkillMd(text: string, options: ForeignImportOptions = {}): Promise<ImportReport> {
    const { bundleFromSkill } = await import('./foreign/skill-md.js');
    const config = this.deps.config.get();
    const { draft, warnings, items, fetches } = bundleFromSkill(text, { now: this.deps.store.now(), limits: this.limits, images: this.scriptImages, config });
    const fetched = await downloadBinaries(draft.tools, fetches, { web: this.web, config, maxBytes: this.limits.maxFileBytes });
    const failed = new Map(fetched.failed.map((f) => [f.origin, f.reason]));
    for (const [origin, reason] of failed) warnings.push(`left out ${origin}: ${reason}`);
    if (!fetched.tools.length) throw invalid([{ field: 'SKILL.md front matter: tools', message: `no tool could be imported: ${warnings.join('; ')}` }]);
    const report = await this.importDraft({ ...draft, tools: fetched.tools }, warnings, options);
    return { ...report, items: items.map((i) => (failed.has(i.origin) ? { origin: i.origin, status: 'skipped' as const, reason: failed.get(i.origin)! } : i)) };
  }

  /** A new bundle of http tools, one per operation of an OpenAPI 3 document (JSON or YAML). */
  async importOpenApi(doc: string, options: ForeignImportOptions & OpenApiOptions = {}): Promise<ImportReport> {
    const { bundleFromOpenApi } = await import('./foreign/openapi.js');
    const { draft, warnings, servers, items } = await bundleFromOpenApi(doc, {
      ...options,
      now: this.deps.store.now(),
      limits: this.limits,
      config: this.deps.config.get(),
    });
    const report = { ...(await this.importDraft(draft, warnings, options)), items };
    return servers.length ? { ...report, servers } : report;
  }

  /** Enabled tools as OpenAI function-calling definitions, ready to paste into an agent. */
  openAiFunctions(bundleIDs?: string[]): OpenAiFunction[] {
    return openAiFunctions(this.deps.store.reader, this.deps.tools, bundleIDs);
  }

  private async importDraft(draft: BundleDraft, warnings: string[], options: ForeignImportOptions): Promise<ImportReport> {
    const validated = validateDrafts(draft, this.deps.config.get());
    return withGuard(
      await applyImport(this.deps.store, validated, { onConflict: 'copy', warnings, ...(options.dryRun ? { dryRun: true } : {}) }),
      validated.bundles,
    );
  }
}

/** The report with the definition guard's findings on what was (or, in a dry run, would be) imported. */
function withGuard(report: ImportReport, bundles: BundleDraft[]): ImportReport {
  const guard = importGuard(bundles);
  return guard.length ? { ...report, guard } : report;
}
