import type { BundleFile, ToolFile, Config } from './schemas.js';
import type { ApiError } from './errors.js';
import type { GuardClass, GuardFinding, GuardSeverity, GuardSpan } from './guard/types.js';
import type { OutputGuardNote } from './guard/output.js';

export interface Page<T> {
  items: T[];
  /** Absent on the last page. */
  nextPageToken?: string;
}

export interface Availability {
  ok: boolean;
  reason?: string;
}

export interface ToolMetrics {
  callCount: number;
  errorCount: number;
  lastCalledAt: string | null;
}

/**
 * `etag`: hash of the file's bytes on disk (the REST ETag header, unquoted), which If-Match takes.
 * Every view the core answers has it; optional only so that views built by hand (tests) need not invent one.
 */
export type BundleView = BundleFile & {
  etag?: string;
  toolCount: number;
  /** How many of its tools agents are offered now (switched on, bundle on, not withheld). */
  agentToolCount?: number;
  /** Tokens the definitions of those tools add to an agent's context (shared/agents/context-cost.ts names the basis); absent until counted. */
  contextTokens?: number;
};

export type ToolView = ToolFile & {
  etag?: string;
  availability: Availability;
  metrics: ToolMetrics;
  /** Set when a run needs more care than `safety` says: a pipeline whose step became more dangerous since it was saved. */
  effectiveSafety?: ToolFile['safety'];
  /** Tokens its MCP definition adds to an agent's context (shared/agents/context-cost.ts names the basis); absent until counted. */
  contextTokens?: number;
};

/**
 * Something about a tool an agent may misread (GET /tools/lint, electron/core/agents/tool-lint.ts),
 * or a finding of the definition guard (shared/guard/): then `rule` is the guard's class, repeated
 * in `class`, with the JSON pointer into the definition agents read and the offending span.
 */
export interface ToolLintFinding {
  toolID: string;
  bundleID: string;
  /** The name agents see it under (its slug made ASCII). */
  name: string;
  rule: ToolLintRule;
  severity: 'error' | 'warning';
  message: string;
  /** What to do about it. */
  fix: string;
  /** Guard findings: the class (the same as rule). */
  class?: GuardClass;
  /** Guard findings: where, as a JSON pointer into the tool's MCP definition (`/description`, `/inputSchema/properties/x/description`, `/instructions`). */
  pointer?: string;
  /** Guard findings: the offending text in that field (UTF-16 offsets; invisible characters written out). */
  span?: GuardSpan;
}

export type ToolLintRule =
  'name-near-duplicate' | 'description-near-duplicate' | 'description-vague' | 'description-too-long' | 'argument-undescribed' | 'schema-untyped' | GuardClass;

export interface Problem {
  /** Absolute path of the file that could not be read. */
  path: string;
  reason: string;
  kind: 'bundle' | 'tool' | 'config' | 'secrets' | 'builtin-state' | 'other';
  detectedAt: string;
}

export interface SecretInfo {
  name: string;
  masked: string;
  updatedAt?: string;
}

/** Text with the places where a named secret stood: a literal piece, or the secret's name. */
export type SecretPart = string | { secret: string };

export interface HttpExchange {
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body?: string;
    /**
     * The pieces of the request that held a secret, with each secret named instead of shown
     * (never its value): what "Copy as cURL with secrets as variables" writes as "$NAME".
     */
    secretParts?: { url?: SecretPart[]; headers?: Record<string, SecretPart[]>; body?: SecretPart[] };
  };
  response?: { status: number; headers: Record<string, string>; body: string; truncated?: boolean };
  attempts: number;
}

/**
 * Content of an upstream MCP server's result other than text, kept as the server sent it for the
 * tester (and passed on to agents): images and audio (base64 with a mimeType), embedded resources
 * (text or a base64 blob; a `ui://` uri is an MCP App) and links to resources.
 */
export type ResultContent =
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: 'resource_link'; uri: string; name?: string; title?: string; description?: string; mimeType?: string };

export interface InvokeResult {
  ok: boolean;
  /** What the tool gave besides its value (an upstream MCP server's images, resources, links, apps). */
  content?: ResultContent[];
  invocationID: string;
  value?: unknown;
  error?: ApiError;
  durationMs: number;
  /** Card to render: html is untrusted and is sanitised by the renderer before display. */
  /** `note`: why the tool's card html was left out (it could not be made safe); the value stands in as text. */
  card?: { title?: string; html?: string; text?: string; note?: string };
  http?: HttpExchange;
  truncated?: { originalBytes: number };
  /** Set when the streamed chunks were cut at maxOutputBytes: the bytes streamed in all, and how many went out (a last chunk says the same). */
  streamTruncated?: { originalBytes: number; sentBytes: number };
  /** A pipeline's steps, in the order they ran. */
  steps?: PipelineStepRecord[];
  /**
   * What the output guard found in the result (docs/guard.md), when it found something: the note
   * agents get in `_meta`, and under `strip` what agents receive instead of `value` and `content`.
   */
  guard?: { note: OutputGuardNote; value?: unknown; content?: ResultContent[] };
}

/** One step of a pipeline run, as the tester shows it live and history keeps it. */
export interface PipelineStepRecord {
  id: string;
  tool: { bundleID: string; slug: string; version: string };
  status: 'running' | 'ok' | 'error' | 'cancelled' | 'skipped';
  args?: unknown;
  value?: unknown;
  error?: ApiError;
  startedAt?: string;
  durationMs?: number;
}

/** What a run reports while it goes: output as it arrives, pipeline steps as they start and end. */
/**
 * How far a run is, as the tool's server said it (an upstream MCP server's
 * `notifications/progress`): `progress` grows, `total` when known, `message` when one was sent.
 */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export type InvokeStreamEvent = { type: 'chunk'; text: string } | { type: 'step'; step: PipelineStepRecord } | ({ type: 'progress' } & ProgressUpdate);

/** What started a run: absent when a person or an agent asked. */
export type InvokeTrigger = 'schedule';

export interface HistoryEntry {
  invocationID: string;
  toolID: string;
  startedAt: string;
  durationMs: number;
  status: 'ok' | 'error' | 'cancelled';
  /** Who asked: "mcp:<client name>", "cli", or absent for the app and REST. */
  caller?: string;
  trigger?: InvokeTrigger;
  /** The schedule that fired the run, with trigger "schedule". */
  scheduleID?: string;
  steps?: PipelineStepRecord[];
  args: unknown;
  result?: unknown;
  error?: ApiError;
}

export interface SearchMatch {
  tier: 'prefix' | 'word' | 'fuzzy';
  /** Field name → the query words that matched in it, for highlighting. */
  matches: Record<string, string[]>;
  /** For display only; never increases along the result order. */
  score: number;
}

/** A search result is the tool itself (so `items[0].slug` works as in tool lists), plus why it matched. */
export type SearchHit = ToolView & { search: SearchMatch };

export interface FunctionInfo {
  name: string;
  description: string;
  argSchema: unknown;
  outputSchema: unknown;
  safety: 'readOnly' | 'sideEffecting' | 'privileged';
}

export interface SystemInfo {
  dataDir: string;
  builtinDir: string;
  appVersion: string;
  transport: 'ipc' | 'rest';
  docker: Availability;
  secretsEncryption: 'safeStorage' | 'aes-256-gcm';
  config: Config;
  /** The stdio command agents start (`toolwright mcp` with this data folder). */
  mcp: McpLaunch;
  /** The app's own MCP-over-HTTP listener, when the host runs one (Settings → Agent access). */
  agentAccess?: AgentAccessStatus;
}

export interface ImportReport {
  created: { bundleID: string; slug: string; fromBundleID?: string }[];
  replaced: { bundleID: string; slug: string }[];
  skipped: { bundleID: string; slug: string; reason: string }[];
  toolCount: number;
  /** Hosts the imported http tools call that config.allowedHosts does not allow yet: the UI offers to add them (the user confirms). */
  hostsToAllow?: string[];
  /** Foreign imports: each operation or tool of the document, imported (as slug@version) or skipped with the reason. */
  items?: { origin: string; status: 'imported' | 'skipped'; slug?: string; version?: string; reason?: string }[];
  /** OpenAPI imports: the document's servers (variables filled with their defaults); import again with serverUrl to pick another. */
  servers?: { url: string; description?: string; variables?: Record<string, { default: string; enum?: string[] }> }[];
  /** Things the user should know that did not stop the import (ignored Finder litter, tools left out of a foreign document, …). */
  warnings?: string[];
  /** True when nothing was written: the report says what an import would do. */
  dryRun?: boolean;
  /** Each imported pipeline: how many of its steps were re-linked to tools here, and the steps whose tool is not here. */
  pipelines?: PipelineLinkReport[];
  /** MCP configuration imports: which kind of file it was. */
  mcpFormat?: 'mcpServers' | 'vscode' | 'registry' | 'mcpb';
  /** MCP configuration imports: each server of the file, made a bundle or skipped with the reason. */
  mcpServers?: McpServerImportItem[];
  /** Imported tools (or, for MCP servers, the tools their first sync brought) the definition guard found something in (docs/guard.md). */
  guard?: ImportGuardItem[];
}

/** An imported tool with the definition guard's findings (ImportReport.guard). */
export interface ImportGuardItem {
  bundleSlug: string;
  slug: string;
  version: string;
  /** Where it came from: the archive path, the document's operation, or the server's tool name. */
  origin: string;
  worst: GuardSeverity;
  findings: GuardFinding[];
}

/** One server of an imported MCP configuration (ImportReport.mcpServers). */
export interface McpServerImportItem {
  /** The server's name in the file. */
  name: string;
  status: 'created' | 'skipped';
  /** Why it was skipped. */
  reason?: string;
  slug?: string;
  /** Absent in a dry run. */
  bundleID?: string;
  transport?: 'stdio' | 'http';
  /** Secrets whose values the file held, now (or, in a dry run, to be) in the secrets store. */
  secretsStored?: string[];
  /** Secrets the file names without a value: set them (Settings → Secrets, `toolwright secrets set`) before the server can start. */
  secretsNeeded?: { name: string; description?: string }[];
  /** The first sync after the import: its new tools (switched off), or why it did not run or failed. */
  sync?: { status: 'synced' | 'failed' | 'not-run'; tools?: string[]; error?: string };
}

/** How an imported pipeline's steps found their tools (ImportReport.pipelines). */
export interface PipelineLinkReport {
  bundleID: string;
  slug: string;
  version: string;
  /** Steps now pointing at another bundle ID than the archive said (a copy, or found by bundle slug). */
  relinked: number;
  missing: { step: string; tool: string; reason: string }[];
}

/** A tool as an OpenAI function-calling definition (tools.openaiFunctions). */
export interface OpenAiFunction {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** What tools.importContainer answers: the tool made from the folder, the secrets it names, and notes for the user. */
export interface ContainerImportResult {
  tool: ToolView;
  secrets: string[];
  warnings: string[];
  /** The files the tool folder holds (or would hold), relative, sorted. */
  files?: string[];
  /** True when nothing was written: the result says what an import would do. */
  dryRun?: boolean;
}

export type ApprovalDecision = 'approve' | 'deny';

/**
 * What an upstream MCP server asked during a call (its `elicitation/create`): the server's message
 * and the flat JSON Schema of the form it wants filled in.
 */
export interface ApprovalQuestion {
  message: string;
  requestedSchema: { type: 'object'; properties: Record<string, Record<string, unknown>>; required?: string[] };
}

/**
 * A privileged call from an agent waiting for a person's yes (GET /tools/approvals), or, with
 * `kind:"answer"`, a question an upstream MCP server asked during a call of one of its tools.
 */
export interface Approval {
  approvalID: string;
  /** Absent: a yes/no to run a privileged tool. `answer`: fill in the server's form (approve) or decline (deny). */
  kind?: 'answer';
  question?: ApprovalQuestion;
  tool: { bundleID: string; toolID: string; bundleSlug: string; slug: string; version: string; displayName: string };
  /** The arguments as the agent sent them, sensitive ones masked. */
  args: unknown;
  /** SHA-256 of the exact arguments: a yes runs this call only. */
  argsDigest?: string;
  /** "mcp:<client name>" or "cli". */
  caller: string;
  createdAt: string;
  expiresAt: string;
}

/** An agent connected over MCP right now (GET /tools/agents). */
export interface AgentConnection {
  connectionID: string;
  /** The client's name from its MCP initialize (clientInfo.name). */
  client: string;
  transport: 'stdio' | 'http';
  pid: number;
  since: string;
  calls: number;
  lastCallAt: string | null;
}

/** How to start the MCP server of this install (system.info): absolute paths, ready for an agent's config. */
export interface McpLaunch {
  command: string;
  args: string[];
}

/** The app's "Agent access" endpoint (system.info): where it listens and with which token, or why it does not. */
export interface AgentAccessStatus {
  enabled: boolean;
  url?: string;
  token?: string;
  error?: string;
}

/** How the latest fire or run of a schedule went: a run's status, or why it did not run. */
export type ScheduleRunStatus = 'running' | 'ok' | 'error' | 'cancelled' | 'refused' | 'skipped';

/** One schedule as GET /tools/schedules lists it (docs/contracts.md, "Schedules, pipelines, streaming"). */
export interface ScheduleView {
  scheduleID: string;
  /** Its name, when it has one. */
  name?: string;
  toolID: string;
  bundleID: string;
  /** The cron pattern; null for a one-off (`at`) or an interval (`everySeconds`), which carry those instead. */
  cron: string | null;
  at?: string;
  everySeconds?: number;
  /** The IANA zone it runs in (the machine's when tool.json names none). */
  timezone: string;
  isEnabled: boolean;
  nextRunAt: string | null;
  lastRun: { invocationID: string; startedAt: string; status: ScheduleRunStatus } | null;
}

/** What the latest run of a schedule gave (GET /tools/schedules/{id}/latest, the MCP resource). */
export interface ScheduleOutput {
  scheduleID: string;
  toolID: string;
  bundleID: string;
  invocationID: string;
  /** The fire time it ran for; null for a run started by hand ("Run now"). */
  fireAt: string | null;
  startedAt: string;
  durationMs: number;
  status: 'ok' | 'error' | 'cancelled';
  value?: unknown;
  error?: ApiError;
  card?: { title?: string; text?: string };
  truncated?: { originalBytes: number };
}

// A container tool's build files and images: their own module, re-exported so imports stay put.
export type { BuildFileEntry, BuildFileList, BuildFileContent, ImageInfo, ToolImage, BuildStep, BuildResult } from './tool-types/container-build.js';
