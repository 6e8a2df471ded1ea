// Long on purpose: the operations contract is one table, one entry per operation; transports and the preload read it whole.
/**
 * The operations contract: every operation's name, input schema, output type and the error
 * codes it may answer. Main validates each input against `input` (ajv) before a handler runs;
 * the preload exposes one named function per entry; the REST host maps its routes onto them;
 * the renderer's client is typed from this table, so payloads are typed end to end.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { ErrorCode } from './errors.js';
import type { ListedOpName } from './op-names.js';
import { Config, Safety, Uuid, Card, Limits, JsonSchemaValue, SecretName } from './schemas.js';
import { ToolTypeInputSchema } from './tool-types/catalog.js';
import { MAX_SCHEDULES, ScheduleInput } from './schedule-schema.js';
import { BundleSource, type DefinitionReview, type ServerAuthorization, type ServerProbe, type UpstreamStatus, type UpstreamSyncReport } from './upstream.js';
import { DEFINITION_HASH_PATTERN } from './tool-types/mcp.js';
import { ProfileInput, type CreatedProfileToken, type ProfileDetail, type ProfileSummary, type ProfileTokenInfo } from './profiles.js';
import { AUDIT_KINDS, type AuditRecord, type AuditVerifyResult } from './audit.js';
import type {
  BundleView,
  ToolView,
  Page,
  Problem,
  SecretInfo,
  InvokeResult,
  HistoryEntry,
  SearchHit,
  FunctionInfo,
  SystemInfo,
  ImportReport,
  OpenAiFunction,
  ContainerImportResult,
  Approval,
  ApprovalDecision,
  AgentConnection,
  ScheduleOutput,
  ScheduleView,
  BuildFileList,
  BuildFileContent,
  BuildResult,
  ToolImage,
  ToolLintFinding,
} from './types.js';

interface OpDef<I extends TSchema, O> {
  input: I;
  errors: readonly ErrorCode[];
  /** Phantom: carries the output type only. */
  output?: O;
  /** Human summary, shown in docs and errors. */
  summary: string;
}

function op<O>() {
  return <I extends TSchema>(def: Omit<OpDef<I, O>, 'output'>): OpDef<I, O> => def;
}

const Ids = Type.Array(Uuid, { maxItems: 1000 });
const PageSize = Type.Integer({ minimum: 1, maximum: 1000 });
const PageToken = Type.String({ maxLength: 2048 });
/** A path inside a tool folder; the core checks it (relative, no '..', no links followed, not tool.json). */
const BuildFilePath = Type.String({ minLength: 1, maxLength: 1024 });
const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$' });
const ToolRef = { bundleID: Uuid, slug: Type.String({ minLength: 1, maxLength: 1024 }), version: Type.String({ minLength: 1, maxLength: 1024 }) };

/** Fields a client may send when creating or editing a tool. Read-only fields are accepted and ignored, so a GET result can be sent back. */
export const ToolInput = Type.Object(
  {
    displayName: Type.Optional(Type.String({ maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 10000 })),
    type: ToolTypeInputSchema,
    isEnabled: Type.Optional(Type.Boolean()),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 64 })),
    safety: Type.Optional(Safety),
    argSchema: Type.Optional(JsonSchemaValue),
    outputSchema: Type.Optional(JsonSchemaValue),
    impl: Type.Object({}, { additionalProperties: true }),
    card: Type.Optional(Card),
    limits: Type.Optional(Limits),
    schedules: Type.Optional(Type.Array(ScheduleInput, { maxItems: MAX_SCHEDULES })),
    /** Absent: the stored tool's extensions are kept. */
    extensions: Type.Optional(Type.Object({}, { additionalProperties: true })),
    // read-only, checked for consistency or ignored
    slug: Type.Optional(Type.String()),
    version: Type.Optional(Type.String()),
    bundleID: Type.Optional(Type.String()),
    toolID: Type.Optional(Type.String()),
    schemaVersion: Type.Optional(Type.String()),
    isBuiltIn: Type.Optional(Type.Boolean()),
    createdAt: Type.Optional(Type.String()),
    modifiedAt: Type.Optional(Type.String()),
    etag: Type.Optional(Type.String()),
    availability: Type.Optional(Type.Unknown()),
    metrics: Type.Optional(Type.Unknown()),
    effectiveSafety: Type.Optional(Type.Unknown()),
    contextTokens: Type.Optional(Type.Unknown()),
  },
  // "x-" keys are people's annotations (tool.json allows them): written as sent, so a GET sent back changes nothing.
  { additionalProperties: false, patternProperties: { '^x-': {} } },
);
export type ToolInput = Static<typeof ToolInput>;

export const BundleInput = Type.Object(
  {
    slug: Type.String({ minLength: 1, maxLength: 1024 }),
    displayName: Type.Optional(Type.String({ maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 10000 })),
    isEnabled: Type.Optional(Type.Boolean()),
    /** An upstream MCP server (shared/upstream.ts); left out, a replace keeps the bundle's; null removes it. */
    source: Type.Optional(Type.Union([BundleSource, Type.Null()])),
    // read-only, ignored
    bundleID: Type.Optional(Type.String()),
    schemaVersion: Type.Optional(Type.String()),
    isBuiltIn: Type.Optional(Type.Boolean()),
    createdAt: Type.Optional(Type.String()),
    modifiedAt: Type.Optional(Type.String()),
    softDeletedAt: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    etag: Type.Optional(Type.String()),
    toolCount: Type.Optional(Type.Unknown()),
    agentToolCount: Type.Optional(Type.Unknown()),
    contextTokens: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
export type BundleInput = Static<typeof BundleInput>;

/** What a run can be refused with before it starts (tools.invoke, schedules.run). */
const INVOKE_ERRORS: readonly ErrorCode[] = [
  'INVALID_INPUT',
  'INVALID_ARGS',
  'NOT_FOUND',
  'TOOLS_DISABLED',
  'CONFIRMATION_REQUIRED',
  'RATE_LIMITED',
  'TOOL_UNAVAILABLE',
  'BUNDLE_DISABLED',
  'BUNDLE_DELETED',
  'TOOL_DISABLED',
  'CONFLICT',
];

const EnabledPatch = Type.Object({ isEnabled: Type.Boolean() }, { additionalProperties: false });
/** If-Match of a write: the file's ETag (as answered, unquoted), `*`, or its modifiedAt (the older form). */
const IfMatch = Type.Optional(Type.String({ maxLength: 64 }));

export const operations = {
  'bundles.list': op<Page<BundleView>>()({
    summary: 'List bundles (soft-deleted ones only with deleted=include|only)',
    input: Type.Object(
      {
        bundleIDs: Type.Optional(Ids),
        includeDisabled: Type.Optional(Type.Boolean()),
        deleted: Type.Optional(Type.Union([Type.Literal('exclude'), Type.Literal('include'), Type.Literal('only')])),
        pageSize: Type.Optional(PageSize),
        pageToken: Type.Optional(PageToken),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT'],
  }),
  'bundles.get': op<BundleView>()({
    summary: 'One bundle, also when soft-deleted',
    input: Type.Object({ bundleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'bundles.put': op<{ bundle: BundleView; created: boolean }>()({
    summary: 'Create or replace a bundle',
    input: Type.Object({ bundleID: Uuid, bundle: BundleInput, ifMatch: IfMatch }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'BUILTIN_READONLY', 'BUNDLE_DELETED', 'MODIFIED_ELSEWHERE'],
  }),
  'bundles.patch': op<BundleView>()({
    summary: 'Switch a bundle on or off',
    input: Type.Object({ bundleID: Uuid, patch: EnabledPatch, ifMatch: IfMatch }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'BUNDLE_DELETED', 'MODIFIED_ELSEWHERE'],
  }),
  'bundles.delete': op<BundleView>()({
    summary: 'Soft-delete a bundle (restorable; reaped after 2 days once it holds no tools)',
    input: Type.Object({ bundleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'BUILTIN_READONLY'],
  }),
  'bundles.restore': op<BundleView>()({
    summary: 'Undo a soft delete',
    input: Type.Object({ bundleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'bundles.purge': op<{ purged: true; toolCount: number }>()({
    summary: 'Delete a bundle in the Trash for good, with its tools',
    input: Type.Object({ bundleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'CONFLICT', 'BUILTIN_READONLY'],
  }),
  'tools.list': op<Page<ToolView>>()({
    summary: 'List tools, filtered by tags (any of) and bundles',
    input: Type.Object(
      {
        tags: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 })),
        bundleIDs: Type.Optional(Ids),
        includeDisabled: Type.Optional(Type.Boolean()),
        recommendedPageSize: Type.Optional(PageSize),
        /** The same as recommendedPageSize, for clients that use one name for every list. */
        pageSize: Type.Optional(PageSize),
        pageToken: Type.Optional(PageToken),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT'],
  }),
  'tools.get': op<ToolView>()({
    summary: 'One tool by bundle, slug and version',
    input: Type.Object(ToolRef, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'tools.put': op<ToolView>()({
    summary: 'Create a tool; CONFLICT if <slug,version> exists in the bundle',
    input: Type.Object({ ...ToolRef, tool: ToolInput }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'CONFLICT', 'BUNDLE_DISABLED', 'BUNDLE_DELETED', 'BUILTIN_READONLY'],
  }),
  'tools.update': op<ToolView>()({
    summary: 'Replace an existing tool (edit); may rename slug/version; guarded by ifMatch (the ETag) or ifModifiedAt (the older form)',
    input: Type.Object(
      { ...ToolRef, tool: ToolInput, ifMatch: IfMatch, ifModifiedAt: Type.Optional(Type.String({ maxLength: 64 })) },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'CONFLICT', 'MODIFIED_ELSEWHERE', 'BUNDLE_DISABLED', 'BUNDLE_DELETED', 'BUILTIN_READONLY'],
  }),
  'tools.patch': op<ToolView>()({
    summary: 'Switch a tool on or off',
    input: Type.Object({ ...ToolRef, patch: EnabledPatch, ifMatch: IfMatch }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'BUNDLE_DISABLED', 'BUNDLE_DELETED', 'MODIFIED_ELSEWHERE'],
  }),
  'tools.delete': op<{ deleted: true }>()({
    summary: 'Delete a tool for good',
    input: Type.Object(ToolRef, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'BUILTIN_READONLY'],
  }),
  'tools.search': op<Page<SearchHit>>()({
    summary: 'Fuzzy search: prefix > whole word > fuzzy > recency',
    input: Type.Object(
      {
        q: Type.String({ maxLength: 512 }),
        includeDisabled: Type.Optional(Type.Boolean()),
        pageSize: Type.Optional(PageSize),
        pageToken: Type.Optional(PageToken),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT'],
  }),
  'tools.invoke': op<InvokeResult>()({
    summary: 'Run a tool with arguments',
    input: Type.Object(
      {
        ...ToolRef,
        args: Type.Optional(Type.Unknown()),
        confirm: Type.Optional(Type.Boolean()),
        invocationID: Type.Optional(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })),
      },
      { additionalProperties: false },
    ),
    errors: INVOKE_ERRORS,
  }),
  'tools.cancel': op<{ cancelled: boolean }>()({
    summary: 'Cancel a running invocation',
    input: Type.Object({ invocationID: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT'],
  }),
  'tools.history': op<{ items: HistoryEntry[] }>()({
    summary: 'Recent invocations of a tool, newest first',
    input: Type.Object({ ...ToolRef, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'config.get': op<Config>()({
    summary: 'config.json',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
  'config.patch': op<Config>()({
    summary: 'Merge fields into config.json',
    input: Type.Object({ patch: Type.Partial(Config, { additionalProperties: false }) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT'],
  }),
  'secrets.list': op<{ items: SecretInfo[] }>()({
    summary: 'Secret names with masked values, never a value',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
  'secrets.set': op<SecretInfo>()({
    summary: 'Set or replace a secret',
    input: Type.Object({ name: SecretName, value: Type.String({ minLength: 1, maxLength: 65536 }) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT'],
  }),
  'secrets.delete': op<{ deleted: boolean }>()({
    summary: 'Delete a secret',
    input: Type.Object({ name: SecretName }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'agents.list': op<{ items: AgentConnection[] }>()({
    summary: 'Agents connected over MCP right now (any process), oldest first',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
  'approvals.list': op<{ items: Approval[] }>()({
    summary: 'Privileged calls from agents waiting for a yes, newest first',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
  'approvals.decide': op<Approval & { decision: ApprovalDecision; decidedAt: string }>()({
    summary: 'Approve or deny a waiting call, or answer (approve with content) or decline (deny) an upstream server’s question',
    input: Type.Object(
      {
        approvalID: Type.String({ maxLength: 64 }),
        decision: Type.Union([Type.Literal('approve'), Type.Literal('deny')]),
        /** An answer approval's form, checked against the server's requestedSchema. */
        content: Type.Optional(Type.Record(Type.String({ maxLength: 200 }), Type.Unknown(), { maxProperties: 100 })),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'CONFLICT'],
  }),
  'audit.list': op<Page<AuditRecord>>()({
    summary: 'Records of the audit log (calls, approvals, changes, gaps), newest first, filtered by time, kind, tool and caller',
    input: Type.Object(
      {
        since: Type.Optional(Type.String({ format: 'date-time' })),
        until: Type.Optional(Type.String({ format: 'date-time' })),
        kind: Type.Optional(Type.Array(Type.Union(AUDIT_KINDS.map((k) => Type.Literal(k))), { maxItems: AUDIT_KINDS.length })),
        /** A tool's ID or slug. */
        tool: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
        /** Part of the caller, case-insensitive. */
        caller: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
        pageSize: Type.Optional(PageSize),
        pageToken: Type.Optional(PageToken),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT'],
  }),
  'audit.verify': op<AuditVerifyResult>()({
    summary: 'Walks the whole audit log and checks every hash and link; reports the first problem by file and line',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
  'problems.list': op<{ items: Problem[] }>()({
    summary: 'Files on disk that could not be read, with path and reason',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
  'functions.list': op<{ items: FunctionInfo[] }>()({
    summary: 'In-process functions that function tools can name',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
  'system.info': op<SystemInfo>()({
    summary: 'Where the data lives and what this host can run',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
  'bundles.export': op<{ zip: Uint8Array; fileName: string }>()({
    summary: 'Bundles as a deterministic ZIP',
    input: Type.Object({ bundleIDs: Type.Array(Uuid, { minItems: 1, maxItems: 1000 }) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'bundles.import': op<ImportReport>()({
    summary: 'Import a ZIP of bundles; all or nothing',
    input: Type.Object(
      {
        zip: Type.Unsafe<Uint8Array>({ instanceofUint8Array: true }),
        onConflict: Type.Optional(Type.Union([Type.Literal('skip'), Type.Literal('replace'), Type.Literal('copy')])),
        /** Report what would happen (conflicts included) without writing anything. */
        dryRun: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'CONFLICT', 'BUILTIN_READONLY', 'PAYLOAD_TOO_LARGE'],
  }),
  'bundles.importSkill': op<ImportReport>()({
    summary: 'A new bundle from a SKILL.md whose YAML front matter lists tools with http or script backends',
    input: Type.Object(
      { text: Type.String({ minLength: 1, maxLength: 16 * 1024 * 1024 }), dryRun: Type.Optional(Type.Boolean()) },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'PAYLOAD_TOO_LARGE'],
  }),
  'bundles.importOpenApi': op<ImportReport>()({
    summary: 'A new bundle of http tools, one per operation of an OpenAPI 3 document (JSON or YAML); hosts to allow come back in the report',
    input: Type.Object(
      {
        document: Type.String({ minLength: 1, maxLength: 16 * 1024 * 1024 }),
        /** Base URL to use instead of the document's servers[0] (needed when that one is relative). */
        serverUrl: Type.Optional(Type.String({ pattern: '^https?://', maxLength: 2048 })),
        dryRun: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'PAYLOAD_TOO_LARGE'],
  }),
  'bundles.importMcpServers': op<ImportReport>()({
    summary:
      'One bundle per MCP server of a claude_desktop_config.json, Cursor/Windsurf or VS Code mcp.json, registry server.json or .mcpb (base64); secrets go to the secrets store; each server that can start is synced',
    input: Type.Object(
      {
        content: Type.String({ minLength: 1, maxLength: 96 * 1024 * 1024 }),
        encoding: Type.Optional(Type.Union([Type.Literal('utf8'), Type.Literal('base64')])),
        dryRun: Type.Optional(Type.Boolean()),
        /** Sync each created server after the import (default true). */
        sync: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'PAYLOAD_TOO_LARGE'],
  }),
  'tools.importContainer': op<ContainerImportResult>()({
    summary: 'A container tool in an existing bundle from a manifest.json + Dockerfile + runner folder (its files, relative paths)',
    input: Type.Object(
      {
        bundleID: Uuid,
        files: Type.Array(
          Type.Object(
            {
              path: Type.String({ minLength: 1, maxLength: 1024 }),
              content: Type.String({ maxLength: 96 * 1024 * 1024 }),
              encoding: Type.Optional(Type.Union([Type.Literal('utf8'), Type.Literal('base64')])),
              executable: Type.Optional(Type.Boolean()),
            },
            { additionalProperties: false },
          ),
          { minItems: 1, maxItems: 5000 },
        ),
        /** Check and report what would be created, writing nothing (the other imports' dryRun). */
        dryRun: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'CONFLICT', 'BUNDLE_DISABLED', 'BUNDLE_DELETED', 'BUILTIN_READONLY', 'PAYLOAD_TOO_LARGE'],
  }),
  'buildFiles.list': op<BuildFileList>()({
    summary: "The files beside a container tool's tool.json (its Dockerfile, runner, …)",
    input: Type.Object(ToolRef, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'buildFiles.read': op<BuildFileContent>()({
    summary: "One file of a container tool's folder",
    input: Type.Object({ ...ToolRef, path: BuildFilePath }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE'],
  }),
  'buildFiles.write': op<BuildFileContent>()({
    summary: "Create or replace one file of a container tool's folder, atomically (folders on the way are created)",
    input: Type.Object(
      {
        ...ToolRef,
        path: BuildFilePath,
        content: Type.String({ maxLength: 24 * 1024 * 1024 }),
        encoding: Type.Optional(Type.Union([Type.Literal('utf8'), Type.Literal('base64')])),
        /** Default: executable when the file was, or when the content starts with `#!`. */
        executable: Type.Optional(Type.Boolean()),
        /** Refuse (MODIFIED_ELSEWHERE) unless the file still has these bytes. */
        ifSha256: Type.Optional(Sha256),
        /** Refuse (CONFLICT) if the file exists: an "add file" must not overwrite one. */
        mustNotExist: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'CONFLICT', 'MODIFIED_ELSEWHERE', 'PAYLOAD_TOO_LARGE', 'BUNDLE_DISABLED', 'BUNDLE_DELETED', 'BUILTIN_READONLY'],
  }),
  'buildFiles.rename': op<{ from: string; to: string }>()({
    summary: "Rename or move one file inside a container tool's folder",
    input: Type.Object({ ...ToolRef, from: BuildFilePath, to: BuildFilePath }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'CONFLICT', 'BUNDLE_DISABLED', 'BUNDLE_DELETED', 'BUILTIN_READONLY'],
  }),
  'buildFiles.delete': op<{ deleted: true }>()({
    summary: "Delete one file of a container tool's folder (folders left empty go with it)",
    input: Type.Object({ ...ToolRef, path: BuildFilePath }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'BUNDLE_DISABLED', 'BUNDLE_DELETED', 'BUILTIN_READONLY'],
  }),
  'tools.build': op<BuildResult>()({
    summary: "Build a container tool's image from its folder; the log streams as build.log events, tagged with buildID",
    input: Type.Object(
      {
        ...ToolRef,
        buildID: Type.Optional(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })),
        /** Build again without Docker's layer cache, even when an image of these files exists. */
        noCache: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'TOOL_UNAVAILABLE', 'BUILTIN_READONLY'],
  }),
  'tools.image': op<ToolImage>()({
    summary: 'The image a container tool runs, whether it is built, and its size',
    input: Type.Object(ToolRef, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'TOOL_UNAVAILABLE'],
  }),
  'tools.openaiFunctions': op<{ items: OpenAiFunction[] }>()({
    summary: 'Enabled tools as OpenAI function-calling definitions, ready to paste into an agent',
    input: Type.Object({ bundleIDs: Type.Optional(Ids) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'tools.lint': op<{ items: ToolLintFinding[]; checked: number }>()({
    summary:
      'What about tools an agent may misread or confuse: near-duplicate names or descriptions, vague or overlong descriptions, arguments without a description or type',
    input: Type.Object(
      {
        /** Check the tools agents are offered in these bundles (default: every tool agents are offered). */
        bundleIDs: Type.Optional(Ids),
        /** Check these tools, whatever their state (a switched-off draft too). */
        toolIDs: Type.Optional(Ids),
      },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'schedules.list': op<{ items: ScheduleView[] }>()({
    summary: "Every tool's schedules with their next run and last run (of one tool with toolID)",
    input: Type.Object({ toolID: Type.Optional(Uuid) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT'],
  }),
  'schedules.patch': op<ScheduleView>()({
    summary: 'Switch a schedule on or off (an edit of its tool.json, with the save rules)',
    input: Type.Object({ scheduleID: Uuid, patch: EnabledPatch }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'MODIFIED_ELSEWHERE', 'BUNDLE_DISABLED', 'BUNDLE_DELETED', 'BUILTIN_READONLY'],
  }),
  'schedules.run': op<InvokeResult>()({
    summary: "Run a schedule now, with its arguments, through every gate; recorded as the schedule's run",
    input: Type.Object({ scheduleID: Uuid, confirm: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    errors: INVOKE_ERRORS,
  }),
  'schedules.latest': op<ScheduleOutput>()({
    summary: 'The latest output of a schedule (404 until it has run)',
    input: Type.Object({ scheduleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'servers.probe': op<ServerProbe>()({
    summary: 'Start an MCP server from a source without saving anything, and list what it offers (the add-server dialog)',
    input: Type.Object({ source: BundleSource }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'TOOL_UNAVAILABLE', 'UPSTREAM_ERROR', 'TIMEOUT'],
  }),
  'servers.status': op<UpstreamStatus & { syncedAt?: string; toolCount: number }>()({
    summary: "The state of a bundle's upstream MCP server: stopped, starting, ready or failed, what it said of itself, the end of its stderr",
    input: Type.Object({ bundleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'servers.sync': op<UpstreamSyncReport>()({
    summary:
      "Bring a bundle's tools in line with its upstream server: new tools arrive switched off, changed definitions are withheld until accepted, tools gone upstream become unavailable (dryRun: report only)",
    input: Type.Object({ bundleID: Uuid, dryRun: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'TOOL_UNAVAILABLE', 'UPSTREAM_ERROR', 'BUNDLE_DISABLED', 'BUNDLE_DELETED'],
  }),
  'servers.stop': op<UpstreamStatus>()({
    summary: "Stop a bundle's upstream server in this process (it starts again on the next call)",
    input: Type.Object({ bundleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'servers.authorize': op<ServerAuthorization>()({
    summary:
      "Start signing in (OAuth) to a bundle's HTTP server: the authorization link to open in a browser; the redirect to a loopback listener of this process finishes it and the tokens go to the secrets store",
    input: Type.Object({ bundleID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'TOOL_UNAVAILABLE', 'UPSTREAM_ERROR'],
  }),
  'tools.definition': op<DefinitionReview>()({
    summary: "An upstream tool's accepted definition beside the server's current one, for review",
    input: Type.Object(ToolRef, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'tools.acceptDefinition': op<ToolView>()({
    summary: "Accept the upstream's current definition of a tool (pinned by its hash; definitionHash: the one reviewed)",
    input: Type.Object({ ...ToolRef, definitionHash: Type.Optional(Type.String({ pattern: DEFINITION_HASH_PATTERN })) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'MODIFIED_ELSEWHERE'],
  }),
  'profiles.list': op<{ items: ProfileSummary[] }>()({
    summary: 'Profiles (MCP addresses of their own), each with its tool count and the references that no longer exist',
    input: Type.Object({}, { additionalProperties: false }),
    errors: [],
  }),
  'profiles.get': op<ProfileDetail>()({
    summary: 'One profile with its tools as the agent sees them (names and descriptions after overrides)',
    input: Type.Object({ profileID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'profiles.put': op<{ profile: ProfileSummary; created: boolean }>()({
    summary: 'Create or replace a profile (ifModifiedAt: replace only the version read)',
    input: Type.Object(
      { profileID: Uuid, profile: ProfileInput, ifModifiedAt: Type.Optional(Type.String({ maxLength: 64 })), ifMatch: IfMatch },
      { additionalProperties: false },
    ),
    errors: ['INVALID_INPUT', 'CONFLICT', 'MODIFIED_ELSEWHERE', 'NOT_FOUND'],
  }),
  'profiles.delete': op<{ deleted: true }>()({
    summary: 'Delete a profile and its tokens',
    input: Type.Object({ profileID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'profiles.tokens.list': op<{ items: ProfileTokenInfo[] }>()({
    summary: "A profile's tokens: label, creation, last use and calls (never the token)",
    input: Type.Object({ profileID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'profiles.tokens.create': op<CreatedProfileToken>()({
    summary: 'A new token that opens only this profile (shown once, stored hashed)',
    input: Type.Object({ profileID: Uuid, label: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'profiles.tokens.revoke': op<{ revoked: true }>()({
    summary: 'Revoke a token of a profile; it is refused at once',
    input: Type.Object({ profileID: Uuid, tokenID: Uuid }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
} as const;

export type Operations = typeof operations;
export type OpName = keyof Operations;
export type OpInput<N extends OpName> = Static<Operations[N]['input']>;
export type OpOutput<N extends OpName> = NonNullable<Operations[N]['output']>;
export { OP_NAMES, opFunctionName } from './op-names.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compile-time: op-names.ts lists exactly the operations of this table. */
export const OP_NAMES_MATCH: Same<OpName, ListedOpName> = true;

/** Events pushed from main to the renderer when the store changes (also changes made outside the app). */
export type StoreEvent =
  | { type: 'bundle.changed'; bundleID: string }
  | { type: 'bundle.removed'; bundleID: string }
  | { type: 'tool.changed'; bundleID: string; toolID: string }
  | { type: 'tool.removed'; bundleID: string; toolID: string }
  | { type: 'config.changed' }
  | { type: 'secrets.changed' }
  | { type: 'metrics.changed'; toolID: string }
  | { type: 'problems.changed' }
  | { type: 'approvals.changed' }
  | { type: 'agents.changed' }
  /** A schedule's last run or latest output changed (in any process). */
  | { type: 'schedule.changed'; scheduleID: string }
  /** A file beside a container tool's tool.json was written, renamed or deleted. */
  | { type: 'tool.files.changed'; bundleID: string; toolID: string }
  /** Lines of a running image build (batched, at most every 100 ms), in order. */
  | { type: 'build.log'; bundleID: string; toolID: string; buildID: string; lines: string[] }
  | { type: 'build.finished'; bundleID: string; toolID: string; buildID: string; ok: boolean }
  /** An upstream MCP server of this process started, stopped, failed or wrote to stderr. */
  | { type: 'upstream.changed'; bundleID: string }
  /** A profile's file or tokens changed (in any process). */
  | { type: 'profile.changed'; profileID: string }
  | { type: 'profile.removed'; profileID: string }
  /** The background count of the tools' context cost is done: tool and bundle views carry their counts now. */
  | { type: 'context.counted' };
