/**
 * The upstream servers' operations (servers.* and the review of a changed definition): thin
 * over the manager (connections, snapshots) and the sync.
 */
import {
  effectiveReview,
  REVIEW_STATES,
  safetyOfAnnotations,
  type ReviewCounts,
  type BundleSource,
  type DefinitionReview,
  type ServerAuthorization,
  type ServerProbe,
  type UpstreamLastSync,
  type UpstreamStatus,
  type UpstreamSyncReport,
} from '../../../../shared/upstream.js';
import type { McpImpl } from '../../../../shared/tool-types/mcp.js';
import type { ToolView } from '../../../../shared/types.js';
import { CoreError } from '../../errors.js';
import type { SecretsReader } from '../../secrets/types.js';
import type { Store } from '../../store/store.js';
import type { ToolRef } from '../../store/tools.js';
import type { Logger } from '../../log.js';
import { UpstreamConnection } from './connection.js';
import { definitionOf } from './definition.js';
import { DEFAULT_START_TIMEOUT_MS, type UpstreamManager } from './manager.js';
import { resolveSource } from './source.js';
import type { UpstreamSync } from './sync.js';
import { reviewGuard } from '../../guard/tool-guard.js';

export class UpstreamService {
  constructor(
    private readonly deps: {
      manager: UpstreamManager;
      sync: UpstreamSync;
      store: Store;
      secrets: SecretsReader;
      log: Logger;
      appVersion: string;
    },
  ) {}

  /** Starts the server once, lists its tools, stops it: nothing is saved. */
  async probe(source: BundleSource): Promise<ServerProbe> {
    const resolved = resolveSource(source, this.deps.secrets);
    const connection = new UpstreamConnection({
      bundleID: 'probe',
      source: () => resolved,
      startTimeoutMs: DEFAULT_START_TIMEOUT_MS,
      idleMs: () => 0,
      appVersion: this.deps.appVersion,
      onToolsChanged: () => undefined,
      onStatus: () => undefined,
      log: this.deps.log,
    });
    try {
      const tools = await connection.listTools().catch((e: unknown) => {
        if (connection.status().state === 'needs-authorization') return undefined;
        throw e;
      });
      if (!tools) return { needsAuthorization: true, tools: [] };
      const status = connection.status();
      return {
        ...(status.server ? { server: status.server } : {}),
        ...(status.protocolVersion ? { protocolVersion: status.protocolVersion } : {}),
        tools: tools.map((t) => {
          const d = definitionOf(t);
          return {
            name: d.name,
            ...(d.title ? { title: d.title } : {}),
            ...(d.description ? { description: d.description } : {}),
            safety: safetyOfAnnotations(d.annotations),
          };
        }),
      };
    } finally {
      await connection.stop();
    }
  }

  async status(bundleID: string): Promise<UpstreamStatus & { syncedAt?: string; toolCount: number; review: ReviewCounts; lastSync?: UpstreamLastSync }> {
    const bundle = await this.deps.store.freshBundle(bundleID);
    if (!bundle.file.source) throw new CoreError('INVALID_INPUT', `bundle '${bundle.file.slug}' has no upstream MCP server (its bundle.json has no source)`);
    const snapshot = this.deps.manager.snapshot(bundleID);
    return {
      ...this.deps.manager.status(bundleID),
      ...(snapshot ? { syncedAt: snapshot.syncedAt } : {}),
      toolCount: snapshot ? Object.keys(snapshot.tools).length : 0,
      review: this.reviewCounts(bundleID),
      ...(this.deps.sync.lastOf(bundleID) ? { lastSync: this.deps.sync.lastOf(bundleID)! } : {}),
    };
  }

  /** How many of the bundle's tools are in each review state. */
  private reviewCounts(bundleID: string): ReviewCounts {
    const counts = Object.fromEntries(REVIEW_STATES.map((s) => [s, 0])) as ReviewCounts;
    const snapshot = this.deps.manager.snapshot(bundleID);
    for (const rec of this.deps.store.reader.toolsOf(bundleID)) {
      if (rec.file.type === 'mcp') counts[effectiveReview(rec.file, snapshot).state]++;
    }
    return counts;
  }

  sync(bundleID: string, dryRun: boolean): Promise<UpstreamSyncReport> {
    return this.deps.sync.sync(bundleID, { dryRun });
  }

  async stop(bundleID: string): Promise<UpstreamStatus> {
    await this.deps.store.freshBundle(bundleID);
    await this.deps.manager.stop(bundleID);
    return this.deps.manager.status(bundleID);
  }

  async authorize(bundleID: string): Promise<ServerAuthorization> {
    await this.deps.store.freshBundle(bundleID);
    const started = await this.deps.manager.authorize(bundleID);
    return { ...started, state: this.deps.manager.status(bundleID).state };
  }

  async review(ref: ToolRef): Promise<DefinitionReview> {
    const rec = await this.deps.store.tool(ref.bundleID, ref.slug, ref.version);
    if (rec.file.type !== 'mcp') throw new CoreError('INVALID_INPUT', `${ref.slug}@${ref.version} is not a tool of an upstream MCP server`);
    const impl = rec.file.impl as McpImpl;
    const snapshot = this.deps.manager.snapshot(ref.bundleID);
    const seen = snapshot?.tools[impl.tool];
    return {
      name: impl.tool,
      accepted: {
        hash: impl.definitionHash,
        description: rec.file.description,
        argSchema: rec.file.argSchema,
        ...(rec.file.outputSchema ? { outputSchema: rec.file.outputSchema } : {}),
        safety: rec.file.safety,
      },
      upstream: seen ? { hash: seen.hash, definition: seen.definition, safety: safetyOfAnnotations(seen.definition.annotations) } : null,
      changed: !seen || seen.hash !== impl.definitionHash,
      ...(snapshot ? { syncedAt: snapshot.syncedAt } : {}),
      guard: reviewGuard({ ...rec.file, name: impl.tool }, seen?.definition, snapshot?.instructions),
    };
  }

  accept(ref: ToolRef, definitionHash?: string): Promise<ToolView> {
    return this.deps.sync.accept(ref, definitionHash);
  }
}
