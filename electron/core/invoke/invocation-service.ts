/**
 * Runs, cancels and lists the runs of a tool named by <bundle, slug, version>: the store finds
 * the tool, the engine runs it, the history remembers it; a run of another process is cancelled
 * through the registry of running invocations.
 */
import type { HistoryEntry, InvokeResult } from '../../../shared/types.js';
import type { Store } from '../store/store.js';
import type { ToolRef } from '../store/tools.js';
import type { InvocationEngine, InvokeInput } from './engine.js';
import type { HistoryStore } from './history.js';
import type { RunningInvocations } from './running.js';
import { OutputGuard } from '../guard/output-guard.js';
import type { Config } from '../../../shared/schemas.js';

export class InvocationService {
  constructor(
    private readonly store: Store,
    private readonly engine: InvocationEngine,
    private readonly history: HistoryStore,
    private readonly running?: Pick<RunningInvocations, 'requestCancel'>,
    config?: () => Config,
  ) {
    this.outputGuard = config ? new OutputGuard(config) : undefined;
  }

  private readonly outputGuard: OutputGuard | undefined;

  /** The run's answer; the output guard's findings ride along (`guard`), history keeps the raw result. */
  async invoke(ref: ToolRef, input: InvokeInput): Promise<InvokeResult> {
    const rec = await this.store.tool(ref.bundleID, ref.slug, ref.version);
    const bundle = this.store.bundle(ref.bundleID).file;
    const result = await this.engine.invoke(rec, bundle, input);
    return this.outputGuard ? this.outputGuard.apply(result, rec.file, bundle) : result;
  }

  /** Cancels a run of this process at once, or asks the process that runs it (running.ts). */
  async cancel(invocationID: string): Promise<{ cancelled: boolean }> {
    if (this.engine.cancel(invocationID)) return { cancelled: true };
    return { cancelled: (await this.running?.requestCancel(invocationID)) ?? false };
  }

  async recent(ref: ToolRef, limit?: number): Promise<{ items: HistoryEntry[] }> {
    const rec = await this.store.tool(ref.bundleID, ref.slug, ref.version);
    return { items: await this.history.list(rec.file.toolID, limit) };
  }
}
