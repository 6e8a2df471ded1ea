/** What every command group gets from main.ts: the session on the data folder and the global options. */
import type { CliSession, SessionOptions } from './session.js';

export interface CliContext {
  /** The core on the data folder, opened on first use (one per process). */
  session(options?: SessionOptions): Promise<CliSession>;
  /** --json: print the REST API's shapes instead of tables. */
  json(): boolean;
  /** The data folder of this invocation (--data-dir, TOOLWRIGHT_DATA_DIR or the app's). */
  dataDir(): string;
  readonly version: string;
}
