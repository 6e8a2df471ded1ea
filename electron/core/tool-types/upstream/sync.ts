/**
 * Sync of an upstream MCP server's tools into its bundle, with definitions pinned
 * (docs/contracts.md, "Upstream MCP servers"): new tools arrive switched off; a tool whose definition no
 * longer matches the hash a person accepted keeps its accepted description and schemas on disk
 * and is withheld from agents (its availability says why) until a person reviews the difference
 * and accepts it; a tool gone upstream stays on disk, unavailable. Nothing about a definition is
 * ever changed without a person's accept. A dry run only reports.
 */
import {
  legacyReview,
  reviewAfterSync,
  safetyOfAnnotations,
  stricterSafety,
  type UpstreamReview,
  type UpstreamLastSync,
  type UpstreamDefinition,
  type UpstreamSnapshot,
  type UpstreamSyncReport,
} from '../../../../shared/upstream.js';
import type { McpImpl } from '../../../../shared/tool-types/mcp.js';
import type { ToolFile } from '../../../../shared/schemas.js';
import type { ToolView } from '../../../../shared/types.js';
import { CoreError, notFound } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { ToolService } from '../../store/tools.js';
import { definitionHash, definitionOf } from './definition.js';
import type { UpstreamManager } from './manager.js';
import { reviewGuard, upstreamDefinitionReport } from '../../guard/tool-guard.js';
import { reportOf } from '../../../../shared/guard/compare.js';

const SLUG_MAX = 64;
export const UPSTREAM_TOOL_VERSION = 'v1';

/** A slug for an upstream name (`get_weather` → `get-weather`), unique in the bundle. */
function slugFor(name: string, taken: Set<string>): string {
  const base =
    name
      .normalize('NFKC')
      .replace(/[^\p{L}\p{N}-]+/gu, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, SLUG_MAX) || 'tool';
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base.slice(0, SLUG_MAX - String(n).length - 1)}-${n}`;
  taken.add(slug);
  return slug;
}

/** The tool.json fields that come from the upstream definition. */
export function fieldsOfDefinition(def: UpstreamDefinition, hash: string) {
  return {
    description: (def.description ?? '').slice(0, 10000),
    argSchema: def.inputSchema,
    outputSchema: def.outputSchema ?? {},
    impl: { tool: def.name, definitionHash: hash } satisfies McpImpl,
  };
}

export class UpstreamSync {
  private running = new Map<string, Promise<UpstreamSyncReport>>();
  private readonly last = new Map<string, UpstreamLastSync>();

  constructor(
    private readonly deps: {
      manager: UpstreamManager;
      store: Store;
      /** Built after the runners: asked when a sync or an accept runs, never while the service opens. */
      tools: () => ToolService;
      now: () => string;
    },
  ) {}

  /** One sync per bundle at a time: a list_changed during a sync waits for it, then runs again. */
  sync(bundleID: string, opts: { dryRun?: boolean } = {}): Promise<UpstreamSyncReport> {
    if (opts.dryRun) return this.run(bundleID, true);
    const previous = this.running.get(bundleID) ?? Promise.resolve(undefined);
    const next = previous.catch(() => undefined).then(() => this.run(bundleID, false));
    this.running.set(bundleID, next);
    next.then(
      (r) => this.last.set(bundleID, { at: this.deps.now(), ok: true, added: r.added.length, changed: r.changed.length, gone: r.gone.length }),
      (e: unknown) => this.last.set(bundleID, { at: this.deps.now(), ok: false, error: e instanceof Error ? e.message : String(e) }),
    );
    next
      .finally(() => {
        if (this.running.get(bundleID) === next) this.running.delete(bundleID);
      })
      .catch(() => undefined); // the caller handles the failure

    return next;
  }

  private async run(bundleID: string, dryRun: boolean): Promise<UpstreamSyncReport> {
    const { manager, store } = this.deps;
    const bundle = await store.freshBundle(bundleID);
    if (!bundle.file.source)
      throw new CoreError('INVALID_INPUT', `bundle '${bundle.file.slug}' has no upstream MCP server to sync (its bundle.json has no source)`);
    const connection = manager.connection(bundleID);
    const upstream = await connection.listTools();
    const status = connection.status();
    // The server's instructions reach agents with its tools: the definition guard reads them too.
    const instructions = (await connection.connect()).getInstructions?.() || undefined;

    const seen: UpstreamSnapshot['tools'] = {};
    for (const tool of upstream) {
      if (typeof tool.name !== 'string' || !tool.name || Object.hasOwn(seen, tool.name)) continue; // a server that lists a name twice: the first counts
      const definition = definitionOf(tool);
      seen[tool.name] = { hash: definitionHash(definition), definition };
    }
    const existing = store.reader.toolsOf(bundleID).filter((r) => r.file.type === 'mcp');
    const byName = new Map(existing.map((r) => [(r.file.impl as McpImpl).tool, r]));
    const taken = new Set(store.reader.toolsOf(bundleID).map((r) => r.file.slug));

    const report: UpstreamSyncReport = {
      bundleID,
      dryRun,
      ...(status.server ? { server: { name: status.server.name, version: status.server.version } } : {}),
      added: [],
      changed: [],
      gone: [],
      unchanged: 0,
    };
    for (const [name, { hash, definition }] of Object.entries(seen)) {
      const rec = byName.get(name);
      if (!rec) {
        // A new tool with a finding arrives flagged (its view and lint show the findings too).
        const guard = upstreamDefinitionReport(definition, instructions);
        report.added.push({ name, slug: slugFor(name, taken), ...(guard.worst ? { guard } : {}) });
        continue;
      }
      const ref = { name, toolID: rec.file.toolID, slug: rec.file.slug, version: rec.file.version };
      if ((rec.file.impl as McpImpl).definitionHash === hash) report.unchanged++;
      else {
        // What the change adds to the guard's findings: a rug-pull is named at the sync already.
        const added = reviewGuard({ ...rec.file, name }, definition, instructions).added;
        report.changed.push({ ...ref, ...(added.length ? { guard: reportOf(added) } : {}) });
      }
    }
    for (const [name, rec] of byName) {
      if (!Object.hasOwn(seen, name)) report.gone.push({ name, toolID: rec.file.toolID, slug: rec.file.slug, version: rec.file.version });
    }
    if (dryRun) return report;

    await manager.writeSnapshot(bundleID, {
      syncedAt: this.deps.now(),
      ...(status.server ? { server: status.server } : {}),
      ...(status.protocolVersion ? { protocolVersion: status.protocolVersion } : {}),
      ...(instructions ? { instructions } : {}),
      tools: seen,
    });
    await this.writeReviews(
      bundleID,
      existing.map((r) => r.file.toolID),
      seen,
    );
    for (const added of report.added) {
      const { hash, definition } = seen[added.name]!;
      const view = await this.deps.tools().create({ bundleID, slug: added.slug, version: UPSTREAM_TOOL_VERSION }, {
        type: 'mcp',
        displayName: (definition.title ?? definition.annotations?.['title'] ?? definition.name) as string,
        isEnabled: false,
        safety: safetyOfAnnotations(definition.annotations),
        ...fieldsOfDefinition(definition, hash),
      } as never);
      added.toolID = view.toolID;
    }
    if (report.added.length) {
      await store.withBundleLock(bundleID, async () => {
        for (const added of report.added) if (added.toolID) await this.patchReview(bundleID, added.toolID, { state: 'new' });
      });
    }
    return report;
  }

  /**
   * Each existing tool's review state as the server's list makes it (shared/upstream.ts
   * reviewAfterSync), written only where it moves — read from disk under the bundle's lock, so a
   * person's switch in another process is kept. A tool stored before review states gets the one it showed.
   */
  private async writeReviews(bundleID: string, toolIDs: string[], seen: UpstreamSnapshot['tools']): Promise<void> {
    const { store } = this.deps;
    await store.withBundleLock(bundleID, async () => {
      for (const toolID of toolIDs) {
        const disk = await store.readToolFile(bundleID, toolID);
        if (!disk || disk.type !== 'mcp') continue;
        const impl = disk.impl as McpImpl;
        const next = reviewAfterSync(disk.review ?? legacyReview(disk), impl.definitionHash, seen[impl.tool]?.hash);
        if (JSON.stringify(next) !== JSON.stringify(disk.review)) await this.patchReview(bundleID, toolID, next);
      }
    });
  }

  /** Writes a tool's review state (not a structural change: modifiedAt stays). Call under the bundle's lock. */
  private async patchReview(bundleID: string, toolID: string, review: UpstreamReview): Promise<void> {
    const patched = await this.deps.store.patchToolFile(bundleID, toolID, { review } as Partial<ToolFile>);
    this.deps.store.applyTool(patched.file, patched.etag);
  }

  /** How the last sync of this process ended (on the server view), or undefined before one. */
  lastOf(bundleID: string): UpstreamLastSync | undefined {
    return this.last.get(bundleID);
  }

  /**
   * A person accepts the upstream's current definition of a tool: its description and schemas
   * become the ones on disk, the hash is pinned, the safety becomes the stricter of the
   * person's and the upstream's, and its review state `accepted` (a new tool's too: its
   * definition is the one the sync pinned).
   */
  async accept(ref: { bundleID: string; slug: string; version: string }, expectedHash?: string): Promise<ToolView> {
    const { store, manager } = this.deps;
    const rec = await store.tool(ref.bundleID, ref.slug, ref.version);
    if (rec.file.type !== 'mcp') throw new CoreError('INVALID_INPUT', `${ref.slug}@${ref.version} is not a tool of an upstream MCP server`);
    const impl = rec.file.impl as McpImpl;
    const seen = manager.snapshot(ref.bundleID)?.tools[impl.tool];
    if (!seen)
      throw notFound(`the upstream definition of '${impl.tool}' (the server no longer offers it, or the bundle was never synced); sync the bundle first`);
    if (expectedHash !== undefined && expectedHash !== seen.hash) {
      throw new CoreError('MODIFIED_ELSEWHERE', `the upstream definition changed again since you reviewed it (now ${seen.hash}); review it again`);
    }
    return store.withBundleLock(ref.bundleID, async () => {
      const now = this.deps.now();
      const fields: Partial<ToolFile> = {
        ...fieldsOfDefinition(seen.definition, seen.hash),
        safety: stricterSafety(rec.file.safety, safetyOfAnnotations(seen.definition.annotations)),
        review: { state: 'accepted', reviewedAt: now },
        modifiedAt: now,
      } as Partial<ToolFile>;
      const patched = await store.patchToolFile(ref.bundleID, rec.file.toolID, fields);
      store.applyTool(patched.file, patched.etag);
      return this.deps.tools().get(ref);
    });
  }
}
