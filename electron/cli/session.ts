/**
 * The CLI's one way into the core, the front door REST and IPC use too: every command calls an
 * operation through the dispatcher (validated by the contract in shared/operations.ts, answered
 * as an envelope), and an export streams through the same contract check as REST's. The one
 * read beside it is naming: tool-ref.ts turns `<bundle>/<tool>[@version]` into the IDs the
 * operations take. Commands (cli/commands/) import nothing of the core; the lint zones keep it so.
 */
import { resolve } from 'node:path';
import type { Core } from '../core/app-core.js';
import { defaultDataDir } from '../core/data-dir.js';
import type { InvokeStreamHooks } from '../core/operations/dispatch.js';
import type { OpenedExport } from '../core/transfer/export.js';
import type { OpInput, OpName, OpOutput } from '../../shared/operations.js';
import { bundleByRef, resolveToolRef } from './tool-ref.js';
import { CliFailure } from './failure.js';
import { CLI_CALLER } from '../../shared/caller.js';

/** A tool as the operations name it. */
export interface ToolKey {
  bundleID: string;
  slug: string;
  version: string;
}

export interface CliSession {
  /** One operation of the contract; a refusal becomes a CliFailure carrying the contract's error. */
  call<N extends OpName>(name: N, input: OpInput<N>, stream?: InvokeStreamHooks): Promise<OpOutput<N>>;
  /** The ZIP of bundles as a stream, after the contract's check of `bundles.export`. */
  openExport(bundleIDs: string[]): Promise<OpenedExport>;
  /** `<bundle>/<tool>[@version]`, or `<tool>` when one bundle has it. */
  toolKey(ref: string): ToolKey;
  /** The ID of a bundle (not in the Trash) by its slug. */
  bundleID(slug: string): string;
}

export interface SessionOptions {
  /** Commands that run or check container tools reach the Docker engine. */
  docker?: boolean;
}

/** The data folder of this invocation: --data-dir, else TOOLWRIGHT_DATA_DIR, else the app's. */
export function dataDirOf(dataDir: string | undefined): string {
  return dataDir ? resolve(dataDir) : defaultDataDir();
}

/**
 * Opens the core once per process, on first use, and closes it when the command is done. The core
 * is imported here, not at the top: `help`, `--version` and usage errors never load it.
 */
export class CliSessions {
  private core: Core | undefined;

  constructor(private readonly dataDir: () => string) {}

  async open(options: SessionOptions = {}): Promise<CliSession> {
    const [{ createCore }, { stderrLogger }] = await Promise.all([import('../core/app-core.js'), import('../core/log.js')]);
    this.core ??= await createCore({
      dataDir: this.dataDir(),
      transport: 'rest',
      actor: 'cli',
      docker: options.docker ?? false,
      reapIntervalMs: 0,
      backgroundContextCount: false,
      logger: stderrLogger(),
    });
    return sessionOver(this.core);
  }

  async close(): Promise<void> {
    await this.core?.close().catch(() => undefined);
    this.core = undefined;
  }
}

function sessionOver(core: Core): CliSession {
  return {
    async call(name, input, stream) {
      const env = await core.dispatch(name, input, { caller: CLI_CALLER, ...(stream ? { stream } : {}) });
      if (!env.ok) throw new CliFailure(env.error);
      return env.data;
    },
    async openExport(bundleIDs) {
      const { checkInput } = await import('../core/operations/dispatch.js');
      const invalidInput = checkInput('bundles.export', { bundleIDs });
      if (invalidInput) throw new CliFailure(invalidInput);
      return core.openExport(bundleIDs);
    },
    toolKey(ref) {
      const { bundleID, slug, version } = resolveToolRef(core.store.reader, ref).file;
      return { bundleID, slug, version };
    },
    bundleID: (slug) => bundleByRef(core.store.reader, slug).file.bundleID,
  };
}
