/**
 * The upstream MCP servers of this process: one managed connection per bundle with a `source`,
 * and the snapshot of what each server last said its tools are
 * (`<data>/bundles/<bundleID>/upstream.json`, shared by every process through the store's
 * watcher). Availability of an `mcp` tool is judged from the snapshot, so it is cheap and never
 * starts a server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UpstreamSnapshot, UpstreamStatus } from '../../../../../shared/upstream.js';
import type { StoreEvent } from '../../../../../shared/operations.js';
import { CoreError } from '../../../errors.js';
import { writeFileAtomic } from '../../../fs/atomic.js';
import type { Logger } from '../../../log.js';
import type { SecretsReader } from '../../../secrets/types.js';
import type { StoreReader } from '../../../store/reader.js';
import type { DataPaths } from '../../../data-paths.js';
import { UpstreamConnection } from './connection.js';
import { resolveSource } from './source.js';
import { DEFAULT_UPSTREAM_IDLE_MINUTES } from '../../../../../shared/limits.js';

export const SNAPSHOT_FILE = 'upstream.json';
export const DEFAULT_START_TIMEOUT_MS = 30_000;

export interface UpstreamManagerOptions {
  paths: DataPaths;
  reader: () => StoreReader;
  secrets: SecretsReader;
  log: Logger;
  emit: (e: StoreEvent) => void;
  appVersion?: string;
  /** Servers not called for this long are stopped (started again on the next call); 0: never. Read when a server falls idle. */
  idleMs?: () => number;
  startTimeoutMs?: number;
}

export class UpstreamManager {
  private readonly connections = new Map<string, UpstreamConnection>();
  private readonly snapshots = new Map<string, UpstreamSnapshot | null>();
  /** Called when a server says its tools changed; the composition root points it at a sync. */
  onToolsChanged: (bundleID: string) => void = () => undefined;

  constructor(private readonly opts: UpstreamManagerOptions) {}

  private snapshotPath(bundleID: string): string {
    return join(this.opts.paths.bundleDir(bundleID), SNAPSHOT_FILE);
  }

  /** What the server said at the last sync, or undefined before the first. */
  snapshot(bundleID: string): UpstreamSnapshot | undefined {
    if (!this.snapshots.has(bundleID)) {
      let snap: UpstreamSnapshot | null = null;
      try {
        const parsed = JSON.parse(readFileSync(this.snapshotPath(bundleID), 'utf8')) as UpstreamSnapshot;
        if (parsed && typeof parsed === 'object' && parsed.tools && typeof parsed.tools === 'object') snap = parsed;
      } catch {
        snap = null;
      }
      this.snapshots.set(bundleID, snap);
    }
    return this.snapshots.get(bundleID) ?? undefined;
  }

  async writeSnapshot(bundleID: string, snapshot: UpstreamSnapshot): Promise<void> {
    await writeFileAtomic(this.snapshotPath(bundleID), JSON.stringify(snapshot, null, 2) + '\n');
    this.snapshots.set(bundleID, snapshot);
    this.opts.emit({ type: 'bundle.changed', bundleID });
  }

  /** The snapshot file changed on disk (another process synced): read it again, and let readers know. */
  snapshotChanged(bundleID: string): void {
    this.snapshots.delete(bundleID);
    this.opts.emit({ type: 'bundle.changed', bundleID });
  }

  connection(bundleID: string): UpstreamConnection {
    let c = this.connections.get(bundleID);
    if (!c) {
      c = new UpstreamConnection({
        bundleID,
        source: () => {
          const bundle = this.opts.reader().bundle(bundleID);
          const source = bundle?.file.source;
          if (!source)
            throw new CoreError('TOOL_UNAVAILABLE', `bundle ${bundle?.file.slug ?? bundleID} has no upstream MCP server (its bundle.json has no source)`);
          return resolveSource(source, this.opts.secrets);
        },
        startTimeoutMs: this.opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
        idleMs: this.opts.idleMs ?? (() => DEFAULT_UPSTREAM_IDLE_MINUTES * 60_000),
        appVersion: this.opts.appVersion ?? '0.1.0',
        onToolsChanged: () => this.onToolsChanged(bundleID),
        onStatus: () => this.opts.emit({ type: 'upstream.changed', bundleID }),
        log: this.opts.log,
      });
      this.connections.set(bundleID, c);
    }
    return c;
  }

  /** The idle setting changed: applied to every running server now. */
  idleChanged(): void {
    for (const c of this.connections.values()) c.idleChanged();
  }

  status(bundleID: string): UpstreamStatus {
    return this.connections.get(bundleID)?.status() ?? { state: 'stopped', restarts: 0, stderr: '' };
  }

  /** Stops a bundle's server (its source changed, or the bundle went away). */
  async stop(bundleID: string): Promise<void> {
    const c = this.connections.get(bundleID);
    this.connections.delete(bundleID);
    await c?.stop();
  }

  /** Stops every server: closing Toolwright leaves no child behind. */
  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.stop()));
    this.connections.clear();
  }
}
