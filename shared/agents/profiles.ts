/**
 * Profiles (docs/contracts.md, "Profiles"): an MCP address of its own — some bundles, plus tools
 * from elsewhere, minus some, with the names and descriptions an agent sees overridden, its own
 * instructions and tokens, and a mode (every tool listed, or three tools to search them).
 */
import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from '../schema-primitives.js';

/** MCP's rule for a tool name (the 2025-11-25 specification): what an override may be. */
export const MCP_TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
/** An OAuth scope (RFC 6749 §3.3's scope-token): printable ASCII without space, quote or backslash. */
export const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]{1,200}$/;
/** Enough for every tool of a 10,000-tool profile to carry an override. */
export const MAX_PROFILE_REFS = 20_000;

export const ProfileMode = Type.Union([Type.Literal('all'), Type.Literal('search')]);
export type ProfileMode = Static<typeof ProfileMode>;

export const ProfileOverride = Type.Object(
  { name: Type.Optional(Type.String({ maxLength: 256 })), description: Type.Optional(Type.String({ maxLength: 10000 })) },
  { additionalProperties: false },
);

/** What a client sends to create or replace a profile; read-only fields of an answer are accepted and ignored. */
export const ProfileInput = Type.Object(
  {
    slug: Type.String({ minLength: 1, maxLength: 1024 }),
    displayName: Type.Optional(Type.String({ maxLength: 200 })),
    bundles: Type.Array(Uuid, { maxItems: 10000 }),
    include: Type.Optional(Type.Array(Uuid, { maxItems: MAX_PROFILE_REFS })),
    exclude: Type.Optional(Type.Array(Uuid, { maxItems: MAX_PROFILE_REFS })),
    overrides: Type.Optional(Type.Record(Type.String({ pattern: '^[0-9a-f-]{36}$' }), ProfileOverride, { maxProperties: MAX_PROFILE_REFS })),
    instructions: Type.Optional(Type.String({ maxLength: 20000 })),
    mode: Type.Optional(ProfileMode),
    /** On the team host, an OAuth token must also carry this scope at the profile's address. */
    requiredScope: Type.Optional(Type.String({ maxLength: 200 })),
    // read-only, ignored
    profileID: Type.Optional(Type.String()),
    createdAt: Type.Optional(Type.String()),
    modifiedAt: Type.Optional(Type.String()),
    toolCount: Type.Optional(Type.Unknown()),
    missing: Type.Optional(Type.Unknown()),
    contextTokens: Type.Optional(Type.Unknown()),
    warnings: Type.Optional(Type.Unknown()),
    tools: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
export type ProfileInput = Static<typeof ProfileInput>;

export interface ProfileFile {
  profileID: string;
  slug: string;
  displayName: string;
  bundles: string[];
  include?: string[];
  exclude?: string[];
  overrides?: Record<string, { name?: string; description?: string }>;
  instructions?: string;
  mode: ProfileMode;
  requiredScope?: string;
  createdAt: string;
  modifiedAt: string;
}

export const PROFILE_KEY_ORDER = [
  'profileID',
  'slug',
  'displayName',
  'mode',
  'bundles',
  'include',
  'exclude',
  'overrides',
  'instructions',
  'requiredScope',
  'createdAt',
  'modifiedAt',
];

export interface ProfileSummary extends ProfileFile {
  /** Tools an agent sees at this address now. */
  toolCount: number;
  /** References that no longer exist: kept in the file, shown here. */
  missing: { bundles: string[]; tools: string[] };
  /**
   * Tokens the address's tools/list costs an agent: every tool listed (as its agents receive
   * them, the overrides' names and descriptions in place), and the three tools of search mode;
   * `pending` tools are not counted yet (the background count after a start).
   */
  contextTokens: { listed: number; search: number; pending: number };
  /** Client limits the listed tools pass (in `all` mode), most severe first. */
  warnings: string[];
}

export interface ProfileTool {
  toolID: string;
  bundleID: string;
  slug: string;
  version: string;
  /** As the agent sees them. */
  name: string;
  description: string;
  overridden: boolean;
}

export interface ProfileDetail extends ProfileSummary {
  tools: ProfileTool[];
}

export interface ProfileTokenInfo {
  tokenID: string;
  label: string;
  createdAt: string;
  lastUsedAt: string | null;
  calls: number;
}

/** The answer of a token's creation: the only time the token itself is shown. */
export interface CreatedProfileToken {
  tokenID: string;
  label: string;
  createdAt: string;
  token: string;
}
