/** Tool operations: create (unique <slug,version>), edit, switch, delete, get, list. */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { canonicalJson } from '../../../shared/canonical.js';
import { TOOL_KEY_ORDER, type BundleFile, type Config, type Safety, type ToolFile } from '../../../shared/schemas.js';
import type { OpInput, ToolInput } from '../../../shared/operations.js';
import type { Availability, Page, ToolMetrics, ToolView } from '../../../shared/types.js';
import { checkSlug } from '../../../shared/slug.js';
import { CoreError, invalid } from '../errors.js';
import { fsyncDir } from '../fs/atomic.js';
import type { Store } from './store.js';
import type { ToolRecord } from './loader.js';
import { checkPair } from './pair.js';
import { pageOf, queryFingerprint } from './paging.js';
import { DEFAULT_PAGE_SIZE } from './bundles.js';
import { catalogOf, type ToolCatalog } from './tool-catalog.js';
import type { Tagged } from './files.js';
import { checkIfMatch, toolEtag } from './preconditions.js';

export interface ToolRef {
  bundleID: string;
  slug: string;
  version: string;
}

/** What a write knows besides the client's input: where the tool goes, its final name, the time. */
export interface PrepareContext {
  bundleID: string;
  /** Final slug and version (NFC), already checked. */
  slug: string;
  version: string;
  now: string;
  config: Config;
  /** The tool being replaced, for update: keeps toolID and createdAt. */
  existing?: ToolFile;
  /** The other tools, read-only, for checks that look at them (a pipeline's steps). */
  catalog?: ToolCatalog;
  /** The tool that holds a scheduleID now: a schedule copied from another tool gets a new ID. */
  scheduleOwner?: (scheduleID: string) => string | undefined;
}

/** Turns a client's input into the file to write, or throws INVALID_INPUT (tool-types/prepare.ts). */
export type PrepareTool = (input: ToolInput, ctx: PrepareContext) => ToolFile;

export interface ToolServiceDeps {
  /** Builds the file to write from a client's input, applying the rules of the tool's type. */
  prepare: PrepareTool;
  availability(rec: ToolRecord): Availability;
  /** The safety a run of the tool has now, when it may exceed the file's (a pipeline: its most dangerous step's). */
  safety?(rec: ToolRecord): Safety;
  metrics(toolID: string): ToolMetrics;
  /** Why agents must not see the tool now although it is switched on (an upstream definition nobody accepted), or undefined. */
  withheld?(rec: ToolRecord): string | undefined;
  /** Tokens its definition costs an agent's context (agents/context-cost.ts), undefined until counted. */
  contextTokens?(toolID: string): number | undefined;
  /** Data kept apart from tool.json (usage counters, history) that goes with a deleted tool. */
  onDeleted?(toolID: string): Promise<void>;
  /**
   * Why a tool of `type` may not be added to this bundle by hand (a tool type's store hook: a
   * bundle that holds only what its type's service makes), or undefined.
   */
  refuseTool?(bundle: BundleFile, type: string | undefined): string | undefined;
  /** What the tool's type shows in its view beside or over the file (an upstream tool's review state). */
  typeView?(file: ToolFile): Partial<ToolView> | undefined;
  /** Fields the tool's type writes with a person's switch or edit to keep what the file showed (an upstream tool's review state). */
  keptOnSave?(file: ToolFile): Partial<ToolFile> | undefined;
}

export class ToolService {
  constructor(
    private readonly store: Store,
    private readonly deps: ToolServiceDeps,
  ) {}

  /** The tool holding a scheduleID (scheduleIDs are unique across the data folder). */
  readonly scheduleOwner = (scheduleID: string): string | undefined => {
    for (const rec of this.store.state.tools.values()) if (rec.file.schedules?.some((s) => s.scheduleID === scheduleID)) return rec.file.toolID;
    return undefined;
  };

  view(rec: ToolRecord): ToolView {
    const view: ToolView = { ...rec.file, etag: toolEtag(rec), availability: this.deps.availability(rec), metrics: this.deps.metrics(rec.file.toolID) };
    const safety = this.safetyOf(rec);
    if (safety !== rec.file.safety) view.effectiveSafety = safety;
    const tokens = this.deps.contextTokens?.(rec.file.toolID);
    if (tokens !== undefined) view.contextTokens = tokens;
    const typed = this.deps.typeView?.(rec.file);
    return typed ? Object.assign(view, typed) : view;
  }

  /** The safety a run has now: the file's, or more (a pipeline whose step became more dangerous since it was saved). */
  safetyOf(rec: ToolRecord): Safety {
    return this.deps.safety?.(rec) ?? rec.file.safety;
  }

  /** Visible unless disabled, or in a disabled or soft-deleted bundle. */
  isVisible(rec: ToolRecord): boolean {
    const b = this.store.state.bundles.get(rec.file.bundleID)?.file;
    return rec.file.isEnabled && !!b && b.isEnabled && !b.softDeletedAt;
  }

  /**
   * Switched on, not withheld and able to run now (its availability, as the tool list shows it):
   * what agents are offered (MCP tools/list, search_tools, the OpenAI export). A tool that cannot
   * run stays in the app and REST, with its availability saying why.
   */
  offeredToAgents(rec: ToolRecord): boolean {
    return this.isVisible(rec) && this.deps.withheld?.(rec) === undefined && this.deps.availability(rec).ok;
  }

  /**
   * Why a switched-on tool is not offered to agents now — withheld until a person reviews it, or
   * unable to run (its availability) — or undefined when it is offered, or switched off.
   */
  notOfferedBecause(rec: ToolRecord): { withheld: boolean; reason: string } | undefined {
    if (!this.isVisible(rec)) return undefined;
    const withheld = this.deps.withheld?.(rec);
    if (withheld !== undefined) return { withheld: true, reason: withheld };
    const availability = this.deps.availability(rec);
    return availability.ok ? undefined : { withheld: false, reason: availability.reason ?? 'it cannot run here' };
  }

  async get(ref: ToolRef): Promise<ToolView> {
    return this.view(await this.store.tool(ref.bundleID, ref.slug, ref.version));
  }

  list(input: OpInput<'tools.list'>): Page<ToolView> {
    const tags = input.tags?.length ? input.tags.map((t) => t.normalize('NFC')) : undefined;
    const ids = input.bundleIDs?.length ? new Set(input.bundleIDs.map((s) => s.toLowerCase())) : undefined;
    const fp = queryFingerprint(['tools', [...(tags ?? [])].sort(), [...(ids ?? [])].sort(), !!input.includeDisabled]);
    return pageOf(
      this.store.state.sortedToolIDs(),
      (id) => {
        const rec = this.store.state.tools.get(id);
        if (!rec) return undefined;
        if (ids && !ids.has(rec.file.bundleID)) return undefined;
        if (tags && !rec.file.tags.some((t) => tags.includes(t))) return undefined;
        if (!input.includeDisabled && !this.isVisible(rec)) return undefined;
        return this.view(rec);
      },
      input.recommendedPageSize ?? input.pageSize ?? DEFAULT_PAGE_SIZE,
      fp,
      input.pageToken,
    );
  }

  /** Body fields that name the tool must agree with the path (or be left out). */
  private checkBodyIdentity(ref: ToolRef, input: ToolInput, pair: { slug: string; version: string }): void {
    const issues = [];
    if (input.slug !== undefined && checkSlug(input.slug).value !== pair.slug)
      issues.push({ field: 'slug', message: `'${input.slug}' differs from the slug in the path ('${pair.slug}'); leave it out or make them equal` });
    if (input.version !== undefined && checkSlug(input.version, 'version').value !== pair.version)
      issues.push({
        field: 'version',
        message: `'${input.version}' differs from the version in the path ('${pair.version}'); leave it out or make them equal`,
      });
    if (input.bundleID !== undefined && input.bundleID.toLowerCase() !== ref.bundleID)
      issues.push({ field: 'bundleID', message: 'differs from the bundle ID in the path; leave it out or make them equal' });
    if (issues.length) throw invalid(issues);
  }

  private conflict(slug: string, version: string): CoreError {
    return new CoreError('CONFLICT', `a tool <${slug},${version}> already exists in this bundle; choose another slug or version, or edit the existing tool`, {
      slug,
      version,
    });
  }

  /** Throws CONFLICT when the pair is held (by a claim or by a tool the store knows). */
  private async ensurePairFree(bundleID: string, slug: string, version: string, exceptToolID?: string): Promise<void> {
    const claim = await this.store.claims.inspect(bundleID, slug, version);
    if (claim.kind === 'taken' && claim.toolID !== exceptToolID) throw this.conflict(slug, version);
    if (claim.kind === 'stale') await this.store.claims.release(bundleID, slug, version, claim.toolID);
    // A tool written by hand or by git has no claim; memory knows it (if its file still holds the pair).
    const owner = this.store.state.pairOwner(bundleID, slug, version);
    if (owner && owner !== exceptToolID) {
      const file = await this.store.readToolFile(bundleID, owner).catch(() => undefined);
      if (file && file.slug === slug && file.version === version) throw this.conflict(slug, version);
      await this.store.syncTool(bundleID, owner);
    }
  }

  /**
   * Under the bundle lock: the tool's file as it is on disk, refused when another process
   * renamed it since memory was filled (memory trails the watcher), so a write aimed at one
   * <slug,version> never lands on the tool that now holds another.
   */
  private async diskTool(rec: ToolRecord): Promise<Tagged<ToolFile> | undefined> {
    const { bundleID, toolID, slug, version } = rec.file;
    const read = await this.store.files.readTool(bundleID, toolID);
    const disk = read?.file;
    if (disk && (disk.slug !== slug || disk.version !== version)) {
      await this.store.syncTool(bundleID, toolID);
      throw new CoreError('NOT_FOUND', `tool <${slug},${version}> was renamed to <${disk.slug},${disk.version}> by another process; reload and try again`);
    }
    return read;
  }

  async create(ref: ToolRef, input: ToolInput): Promise<ToolView> {
    const pair = checkPair(ref.slug, ref.version);
    this.checkBodyIdentity(ref, input, pair);
    await this.store.freshBundle(ref.bundleID);
    this.store.refuseBuiltin(ref.bundleID, 'cannot add tools to a built-in bundle');
    const { bundleID } = ref;
    return this.store.withBundleLock(bundleID, async () => {
      await this.store.writableBundle(bundleID, 'add tools to it');
      const bundle = this.store.reader.bundle(bundleID)?.file;
      const refused = bundle && this.deps.refuseTool?.(bundle, input.type);
      if (refused) throw new CoreError('INVALID_INPUT', refused);
      const file = this.deps.prepare(input, {
        bundleID,
        ...pair,
        now: this.store.now(),
        config: this.store.config.get(),
        catalog: catalogOf(this.store.reader),
        scheduleOwner: this.scheduleOwner,
      });
      await this.ensurePairFree(bundleID, pair.slug, pair.version);
      // Refused here while the audit log cannot take the change's record.
      await this.store.changes?.before(this.store.paths.toolFile(bundleID, file.toolID));
      const toolsDir = this.store.paths.toolsDir(bundleID);
      await fsp.mkdir(toolsDir, { recursive: true });
      const staging = join(toolsDir, `.staging-${file.toolID}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
      await fsp.mkdir(staging);
      const fh = await fsp.open(join(staging, 'tool.json'), 'wx');
      const text = canonicalJson(file as unknown as Record<string, unknown>, TOOL_KEY_ORDER);
      try {
        await fh.writeFile(text);
        await fh.sync();
      } finally {
        await fh.close();
      }
      await fsyncDir(staging);
      // The commit point: link() refuses to overwrite, so of two racing creators one wins.
      if (!(await this.store.claims.publish(bundleID, pair.slug, pair.version, file.toolID))) {
        await fsp.rm(staging, { recursive: true, force: true });
        throw this.conflict(pair.slug, pair.version);
      }
      await this.store.claims.completeStaged(bundleID, file.toolID, staging);
      this.store.changes?.changed(this.store.paths.toolFile(bundleID, file.toolID), undefined, text);
      return this.view(this.store.applyTool(file));
    });
  }

  /** `ifMatch`: the tool's ETag, its modifiedAt or `*` (store/preconditions.ts). */
  async update(ref: ToolRef, input: ToolInput, ifMatch?: string): Promise<ToolView> {
    const current = await this.store.tool(ref.bundleID, ref.slug, ref.version);
    this.store.refuseBuiltin(ref.bundleID, 'cannot edit a built-in tool');
    const { bundleID } = ref;
    const target = checkPair(input.slug ?? current.file.slug, input.version ?? current.file.version);
    if (input.bundleID !== undefined && input.bundleID.toLowerCase() !== bundleID) {
      throw invalid([{ field: 'bundleID', message: 'a tool cannot move to another bundle by editing; export and import it instead' }]);
    }
    return this.store.withBundleLock(bundleID, async () => {
      await this.store.writableBundle(bundleID, 'edit its tools');
      const read = await this.diskTool(current);
      if (!read) throw new CoreError('NOT_FOUND', `tool <${ref.slug},${ref.version}> was deleted meanwhile`);
      const disk = read.file;
      checkIfMatch(ifMatch || undefined, 'tool', { modifiedAt: disk.modifiedAt, etag: read.etag, memory: this.store.state.tools.get(disk.toolID) });
      const prepared = this.deps.prepare(input, {
        bundleID,
        ...target,
        now: this.store.now(),
        config: this.store.config.get(),
        existing: disk,
        catalog: catalogOf(this.store.reader),
        scheduleOwner: this.scheduleOwner,
      });
      const kept = this.deps.keptOnSave?.(disk);
      const file = kept ? { ...prepared, ...kept } : prepared;
      const renamed = target.slug !== disk.slug || target.version !== disk.version;
      if (renamed) {
        await this.ensurePairFree(bundleID, target.slug, target.version, disk.toolID);
        if (!(await this.store.claims.publish(bundleID, target.slug, target.version, disk.toolID))) {
          const owner = await this.store.claims.owner(bundleID, target.slug, target.version);
          if (owner !== disk.toolID) throw this.conflict(target.slug, target.version);
        }
      }
      const etag = await this.store.writeToolFile(file);
      if (renamed) await this.store.claims.release(bundleID, disk.slug, disk.version, disk.toolID);
      return this.view(this.store.applyTool(file, etag));
    });
  }

  async setEnabled(ref: ToolRef, isEnabled: boolean, ifMatch?: string): Promise<ToolView> {
    const rec = await this.store.tool(ref.bundleID, ref.slug, ref.version);
    if (rec.builtin) {
      checkIfMatch(ifMatch, 'tool', { modifiedAt: rec.file.modifiedAt, etag: toolEtag(rec), memory: undefined });
      return this.view(await this.store.setBuiltinToolEnabled(rec, isEnabled));
    }
    return this.store.withBundleLock(ref.bundleID, async () => {
      await this.store.writableBundle(ref.bundleID, 'switch its tools on or off');
      const read = await this.diskTool(rec);
      if (!read) throw new CoreError('NOT_FOUND', `tool <${ref.slug},${ref.version}> was deleted meanwhile`);
      const disk = read.file;
      checkIfMatch(ifMatch, 'tool', { modifiedAt: disk.modifiedAt, etag: read.etag, memory: this.store.state.tools.get(disk.toolID) });
      if (disk.isEnabled === isEnabled) return this.view(this.store.applyTool(disk, read.etag));
      // Not a structural change: modifiedAt stays (docs/contracts.md, tool.json), and only isEnabled is written.
      const patched = await this.store.patchToolFile(ref.bundleID, disk.toolID, { isEnabled, ...this.deps.keptOnSave?.(disk) });
      return this.view(this.store.applyTool(patched.file, patched.etag));
    });
  }

  /** Hard delete. Allowed in disabled and soft-deleted bundles, so a bundle in the Trash can be emptied. */
  async delete(ref: ToolRef): Promise<void> {
    const rec = await this.store.tool(ref.bundleID, ref.slug, ref.version);
    this.store.refuseBuiltin(ref.bundleID, 'cannot delete a built-in tool');
    const { bundleID } = ref;
    const { toolID, slug, version } = rec.file;
    await this.store.withBundleLock(bundleID, async () => {
      // A file that became unreadable may still be deleted; only a rename elsewhere stops us.
      await this.diskTool(rec).catch((e: unknown) => {
        if (!(e instanceof CoreError && e.code === 'CONFLICT')) throw e;
      });
      const dir = this.store.paths.toolDir(bundleID, toolID);
      const before = await this.store.changes?.before(this.store.paths.toolFile(bundleID, toolID));
      const grave = join(this.store.paths.toolsDir(bundleID), `.deleted-${toolID}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
      try {
        await fsp.rename(dir, grave);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
      await fsyncDir(this.store.paths.toolsDir(bundleID));
      await this.store.claims.release(bundleID, slug, version, toolID);
      await fsp.rm(grave, { recursive: true, force: true });
      if (before) this.store.changes?.changed(this.store.paths.toolFile(bundleID, toolID), before, undefined);
    });
    this.store.forgetTool(toolID);
    await this.deps.onDeleted?.(toolID);
  }
}
