/**
 * What some built-in functions need beyond their arguments: the network under the http tools'
 * rules (web-fetch, web-search), the HTML converter's worker, the container sandbox (shell-exec).
 * Interfaces only: the function runner builds them (tool-types/function/services.ts) over the http
 * transport and the container runner, so this folder never reaches into invoke/.
 */
import type { Config, Sandbox } from '../../../shared/schemas.js';
import type { Availability } from '../../../shared/types.js';
import type { HtmlConverter } from './web/html-convert.js';
import type { Caller } from '../../../shared/caller.js';
import type { Envelope } from '../../../shared/errors.js';

/** The operations the built-in schedule tools act through (shared/operations/schedules.ts). */
export type ScheduleOpName = 'schedules.create' | 'schedules.search' | 'schedules.edit' | 'schedules.delete' | 'schedules.runs' | 'schedules.runOutput';

/** The dispatcher, for the caller a run came from: every check and record of the operation holds. */
export type OperationRunner = (name: ScheduleOpName, input: Record<string, unknown>, caller: Caller) => Promise<Envelope<unknown>>;

export interface FunctionServices {
  readonly web: GuardedWeb;
  readonly html: HtmlConverter;
  /** The container runner's sandbox for one-off commands, when the core has one. */
  sandbox(): CommandSandbox | undefined;
  /** The operations contract, when the core has one (the schedule tools act through it). */
  operations(): OperationRunner | undefined;
}

export interface GetOptions {
  config: Config;
  signal: AbortSignal;
  timeoutMs: number;
  headers?: Record<string, string>;
  /** What the URL is, for messages ("the URL", "the search backend"). */
  what?: string;
  /** Where requests may go, when not config's allowedHosts and private-address rule. */
  policy?: { allowedHosts: readonly string[]; allowPrivateNetwork: boolean };
}

export interface GetResult {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Where the answer came from, after redirects. */
  url: URL;
}

export interface GuardedWeb {
  get(url: URL, opts: GetOptions): Promise<GetResult>;
  /** The response size cap, bytes. */
  readonly maxBytes: number;
  close(): Promise<void>;
}

export interface CommandMount {
  /** Absolute folder on the engine's host. */
  source: string;
  /** Where it appears in the container. */
  target: string;
  readOnly: boolean;
}

export interface CommandSpec {
  image: string;
  argv: string[];
  workdir?: string;
  mounts: CommandMount[];
  /** uid:gid to run as (the host user's, so a mounted folder reads as theirs); the image's user, else nobody, when absent. */
  user?: string;
  sandbox: Sandbox;
  timeoutMs: number;
  /** Cap of stdout and of stderr, each, in bytes; past it the command is stopped. */
  outputCapBytes: number;
  signal: AbortSignal;
  invocationID: string;
  toolID: string;
  /** Each stdout line as it comes (a caller that streams). */
  onStdout?: (text: string) => void;
}

export interface CommandResult {
  /** The command's exit code; null when it was stopped (timeout, output cap). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Why it was stopped before it ended by itself. */
  stopped?: 'timeout' | 'output-cap' | 'out-of-memory';
  durationMs: number;
}

export interface CommandSandbox {
  /** Whether the engine answers (cached, never probes). */
  status(): Availability;
  /** Whether the image is known to be present; undefined until looked at (never probes here). */
  imageStatus(ref: string): boolean | undefined;
  run(spec: CommandSpec): Promise<CommandResult>;
}
