/**
 * The JSON Schemas of bundle.json, tool.json and config.json, kept once here and used by
 * main (ajv), the REST host, the renderer and the tests. TypeBox gives the schema and the
 * static type from one declaration, so the types cannot drift from what is validated. The
 * impl schema of each tool type lives with the type (shared/tool-types/).
 */
import { Type, type Static } from '@sinclair/typebox';
import { CssColor, JsonSchemaValue, Nullable, Safety, SlugString, Timestamp, Uuid } from './schema-primitives.js';
import { ToolTypeSchema, type Impl } from './tool-types/catalog.js';
import { MAX_SCHEDULES, Schedule } from './schedules/schema.js';
import { BundleSource, UpstreamReview } from './upstream.js';
import { MAX_UPSTREAM_IDLE_MINUTES } from './limits.js';
import { BundleGuardSettings, ConfigGuardSettings, ToolGuardSettings } from './guard/policy.js';
import { ShellSettings, WebSearchSettings } from './core-tools.js';

export { Uuid, Timestamp, SlugString, SecretName, CssColor, JsonSchemaValue, Safety, HeaderName } from './schema-primitives.js';
export { FunctionImpl } from './tool-types/function.js';
export { HttpImpl, HttpAuth, HmacAuth, OAuth2ClientCredentialsAuth } from './tool-types/http.js';
export { ContainerImpl, Sandbox } from './tool-types/container.js';
export { PipelineImpl, PipelineStep, StepToolRef } from './tool-types/pipeline.js';
export { Schedule, ScheduleInput, ScheduleApproval, MAX_SCHEDULES } from './schedules/schema.js';
export { IMPL_SCHEMAS, TOOL_TYPES, ToolTypeSchema, normalizeToolType, type ToolType, type Impl } from './tool-types/catalog.js';

export const SCHEMA_VERSION = '1';

export type Safety = Static<typeof Safety>;

export const Card = Type.Object(
  {
    enabled: Type.Boolean(),
    title: Type.Optional(Type.String({ maxLength: 200 })),
    accentColor: Type.Optional(CssColor),
    backgroundColor: Type.Optional(CssColor),
  },
  { additionalProperties: false },
);
export type Card = Static<typeof Card>;

export const Limits = Type.Object(
  {
    maxCallsPerMinute: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
    maxOutputBytes: Type.Optional(Type.Integer({ minimum: 64, maximum: 16 * 1024 * 1024 })),
    /** The engine ends a run that goes on longer with TIMEOUT, whatever the tool's type. */
    timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
  },
  { additionalProperties: false },
);
export type Limits = Static<typeof Limits>;

const toolFields = {
  schemaVersion: Type.Literal(SCHEMA_VERSION),
  toolID: Uuid,
  bundleID: Uuid,
  slug: SlugString,
  version: SlugString,
  displayName: Type.String({ maxLength: 200 }),
  description: Type.String({ maxLength: 10000 }),
  type: ToolTypeSchema,
  isEnabled: Type.Boolean(),
  isBuiltIn: Type.Boolean(),
  tags: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 64 }),
  safety: Safety,
  argSchema: JsonSchemaValue,
  outputSchema: JsonSchemaValue,
  impl: Type.Object({}, { additionalProperties: true }),
  /** An upstream tool's review state (shared/upstream.ts): written by its sync and accept only; absent on other tools. */
  review: Type.Optional(UpstreamReview),
  card: Card,
  limits: Limits,
  /** The guard's settings for this tool: output mode, and a person's acceptance of its findings (shared/guard/policy.ts). */
  guard: Type.Optional(ToolGuardSettings),
  /** Runs on a cron pattern (docs/contracts.md, "Schedules, pipelines, streaming"); absent when the tool has none. */
  schedules: Type.Optional(Type.Array(Schedule, { maxItems: MAX_SCHEDULES })),
  /**
   * What a tool's source format says that Toolwright has no use for yet (a Chalie manifest's
   * category, icon, …), kept as written by origin (`{"chalie": {…}}`), saved and exported again.
   */
  extensions: Type.Optional(Type.Object({}, { additionalProperties: true })),
  createdAt: Timestamp,
  modifiedAt: Timestamp,
};

/** tool.json as stored. Keys starting with "x-" are kept for people who annotate files by hand. */
export const ToolFile = Type.Object(toolFields, { additionalProperties: false, patternProperties: { '^x-': {} } });
export type ToolFile = Static<typeof ToolFile> & { impl: Impl };

/** The order keys are written in, so a data folder diffs well. Unknown keys follow, sorted. */
export const TOOL_KEY_ORDER = Object.keys(toolFields);

export const BundleFile = Type.Object(
  {
    schemaVersion: Type.Literal(SCHEMA_VERSION),
    bundleID: Uuid,
    slug: SlugString,
    displayName: Type.String({ maxLength: 200 }),
    description: Type.String({ maxLength: 10000 }),
    isEnabled: Type.Boolean(),
    isBuiltIn: Type.Boolean(),
    createdAt: Timestamp,
    modifiedAt: Timestamp,
    softDeletedAt: Type.Optional(Nullable(Timestamp)),
    /** An upstream MCP server whose tools this bundle holds (shared/upstream.ts). */
    source: Type.Optional(BundleSource),
    /** The guard's policy and output mode for the bundle's tools (shared/guard/policy.ts). */
    guard: Type.Optional(BundleGuardSettings),
  },
  { additionalProperties: false, patternProperties: { '^x-': {} } },
);
export type BundleFile = Static<typeof BundleFile>;
export const BUNDLE_KEY_ORDER = [
  'schemaVersion',
  'bundleID',
  'slug',
  'displayName',
  'description',
  'source',
  'guard',
  'isEnabled',
  'isBuiltIn',
  'createdAt',
  'modifiedAt',
  'softDeletedAt',
];

export const ConfigLimits = Type.Object(
  {
    maxCallsPerMinute: Type.Integer({ minimum: 1, maximum: 100000 }),
    maxOutputBytes: Type.Integer({ minimum: 64, maximum: 16 * 1024 * 1024 }),
    /** The timeout of function tools whose limits do not set one (DEFAULT_FUNCTION_TIMEOUT_SECONDS when absent). */
    timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
  },
  { additionalProperties: false },
);

/** Function tools run in-process with no timeout of their own: the engine ends one after this. */
export const DEFAULT_FUNCTION_TIMEOUT_SECONDS = 60;

/** A person's yes to an agent's call is good for this long, unless config.approvalTtlSeconds says otherwise. */
export const DEFAULT_APPROVAL_TTL_SECONDS = 600;

/** The audit log's files rotate past this size, unless config.auditMaxFileBytes says otherwise. */
export const DEFAULT_AUDIT_MAX_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Whether work waits for a writable audit log: `required` (the default) refuses calls, changes and
 * approvals while their records cannot be written; `when-possible` does the work and writes the
 * records once the log can be written again (a desktop user's choice).
 */
export const AuditRecords = Type.Union([Type.Literal('required'), Type.Literal('when-possible')]);
export type AuditRecords = Static<typeof AuditRecords>;

/** An agent's finished task is kept this long, unless config.taskResultTtlSeconds says otherwise. */
export const DEFAULT_TASK_RESULT_TTL_SECONDS = 3600;

export const ConfigToolSearch = Type.Object(
  {
    /** Which tools agents called after a search strengthen them for those words (on when absent). */
    learnFromUse: Type.Optional(Type.Boolean()),
    /** search_tools's relevance floor, 0 (off) to 1; DEFAULT_RELEVANCE_FLOOR when absent. */
    relevanceFloor: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    /**
     * An embeddings endpoint of the OpenAPI shape (POST {baseUrl}/embeddings, as Ollama, LM Studio,
     * llama.cpp's server or a hosted API answer it) whose vectors are fused with the lexical
     * ranking; off when absent. The key, when one is needed, is a secret named here.
     */
    embeddings: Type.Optional(
      Type.Object(
        {
          baseUrl: Type.String({ minLength: 8, maxLength: 2048, pattern: '^https?://' }),
          model: Type.String({ minLength: 1, maxLength: 256 }),
          apiKeySecret: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ConfigToolSearch = Static<typeof ConfigToolSearch>;

export const Config = Type.Object(
  {
    allowedHosts: Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { maxItems: 1000 }),
    allowPrivateNetwork: Type.Boolean(),
    toolsEnabled: Type.Boolean(),
    workspaceRoot: Nullable(Type.String({ maxLength: 4096 })),
    limits: ConfigLimits,
    /** How long a privileged call from an agent waits for a person's answer before it counts as denied. */
    approvalTimeoutSeconds: Type.Integer({ minimum: 5, maximum: 3600 }),
    /** How long an agent's finished task (MCP tasks extension) keeps its result (DEFAULT_TASK_RESULT_TTL_SECONDS when absent). */
    taskResultTtlSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 7 * 24 * 3600 })),
    /** How long an upstream MCP server may sit unused before it is stopped (started again on the next call); 0: never. DEFAULT_UPSTREAM_IDLE_MINUTES when absent. */
    upstreamIdleMinutes: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_UPSTREAM_IDLE_MINUTES })),
    /** MCP over HTTP on a local port of the app (off by default); the headless host always serves /mcp. */
    agentAccess: Type.Object({ enabled: Type.Boolean(), port: Type.Integer({ minimum: 1024, maximum: 65535 }) }, { additionalProperties: false }),
    /** How long a person's yes to an agent's call stays good for that one call (DEFAULT_APPROVAL_TTL_SECONDS when absent). */
    approvalTtlSeconds: Type.Optional(Type.Integer({ minimum: 5, maximum: 24 * 3600 })),
    /** The audit log starts a new file once the current one passes this size (DEFAULT_AUDIT_MAX_FILE_BYTES when absent). */
    auditMaxFileBytes: Type.Optional(Type.Integer({ minimum: 4096, maximum: 1024 * 1024 * 1024 })),
    /** Refuse work while its audit records cannot be written (`required`, the default), or record when possible. TOOLWRIGHT_AUDIT_RECORDS wins over it. */
    auditRecords: Type.Optional(AuditRecords),
    /** The built-in shell-exec: image, allowed commands, workspace mount, sandbox (shared/core-tools.ts SHELL_DEFAULTS when absent). */
    shell: Type.Optional(Nullable(ShellSettings)),
    /** The built-in web-search's backend; web-search is unavailable until it is set. */
    webSearch: Type.Optional(Nullable(WebSearchSettings)),
    /** Agents' tool search (search-mode profiles): learning from use, and a model of the user's own. */
    toolSearch: Type.Optional(ConfigToolSearch),
    /** The shortest interval (everySeconds) a schedule may be saved with (shared/schedules/cadence.ts DEFAULT_MIN_INTERVAL_SECONDS, 60, when absent). */
    scheduleMinIntervalSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86400 })),
    /** The guard's defaults for every bundle: policy (warn | withhold) and output mode (off | flag | strip); shared/guard/policy.ts. */
    guard: Type.Optional(ConfigGuardSettings),
  },
  { additionalProperties: false },
);
export type Config = Static<typeof Config>;

export const DEFAULT_CONFIG: Config = {
  allowedHosts: [],
  allowPrivateNetwork: false,
  toolsEnabled: true,
  workspaceRoot: null,
  limits: { maxCallsPerMinute: 60, maxOutputBytes: 16384 },
  approvalTimeoutSeconds: 120,
  agentAccess: { enabled: false, port: 7421 },
};

export const CONFIG_KEY_ORDER = Object.keys(DEFAULT_CONFIG);
