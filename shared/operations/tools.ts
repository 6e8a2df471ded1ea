/** Tools: list, read, create, edit, switch, delete, search, the OpenAI export and the lint. */
import { Type, type Static } from '@sinclair/typebox';
import { Safety, Card, Limits, JsonSchemaValue } from '../schemas.js';
import { ToolTypeInputSchema } from '../tool-types/catalog.js';
import { MAX_SCHEDULES, ScheduleInput } from '../schedules/schema.js';
import type { ToolView, Page, SearchHit, OpenAiFunction, ToolLintFinding } from '../types.js';
import { ToolGuardInput } from '../guard/policy.js';
import { op, Ids, PageSize, PageToken, ToolRef, EnabledPatch, IfMatch } from './op.js';

/** A tool's learned words for agents' tool search (electron/core/search/tool-search-learning.ts). */
export interface ToolSearchLearningView {
  toolID: string;
  /** config.toolSearch.learnFromUse: off, nothing is learned and nothing learned counts. */
  learnFromUse: boolean;
  /** Words, strongest first; `teachers`: how many principals (agents' credentials) taught it. */
  words: { word: string; strength: number; teachers: number }[];
  /** The latest searches that led an agent to call it, newest first. */
  searches: { query: string; at: string }[];
  updatedAt?: string;
}

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
    /** The output guard's mode; left out, the stored one is kept. `accepted` is written only by tools.acceptGuard. */
    guard: Type.Optional(ToolGuardInput),
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
    /** An upstream tool's review state: changed by its sync and accept only, kept by a save. */
    review: Type.Optional(Type.Unknown()),
  },
  // "x-" keys are people's annotations (tool.json allows them): written as sent, so a GET sent back changes nothing.
  { additionalProperties: false, patternProperties: { '^x-': {} } },
);
export type ToolInput = Static<typeof ToolInput>;

export const toolsOperations = {
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
  'tools.searchLearning': op<ToolSearchLearningView>()({
    summary: "What a tool learned from agents' use (the searches that led to a call of it), and whether learning is on",
    input: Type.Object({ toolID: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT'],
  }),
  'tools.searchLearningReset': op<{ reset: number }>()({
    summary: 'Forget what one tool (toolID) or every tool learned from use',
    input: Type.Object({ toolID: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }, { additionalProperties: false }),
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
  'tools.openaiFunctions': op<{ items: OpenAiFunction[] }>()({
    summary: 'Enabled tools as OpenAI function-calling definitions, ready to paste into an agent',
    input: Type.Object({ bundleIDs: Type.Optional(Ids) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND'],
  }),
  'tools.lint': op<{ items: ToolLintFinding[]; checked: number }>()({
    summary:
      'What about tools an agent may misread or confuse (near-duplicate names or descriptions, vague or overlong descriptions, arguments without a description or type), and what the definition guard finds: orders addressed to the model, exfiltration, shadowing of other tools, command execution, hidden characters and hidden text, each with the JSON pointer and span',
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
  'tools.acceptGuard': op<ToolView>()({
    summary:
      "Accept the definition guard's findings on a tool, so a bundle whose policy is withhold offers it to agents again; pinned to the definition as it is now (digest: the one reviewed), a later change re-opens it",
    input: Type.Object({ ...ToolRef, digest: Type.Optional(Type.String({ pattern: '^sha256:[0-9a-f]{64}$' })) }, { additionalProperties: false }),
    errors: ['INVALID_INPUT', 'NOT_FOUND', 'MODIFIED_ELSEWHERE', 'BUILTIN_READONLY'],
  }),
} as const;
