/**
 * The one way the store tells the rest of the core what changed: each change kind is one method
 * that informs the in-process observers (the search index wants the files themselves) and emits
 * the StoreEvent that transports forward (IPC, SSE, MCP). Changes made by other processes
 * arrive through the watcher and leave through here like our own.
 */
import type { StoreEvent } from '../../../shared/operations.js';
import type { BundleFile, ToolFile } from '../../../shared/schemas.js';
import type { StoreReader } from './reader.js';
import type { BundleRecord, ToolRecord } from './loader.js';

export interface StoreObserver {
  loaded?(store: StoreReader): void;
  toolChanged?(tool: ToolFile, bundle: BundleFile): void;
  toolRemoved?(toolID: string): void;
  bundleChanged?(bundle: BundleFile): void;
}

export class StoreNotifier {
  private readonly observers: StoreObserver[] = [];

  constructor(
    private readonly reader: StoreReader,
    private readonly emit: (e: StoreEvent) => void,
  ) {}

  /** Adds an observer and hands it what is loaded so far. Returns the undo. */
  observe(o: StoreObserver): () => void {
    this.observers.push(o);
    o.loaded?.(this.reader);
    return () => {
      const i = this.observers.indexOf(o);
      if (i >= 0) this.observers.splice(i, 1);
    };
  }

  loaded(): void {
    for (const o of this.observers) o.loaded?.(this.reader);
  }

  toolChanged(rec: ToolRecord): void {
    const bundle = this.reader.bundle(rec.file.bundleID);
    if (bundle) for (const o of this.observers) o.toolChanged?.(rec.file, bundle.file);
    this.emit({ type: 'tool.changed', bundleID: rec.file.bundleID, toolID: rec.file.toolID });
  }

  toolRemoved(bundleID: string, toolID: string): void {
    for (const o of this.observers) o.toolRemoved?.(toolID);
    this.emit({ type: 'tool.removed', bundleID, toolID });
  }

  bundleChanged(rec: BundleRecord): void {
    for (const o of this.observers) o.bundleChanged?.(rec.file);
    this.emit({ type: 'bundle.changed', bundleID: rec.file.bundleID });
  }

  /** A bundle's folder is gone; `last` (what memory held) lets observers hide it, as deleted. */
  bundleRemoved(bundleID: string, last?: BundleFile): void {
    if (last) for (const o of this.observers) o.bundleChanged?.({ ...last, softDeletedAt: last.softDeletedAt ?? new Date().toISOString(), isEnabled: false });
    this.emit({ type: 'bundle.removed', bundleID });
  }

  problemsChanged(): void {
    this.emit({ type: 'problems.changed' });
  }
}
