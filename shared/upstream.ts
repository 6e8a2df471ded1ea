/**
 * Upstream MCP servers (docs/contracts.md, "Upstream MCP servers"): a bundle whose `source` names an MCP
 * server that runs elsewhere, and the plain facts about it every layer shares — the source's
 * schema, the snapshot of what the server last said its tools are, and how a definition's
 * annotations map onto Toolwright's safety. Pure: no Node, no DOM.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { GuardFinding, GuardReport } from './guard/types.js';
import { Timestamp } from './schema-primitives.js';

type Safety = 'readOnly' | 'sideEffecting' | 'privileged';

/** Environment variable and header names; values may hold `${SECRET_NAME}` placeholders. */
const EnvName = Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', maxLength: 128 });
const HeaderName = Type.String({ pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", maxLength: 128 });
const Value = Type.String({ maxLength: 8192 });

export const StdioSource = Type.Object(
  {
    kind: Type.Literal('mcp'),
    transport: Type.Literal('stdio'),
    command: Type.String({ minLength: 1, maxLength: 4096 }),
    args: Type.Optional(Type.Array(Type.String({ maxLength: 8192 }), { maxItems: 256 })),
    env: Type.Optional(Type.Record(EnvName, Value, { maxProperties: 256 })),
    cwd: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  },
  { additionalProperties: false },
);

export const HttpSource = Type.Object(
  {
    kind: Type.Literal('mcp'),
    transport: Type.Literal('http'),
    url: Type.String({ pattern: '^https?://', maxLength: 4096 }),
    headers: Type.Optional(Type.Record(HeaderName, Value, { maxProperties: 64 })),
    auth: Type.Optional(
      Type.Object(
        {
          kind: Type.Literal('oauth'),
          /** A client registered ahead with the authorization server (for servers that allow no registration). */
          clientId: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
          /** That client's secret, only as a `${NAME}` placeholder: the value lives in the secrets store. */
          clientSecret: Type.Optional(Type.String({ pattern: '^\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}$', maxLength: 160 })),
          /** Toolwright's client ID metadata document (an https URL), used as the client ID where the server supports it. */
          clientMetadataUrl: Type.Optional(Type.String({ pattern: '^https://[^/?#]+/[^?#]+', maxLength: 2048 })),
          scopes: Type.Optional(Type.Array(Type.String({ maxLength: 256 }), { maxItems: 64 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const BundleSource = Type.Union([StdioSource, HttpSource]);
export type BundleSource = Static<typeof BundleSource>;
export type StdioSource = Static<typeof StdioSource>;
export type HttpSource = Static<typeof HttpSource>;

/** A tool as the upstream server defines it (the parts Toolwright pins). */
export interface UpstreamDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/**
 * What the server said at the last sync: `<data>/bundles/<bundleID>/upstream.json`, written by
 * whichever process synced, read by every process (an agent never sees a definition nobody
 * accepted, whichever process serves it).
 */
export interface UpstreamSnapshot {
  syncedAt: string;
  server?: { name: string; version: string; title?: string };
  protocolVersion?: string;
  instructions?: string;
  tools: Record<string, { hash: string; definition: UpstreamDefinition }>;
}

/** The upstream's annotations, judged as MCP defines them (destructiveHint defaults to true when readOnlyHint is false). */
export function safetyOfAnnotations(annotations: Record<string, unknown> | undefined): Safety {
  if (annotations?.['readOnlyHint'] === true) return 'readOnly';
  if (annotations?.['destructiveHint'] === true) return 'privileged';
  return 'sideEffecting';
}

const SAFETY_ORDER: readonly Safety[] = ['readOnly', 'sideEffecting', 'privileged'];

/** A person may make a tool stricter than its upstream says, never looser. */
export function stricterSafety(a: Safety, b: Safety): Safety {
  return SAFETY_ORDER.indexOf(a) >= SAFETY_ORDER.indexOf(b) ? a : b;
}

/** Why an upstream tool is withheld from agents now, or undefined when it may be offered. */
export function withheldReason(toolName: string, acceptedHash: string, snapshot: UpstreamSnapshot | undefined): string | undefined {
  if (!snapshot) return 'the upstream server has not been synced yet; sync the bundle';
  const seen = snapshot.tools[toolName];
  if (!seen) return `the upstream server no longer offers the tool '${toolName}' (last sync ${snapshot.syncedAt})`;
  if (seen.hash !== acceptedHash) {
    return `the upstream server changed the definition of '${toolName}' (description or schema); review the difference and accept it before agents may use it`;
  }
  return undefined;
}

/**
 * Where a person stands with an upstream tool (tool.json `review`, docs/contracts.md "Upstream MCP
 * servers"): `new` — a sync added it and nobody reviewed it yet; `changed` — the server's
 * definition differs from the pinned one (withheld until accepted); `gone` — the server no longer
 * lists it; `accepted` — a person reviewed the pinned definition. Only a sync and an accept
 * change it: switching a tool on or off, or editing what a person owns, never does.
 */
export const REVIEW_STATES = ['new', 'changed', 'gone', 'accepted'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const UpstreamReview = Type.Object(
  {
    state: Type.Union(REVIEW_STATES.map((s) => Type.Literal(s))),
    /** When a person last accepted the tool's definition; dropped when the server stops offering it (it comes back to be reviewed again). */
    reviewedAt: Type.Optional(Timestamp),
  },
  { additionalProperties: false },
);
export type UpstreamReview = Static<typeof UpstreamReview>;

/** The tool.json fields the review state is judged from. */
export interface ReviewedTool {
  isEnabled: boolean;
  createdAt: string;
  modifiedAt: string;
  impl: unknown;
  review?: UpstreamReview | undefined;
}

/**
 * The state of a tool stored before review states existed: what the app showed then — switched
 * off and never modified since a sync created it is `new`; switched on, or edited or accepted
 * since, is `accepted` (a person chose it).
 */
export function legacyReview(tool: ReviewedTool): UpstreamReview {
  return { state: !tool.isEnabled && tool.createdAt === tool.modifiedAt ? 'new' : 'accepted' };
}

/** A review with its state replaced, the time of the last accept kept (in the keys' stored order). */
function withState(review: UpstreamReview, state: ReviewState): UpstreamReview {
  return { state, ...(review.reviewedAt ? { reviewedAt: review.reviewedAt } : {}) };
}

/**
 * What a sync makes of a tool's review, given the hash it pins and what the server lists now
 * (`seenHash`, undefined when the server no longer offers it). A definition that differs is
 * `changed`; a missing tool is `gone` (and forgets its accept); a gone tool that comes back is
 * reviewed again: `changed` when its definition differs from the pinned one, else `new`; a
 * changed tool whose server went back to the pinned definition returns to `accepted` when a
 * person accepted that definition, else to `new`.
 */
export function reviewAfterSync(stored: UpstreamReview, pinnedHash: string, seenHash: string | undefined): UpstreamReview {
  if (seenHash === undefined) return { state: 'gone' };
  if (seenHash !== pinnedHash) return withState(stored, 'changed');
  if (stored.state === 'gone') return withState(stored, 'new');
  if (stored.state === 'changed') return withState(stored, stored.reviewedAt ? 'accepted' : 'new');
  return stored;
}

/**
 * The review state a tool shows: the stored one (or the legacy rule's), as the server's last
 * word (the snapshot) makes it — so `changed` and `gone` always agree with what is withheld, even
 * before the sync's writes to the tool files have landed. Never synced: the stored state.
 */
export function effectiveReview(tool: ReviewedTool, snapshot: UpstreamSnapshot | undefined): UpstreamReview {
  const stored = tool.review ?? legacyReview(tool);
  if (!snapshot) return stored;
  const impl = tool.impl as { tool: string; definitionHash: string };
  return reviewAfterSync(stored, impl.definitionHash, snapshot.tools[impl.tool]?.hash);
}

/** How many of a server's tools are in each review state (the server view). */
export type ReviewCounts = Record<ReviewState, number>;

/** The states that ask for a person: everything but `accepted`. */
export function needsReview(state: ReviewState | undefined): boolean {
  return state !== undefined && state !== 'accepted';
}

/** A server's state as the bundle's view and REST show it. */
export interface UpstreamStatus {
  /** needs-authorization: the server answered 401 and no stored token worked; a person must sign in. */
  state: 'stopped' | 'starting' | 'ready' | 'failed' | 'needs-authorization';
  server?: { name: string; version: string; title?: string } | undefined;
  protocolVersion?: string | undefined;
  lastError?: string | undefined;
  pid?: number | undefined;
  since?: string | undefined;
  /** Times it was started again after it exited on its own. */
  restarts: number;
  /** The end of what it wrote on stderr (bounded). */
  stderr: string;
  /** `failed` because it could not be started (its tools cannot run until a sync, a stop or a changed source); a server that exited is restarted by the next call. */
  startFailed?: boolean | undefined;
  /** While a sign-in started by servers.authorize waits for the person: where to send them. */
  authorizationUrl?: string | undefined;
}

/** How a bundle's last sync in this process ended: what it brought, or why it failed (a command that does not exist). */
export interface UpstreamLastSync {
  at: string;
  ok: boolean;
  added?: number;
  changed?: number;
  gone?: number;
  error?: string;
}

/** A sign-in started (servers.authorize): the link to open; absent when stored tokens were renewed without one. */
export interface ServerAuthorization {
  authorizationUrl?: string;
  state: UpstreamStatus['state'];
}

/** What a sync found (and, unless it was a dry run, did). */
export interface UpstreamSyncReport {
  bundleID: string;
  dryRun: boolean;
  server?: { name: string; version: string };
  /** New upstream tools: created switched off (a dry run only names them). */
  added: { name: string; slug: string; toolID?: string; guard?: GuardReport }[];
  /**
   * Tools whose upstream definition no longer matches what a person accepted: withheld until
   * reviewed. `guard`: the definition guard's findings the change adds (docs/guard.md).
   */
  changed: { name: string; toolID: string; slug: string; version: string; guard?: GuardReport }[];
  /** Tools the server no longer offers: kept, unavailable. */
  gone: { name: string; toolID: string; slug: string; version: string }[];
  unchanged: number;
}

/** What a server offers, seen before anything is saved (servers.probe). */
export interface ServerProbe {
  /** The server answered 401: it lists its tools only after a sign-in (add it, then sign in). */
  needsAuthorization?: boolean;
  server?: { name: string; version: string; title?: string };
  protocolVersion?: string;
  instructions?: string;
  tools: { name: string; title?: string; description?: string; safety: Safety }[];
}

/** An upstream tool's accepted definition beside the server's current one (tools.definition). */
export interface DefinitionReview {
  name: string;
  accepted: { hash: string; description: string; argSchema: unknown; outputSchema?: unknown; safety: Safety };
  /** What the server says now (at the last sync); null when it no longer offers the tool. */
  upstream: { hash: string; definition: UpstreamDefinition; safety: Safety } | null;
  /** accepted.hash ≠ upstream.hash: withheld from agents until accepted. */
  changed: boolean;
  syncedAt?: string;
  /** The definition guard on both sides, and the findings the change adds (shown beside the diff). */
  guard: { accepted: GuardFinding[]; upstream: GuardFinding[]; added: GuardFinding[] };
}
