/**
 * Interfaces between the invocation engine and its runners. Runners are plain modules with
 * no knowledge of the store or transports: they get a resolved tool, validated arguments,
 * the config and a secrets reader, and an AbortSignal for cancellation and timeouts.
 */
import type { Config, Safety, ToolFile } from '../../../shared/schemas.js';
import type { Availability, HttpExchange, InvokeStreamEvent, PipelineStepRecord, ResultContent } from '../../../shared/types.js';
import type { SecretsReader } from '../secrets/types.js';
import type { Caller } from '../../../shared/caller.js';

/**
 * Who may answer what an upstream MCP server asks during a run (its `elicitation/create` or
 * `sampling/createMessage`), as the transport that carries the call knows it. Absent: nobody
 * (the CLI, a schedule), and the question is declined.
 */
export interface RunAnswerers {
  /** The agent's client declared elicitation: the server's request goes to it as is. */
  elicit?: (params: Record<string, unknown>, opts: { signal: AbortSignal; timeoutMs: number }) => Promise<Record<string, unknown>>;
  /** The agent's client declared sampling. */
  sample?: (params: Record<string, unknown>, opts: { signal: AbortSignal; timeoutMs: number }) => Promise<Record<string, unknown>>;
  /** A person can answer in the app's approvals panel (the app's own call, or an agent that waits for it). */
  person?: boolean;
}

export interface RunContext {
  invocationID: string;
  /** Who asks (shared/caller.ts), for what a person is shown. */
  caller?: Caller;
  answerers?: RunAnswerers;
  tool: ToolFile;
  /** Absolute folder of the tool (tool.json and, for container tools, its build files). */
  toolDir: string;
  args: Record<string, unknown>;
  config: Config;
  secrets: SecretsReader;
  signal: AbortSignal;
  /** Progress lines (e.g. docker build output) for the UI; optional. */
  onProgress?: (line: string) => void;
  /** Output as it arrives and pipeline steps as they go, for a caller that streams; optional. */
  emit?: (event: InvokeStreamEvent) => void;
  /** The caller confirmed a privileged run (a pipeline runs its steps confirmed). */
  confirmed?: boolean;
  /**
   * Keeps what the run has produced so far (a pipeline's steps): a run that fails or is cancelled
   * still answers, and is recorded, with it. The latest call wins.
   */
  keepPartial?: (partial: PartialOutput) => void;
  /** The pipelines this run is a step of, outermost first (InvokeInput.chain). */
  chain?: readonly ChainLink[];
}

/** A pipeline a call runs inside of: how a pipeline that reaches itself is caught at run time. */
export interface ChainLink {
  toolID: string;
  slug: string;
}

/** What a run that did not finish has to show (RunContext.keepPartial). */
export type PartialOutput = Pick<RunOutput, 'steps'>;

export interface RunOutput {
  /** The tool's value, validated afterwards against outputSchema by the engine. */
  value: unknown;
  card?: { title?: string; html?: string; text?: string };
  http?: HttpExchange;
  /** A pipeline's steps, in the order they ran. */
  steps?: PipelineStepRecord[];
  /** Content besides the value (an upstream MCP server's images, resources, links). */
  content?: ResultContent[];
}

export interface Runner {
  readonly type: ToolFile['type'];
  run(ctx: RunContext): Promise<RunOutput>;
  /** Whether this tool can run here; must not throw and must be cheap (cache slow probes). */
  availability(tool: ToolFile, toolDir: string, secrets: SecretsReader): Availability;
  /**
   * Why agents must not be offered this tool now although it is switched on and may be able to
   * run (an upstream definition that changed and nobody accepted), or undefined. Cheap; never throws.
   */
  withheld?(tool: ToolFile): string | undefined;
  /**
   * The safety a run of this tool has now, when it can exceed what the file says (a pipeline: its
   * most dangerous step's, as the steps' tools are now), and why. Must not throw; cheap.
   */
  safety?(tool: ToolFile): { safety: Safety; because?: string };
  /**
   * The timeout of a run whose tool sets no limits.timeoutSeconds, for a type with no bound of its
   * own (a function runs in-process), and where it comes from, for the TIMEOUT message. Absent: the
   * type bounds itself (impl).
   */
  defaultTimeout?(config: Config): { seconds: number; source: string };
  /** Work to do once the core is up (probe an engine, sweep leftovers). Awaited at start; a failure is logged, never fatal. */
  start?(): Promise<void>;
  /** What the runner depends on and whether it is there now, for system.info (e.g. `docker`). Never probes. */
  health?(): { name: string; status: Availability };
  /** Releases connections, timers and running work. */
  close?(): Promise<void>;
}
