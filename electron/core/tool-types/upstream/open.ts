/**
 * The upstream type's service (./../type-service.ts), opened by the composition root with every
 * other type's: the servers of this process (manager.ts), the sync that pins their definitions
 * (sync.ts), the operations of shared/operations/upstream.ts (probe, status, sync, stop, sign-in,
 * the review of a changed definition, the import of client configurations), the snapshot file it
 * keeps in each bundle's folder, and the store's rule that an upstream bundle holds only the tools
 * its server gives.
 */
import { DEFAULT_UPSTREAM_IDLE_MINUTES } from '../../../../shared/limits.js';
import type { upstreamOperations } from '../../../../shared/operations/upstream.js';
import { DEFAULT_LIMITS } from '../../archive/limits.js';
import type { TypeService, TypeServiceContext } from '../type-service.js';
import type { UpstreamRunnerOptions } from './runner.js';
import { effectiveReview, type UpstreamSyncReport } from '../../../../shared/upstream.js';
import { SNAPSHOT_FILE, UpstreamManager } from './manager.js';
import { UpstreamSync } from './sync.js';
import { UpstreamService } from './service.js';
import { UpstreamImport } from './import/importer.js';

export interface UpstreamTypeService extends TypeService<typeof upstreamOperations> {
  /** What the type's runner calls servers through. */
  readonly runner: UpstreamRunnerOptions;
}

const ref = (i: { bundleID: string; slug: string; version: string }) => ({ bundleID: i.bundleID, slug: i.slug, version: i.version });

export function openUpstream(ctx: TypeServiceContext): UpstreamTypeService {
  const { store, secrets, log, config } = ctx;
  const reader = () => store.reader;
  const manager = new UpstreamManager({
    paths: ctx.paths,
    reader,
    secrets,
    log,
    emit: ctx.emit,
    appVersion: ctx.appVersion,
    idleMs: () => (config.get().upstreamIdleMinutes ?? DEFAULT_UPSTREAM_IDLE_MINUTES) * 60_000,
    // A server that says its tools changed is synced at once (its changed definitions withheld, never applied).
    onToolsChanged: (bundleID) => void sync.sync(bundleID).catch((e: unknown) => log.error(`syncing upstream server of bundle ${bundleID}`, e)),
  });
  ctx.owned.listen(config, 'changed', () => manager.idleChanged());
  ctx.owned.add(() => manager.close());
  const sync = new UpstreamSync({ manager, store, tools: ctx.tools, now: () => store.now() });
  const servers = new UpstreamService({ manager, sync, store, secrets, log, appVersion: ctx.appVersion });
  const creating = new Set<string>();
  // A sync the creation started answers a servers.sync asked meanwhile (the app's and the CLI's, right after they create).
  const creationSyncs = new Map<string, Promise<UpstreamSyncReport>>();
  const importer = new UpstreamImport({ store, bundles: ctx.bundles, secrets, servers, paths: ctx.paths, limits: DEFAULT_LIMITS, creating });
  return {
    runner: { upstreams: manager, reader, approvals: ctx.approvals },
    handlers: {
      'servers.probe': (i) => servers.probe(i.source),
      'servers.status': (i) => servers.status(i.bundleID),
      'servers.sync': (i) => (i.dryRun !== true && creationSyncs.get(i.bundleID)) || servers.sync(i.bundleID, i.dryRun === true),
      'servers.stop': (i) => servers.stop(i.bundleID),
      'servers.authorize': (i) => servers.authorize(i.bundleID),
      'tools.definition': (i) => servers.review(ref(i)),
      'tools.acceptDefinition': (i) => servers.accept(ref(i), i.definitionHash),
      'bundles.importMcpServers': (i) => importer.import(i),
    },
    // Another process synced: read the snapshot again, and let readers know.
    bundleFiles: { [SNAPSHOT_FILE]: (bundleID) => manager.snapshotChanged(bundleID) },
    storeHooks: {
      refuseTool: (bundle, type) =>
        bundle.source && type !== 'mcp'
          ? `bundle ${bundle.slug} stands for an MCP server: its tools come from its MCP server (sync it to bring in new ones), so a ${type ?? 'new'} tool cannot be added to it; add it to another bundle`
          : undefined,
      // A server bundle syncs on creation and when its source changes (however it was saved: REST,
      // the app, the CLI), in the background: its result, or why it failed, is on the server view.
      bundleSaved(before, after) {
        if (!after.source || creating.has(after.bundleID) || JSON.stringify(before?.source) === JSON.stringify(after.source)) return;
        const bundleID = after.bundleID;
        const started = manager.stop(bundleID).then(() => sync.sync(bundleID));
        creationSyncs.set(bundleID, started);
        started
          .catch((e: unknown) => log.warn(`syncing the new server of bundle ${after.slug}: ${e instanceof Error ? e.message : String(e)}`))
          .finally(() => creationSyncs.get(bundleID) === started && creationSyncs.delete(bundleID));
      },
      // The review state as the last sync makes it, stored or (a tool from before review states) as it showed.
      toolView: (file) => ({ review: effectiveReview(file, manager.snapshot(file.bundleID)) }),
      // A person's switch or edit of a tool stored before review states writes the state it showed, so the switch changes nothing.
      keptOnSave: (file) => (file.review ? undefined : { review: effectiveReview(file, manager.snapshot(file.bundleID)) }),
    },
    ownsLink: (url) => manager.isPendingAuthorizationUrl(url),
    instructionsOf: (bundleID) => manager.snapshot(bundleID)?.instructions,
  };
}
