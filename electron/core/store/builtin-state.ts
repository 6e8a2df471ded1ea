/**
 * The enabled flags of built-in bundles and tools. Built-ins ship read-only with the app; the
 * person's choice to switch one off lives in <data>/builtin-state.json.
 */
import { contentBefore, type ChangeRecorder } from '../audit/changes.js';
import type { DataPaths } from '../data-paths.js';
import { readJsonFile, writeJsonFile } from '../fs/json-file.js';
import { withLock } from '../fs/lock.js';
import { CoreError } from '../errors.js';
import type { Problem } from '../../../shared/types.js';
import { problem } from '../problems.js';

export interface BuiltinStateFile {
  bundles: Record<string, boolean>;
  tools: Record<string, boolean>;
}

function check(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null) return 'must be a JSON object';
  for (const key of ['bundles', 'tools'] as const) {
    const m = (v as Record<string, unknown>)[key];
    if (m === undefined) continue;
    if (typeof m !== 'object' || m === null || Object.values(m).some((x) => typeof x !== 'boolean')) return `${key} must map IDs to true/false`;
  }
  return undefined;
}

export class BuiltinState {
  private state: BuiltinStateFile = { bundles: {}, tools: {} };
  private bad: Problem | undefined;
  constructor(
    private readonly paths: DataPaths,
    private readonly changes?: ChangeRecorder,
  ) {}

  async reload(): Promise<void> {
    const r = await readJsonFile<Partial<BuiltinStateFile>>(this.paths.builtinStateFile, check);
    if (r.kind === 'bad') {
      this.bad = problem(this.paths.builtinStateFile, 'builtin-state', `builtin-state.json ${r.reason}`);
      this.state = { bundles: {}, tools: {} };
    } else {
      this.bad = undefined;
      const v = r.kind === 'ok' ? r.value : {};
      this.state = { bundles: { ...(v.bundles ?? {}) }, tools: { ...(v.tools ?? {}) } };
    }
  }

  problem(): Problem | undefined {
    return this.bad;
  }

  bundleEnabled(id: string, shipped: boolean): boolean {
    return this.state.bundles[id] ?? shipped;
  }

  toolEnabled(id: string, shipped: boolean): boolean {
    return this.state.tools[id] ?? shipped;
  }

  /** `precondition` runs under the lock on the state just read, so a switch another process flipped counts. */
  async set(kind: 'bundles' | 'tools', id: string, enabled: boolean, precondition?: () => void): Promise<void> {
    await withLock(this.paths.rootLock, async () => {
      await this.reload();
      if (this.bad) throw new CoreError('CONFLICT', `${this.bad.reason}; fix or delete ${this.paths.builtinStateFile}`);
      precondition?.();
      this.state[kind][id] = enabled;
      const before = await this.changes?.before(this.paths.builtinStateFile);
      await writeJsonFile(this.paths.builtinStateFile, this.state as unknown as Record<string, unknown>, ['bundles', 'tools']);
      this.changes?.changed(this.paths.builtinStateFile, before, await contentBefore(this.paths.builtinStateFile));
    });
  }
}
