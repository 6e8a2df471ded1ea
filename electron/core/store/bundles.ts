/** Bundle operations: create or replace, switch, soft delete, restore, list. */
import { promises as fsp } from 'node:fs';
import { SCHEMA_VERSION, type BundleFile } from '../../../shared/schemas.js';
import type { BundleInput, OpInput } from '../../../shared/operations.js';
import type { BundleView, Page } from '../../../shared/types.js';
import { checkSlug } from '../../../shared/slug.js';
import { CoreError, invalid, notFound } from '../errors.js';
import type { Store } from './store.js';
import type { BundleRecord } from './loader.js';
import { pageOf, queryFingerprint } from './paging.js';
import { bundleEtag, checkIfMatch } from './preconditions.js';

export const DEFAULT_PAGE_SIZE = 50;

export interface BundleServiceDeps {
  /** How many of its tools agents are offered and what their definitions cost (agents/context-cost.ts). */
  agentCost?(bundleID: string): { agentTools: number; tokens?: number };
  /** A bundle.json this process created or replaced (the tool types' store hooks: an upstream server's sync on creation). */
  saved?(before: BundleFile | undefined, after: BundleFile): void;
}

export class BundleService {
  constructor(
    private readonly store: Store,
    private readonly deps: BundleServiceDeps = {},
  ) {}

  view(rec: BundleRecord): BundleView {
    const view: BundleView = { ...rec.file, etag: bundleEtag(rec), toolCount: this.store.state.toolCount(rec.file.bundleID) };
    const cost = this.deps.agentCost?.(rec.file.bundleID);
    if (cost) {
      view.agentToolCount = cost.agentTools;
      if (cost.tokens !== undefined) view.contextTokens = cost.tokens;
    }
    return view;
  }

  /** One bundle (also one another process created moments ago), soft-deleted ones included. */
  async get(bundleID: string): Promise<BundleView> {
    return this.view(await this.store.freshBundle(bundleID));
  }

  list(input: OpInput<'bundles.list'>): Page<BundleView> {
    const ids = input.bundleIDs?.length ? new Set(input.bundleIDs.map((s) => s.toLowerCase())) : undefined;
    const deleted = input.deleted ?? 'exclude';
    const fp = queryFingerprint(['bundles', [...(ids ?? [])].sort(), !!input.includeDisabled, deleted]);
    return pageOf(
      this.store.state.sortedBundleIDs(),
      (id) => {
        if (ids && !ids.has(id)) return undefined;
        const rec = this.store.state.bundles.get(id);
        if (!rec) return undefined;
        const isDeleted = !!rec.file.softDeletedAt;
        if (deleted === 'exclude' && isDeleted) return undefined;
        if (deleted === 'only' && !isDeleted) return undefined;
        if (!input.includeDisabled && !rec.file.isEnabled && deleted !== 'only') return undefined;
        return this.view(rec);
      },
      input.pageSize ?? DEFAULT_PAGE_SIZE,
      fp,
      input.pageToken,
    );
  }

  /** `ifMatch`: the bundle's ETag, its modifiedAt or `*` (store/preconditions.ts); `*` or a tag refuse to create. */
  async put(bundleID: string, input: BundleInput, ifMatch?: string): Promise<{ bundle: BundleView; created: boolean }> {
    this.store.refuseBuiltin(bundleID, 'cannot replace this bundle');
    const slug = checkSlug(input.slug);
    if (!slug.ok) throw invalid([{ field: 'slug', message: slug.message! }]);
    if (input.bundleID !== undefined && input.bundleID.toLowerCase() !== bundleID) {
      throw invalid([{ field: 'bundleID', message: `differs from the bundle ID in the path (${bundleID}); leave it out or make them equal` }]);
    }
    await fsp.mkdir(this.store.paths.bundleDir(bundleID), { recursive: true });
    return this.store.withBundleLock(bundleID, async () => {
      const read = await this.store.files.readBundle(bundleID);
      if (ifMatch !== undefined && !read) throw notFound(`bundle ${bundleID} (If-Match asks to replace an existing bundle)`);
      if (read) checkIfMatch(ifMatch, 'bundle', { modifiedAt: read.file.modifiedAt, etag: read.etag, memory: this.store.state.bundles.get(bundleID) });
      const existing = read?.file;
      if (existing?.softDeletedAt) {
        throw new CoreError('BUNDLE_DELETED', `bundle '${existing.slug}' is in the Trash; restore it before replacing it`);
      }
      const now = this.store.now();
      const file: BundleFile = {
        schemaVersion: SCHEMA_VERSION,
        bundleID,
        slug: slug.value,
        displayName: input.displayName?.trim() || slug.value,
        description: input.description ?? '',
        // A replace that leaves isEnabled out keeps the bundle's current state.
        isEnabled: input.isEnabled ?? existing?.isEnabled ?? true,
        isBuiltIn: false,
        createdAt: existing?.createdAt ?? now,
        modifiedAt: now,
      };
      // The app's bundle form does not show a source: a replace that leaves it out keeps it.
      const source = input.source === undefined ? existing?.source : (input.source ?? undefined);
      if (source) file.source = source;
      const guard = input.guard === undefined ? existing?.guard : (input.guard ?? undefined);
      if (guard) file.guard = guard;
      await fsp.mkdir(this.store.paths.toolsDir(bundleID), { recursive: true });
      const etag = await this.store.writeBundleFile(file);
      const bundle = this.view(this.store.applyBundle(file, etag));
      this.deps.saved?.(existing, file);
      return { bundle, created: !existing };
    });
  }

  private async rewrite(bundleID: string, change: (b: BundleFile) => BundleFile | undefined, ifMatch?: string): Promise<BundleView> {
    return this.store.withBundleLock(bundleID, async () => {
      const read = await this.store.files.readBundle(bundleID);
      if (!read) throw notFound(`bundle ${bundleID}`);
      checkIfMatch(ifMatch, 'bundle', { modifiedAt: read.file.modifiedAt, etag: read.etag, memory: this.store.state.bundles.get(bundleID) });
      const next = change(read.file);
      if (!next) return this.view(this.store.applyBundle(read.file, read.etag));
      const etag = await this.store.writeBundleFile(next);
      return this.view(this.store.applyBundle(next, etag));
    });
  }

  async patch(bundleID: string, isEnabled: boolean, ifMatch?: string): Promise<BundleView> {
    const rec = await this.store.freshBundle(bundleID);
    if (rec.builtin) {
      checkIfMatch(ifMatch, 'bundle', { modifiedAt: rec.file.modifiedAt, etag: bundleEtag(rec), memory: undefined });
      return this.view(await this.store.setBuiltinBundleEnabled(bundleID, isEnabled));
    }
    return this.rewrite(
      bundleID,
      (b) => {
        if (b.softDeletedAt) throw new CoreError('BUNDLE_DELETED', `bundle '${b.slug}' is in the Trash; restore it before switching it on or off`);
        // Not a structural change: modifiedAt stays.
        return b.isEnabled === isEnabled ? undefined : { ...b, isEnabled };
      },
      ifMatch,
    );
  }

  async softDelete(bundleID: string): Promise<BundleView> {
    await this.store.freshBundle(bundleID);
    this.store.refuseBuiltin(bundleID, 'cannot delete this bundle');
    return this.rewrite(bundleID, (b) => (b.softDeletedAt ? undefined : { ...b, softDeletedAt: this.store.now() }));
  }

  async restore(bundleID: string): Promise<BundleView> {
    await this.store.freshBundle(bundleID);
    return this.rewrite(bundleID, (b) => {
      if (!b.softDeletedAt) return undefined;
      const { softDeletedAt: _gone, ...rest } = b;
      return rest;
    });
  }
}
