/**
 * What the agent surface answers (shared/operations/agent-surface.ts): the tools an address offers
 * and what a call of one came to, as the JSON MCP carries. Tools and results are MCP's own shapes
 * (the SDK's Tool and CallToolResult), kept open here so this layer needs no SDK.
 */

/** Where a tools/call result carries its card (`{title?, html?, text?}`, html already sanitised) for the tool's MCP App. */
export const CARD_RESULT_META_KEY = 'dev.toolwright/card';

/** A tool's card app (MCP Apps): a ui:// resource the host renders, fed each result of the tool. */
export const cardAppUri = (toolID: string) => `ui://toolwright/${toolID}/card`;

/**
 * search_tools leaves out tools whose relevance (0–1: how much of what the task says the tool
 * answers) is under this floor, so an agent is told that no tool fits rather than handed weak
 * guesses. The seed's default, 0.35 on its similarity scale, mapped to ours (docs/tool-search.md).
 * Kept here rather than beside the config schema so the renderer's Settings reads it without TypeBox.
 */
export const DEFAULT_RELEVANCE_FLOOR = 0.15;

/** An MCP Tool: name, title, description, inputSchema, annotations, `_meta`, maybe icons and outputSchema. */
export type AgentToolJson = { name: string } & Record<string, unknown>;

/** An MCP CallToolResult: content, maybe structuredContent, isError, `_meta`. */
export type AgentResultJson = { content: unknown[]; isError?: boolean } & Record<string, unknown>;

export interface AgentSurfaceView {
  /** The audience's key: tasks and sessions are bound to it. */
  audience: string;
  profileID?: string;
  /** Moves when `tools` changes. */
  revision: number;
  /** Moves when the resources (agents.resources) change. */
  resourcesRevision: number;
  mode: 'all' | 'search';
  instructions?: string;
  /** The kill switch's state: with it on, `tools` is empty, and a call says why. */
  toolsEnabled: boolean;
  /** What tools/list holds: the same array (the same object, in-process) until `revision` moves. */
  tools: AgentToolJson[];
}

/** The form a client shows its user before a privileged tool runs. */
export interface AgentApprovalForm {
  message: string;
  requestedSchema: { type: 'object'; properties: Record<string, { type: 'boolean'; title: string; description: string }>; required: string[] };
}

/** A task as tasks/get answers it (the tasks extension's DetailedTask). */
export type AgentTaskView = { taskId: string; status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled' } & Record<string, unknown>;

export type AgentCallAnswer =
  /** The call's result (a tool's failure and a refusal before the run included, as isError results); `ran` when the tool ran. */
  | { kind: 'result'; result: AgentResultJson; ran?: { tool: string; ok: boolean; code?: string; durationMs: number } }
  /** A privileged tool, and a client that can ask its user: the approval to ask for, and the call it is bound to. */
  | { kind: 'ask'; approvalID: string; callDigest: string; form: AgentApprovalForm }
  | { kind: 'task'; task: AgentTaskView }
  /** No tool of that name here (the message says what to do). */
  | { kind: 'unknown'; message: string }
  /** `plainOnly` was asked, and this call needs more than a plain run. */
  | { kind: 'not-plain' };

export interface AgentScheduleEntry {
  scheduleID: string;
  /** Its cadence: one of a cron pattern, a one-off time (RFC 3339), or an interval in seconds. */
  cron?: string;
  at?: string;
  everySeconds?: number;
  /** The cadence in words. */
  cadenceText: string;
  /** Its zone, the machine's when the schedule names none. */
  timezone: string;
  isEnabled: boolean;
  tool: { name: string; displayName: string; bundle: string; slug: string; version: string; /** `Title (bundle/slug@version)` */ label: string };
}

export interface AgentCardApp {
  toolID: string;
  /** The tool's name as the audience calls it. */
  name: string;
  title: string;
  accentColor?: string;
  backgroundColor?: string;
}

export interface AgentResources {
  /** Moves when the entries change. */
  revision: number;
  schedules: AgentScheduleEntry[];
  cards: AgentCardApp[];
}

/** The latest output of a schedule an audience sees. */
export interface AgentScheduleLatest {
  /** The resource's JSON: the schedule, its tool, its latest output (null before the first run). */
  body: Record<string, unknown>;
  /** The latest output's run (null before the first), for what subscribers and prompts tell. */
  output: {
    invocationID: string;
    startedAt: string;
    status: 'ok' | 'error' | 'cancelled';
    durationMs: number;
    value?: unknown;
    error?: { code: string; message: string };
  } | null;
  /** When it fires next from now (null when switched off). */
  nextFireAt: string | null;
}
