/**
 * The audit log's records as every layer sees them (`<data>/audit/audit-<n>.jsonl`, one JSON
 * record a line): calls, approval decisions, changes to stored state, and gaps the writers noted.
 * Arguments and results never appear, only their digest; secrets never, only file digests.
 */

import type { CallerTransport } from './caller.js';

/** Who acted: the transport or process that did it (a caller's transport, shared/caller.ts). */
export type AuditActor = CallerTransport;

export const AUDIT_KINDS = ['call', 'approval', 'change', 'gap'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export interface AuditCallFields {
  kind: 'call';
  toolID: string;
  slug: string;
  version: string;
  bundleID: string;
  /** What the engine knows as the caller: "mcp:<client>", "cli", "rest"… */
  caller: string;
  transport: AuditActor;
  profile?: string;
  /** SHA-256 (hex) of the arguments' sorted-keys JSON. */
  argsDigest: string;
  status: 'ok' | 'error' | 'cancelled';
  errorCode?: string;
  durationMs: number;
  /** Absent for a call a gate refused before it ran (errorCode says which). */
  invocationID?: string;
}

export interface AuditApprovalFields {
  kind: 'approval';
  approvalID: string;
  decision: 'approve' | 'deny';
  /** Who answered: a person in the app, REST, or an agent's retry carrying its user's answer. */
  decidedBy: 'app' | 'rest' | 'agent';
  /** Who answered by name, when the transport knows more than decidedBy: `rest@oauth:<sub>` (as a call's caller). */
  decider?: string;
  toolID: string;
  slug: string;
  version: string;
  argsDigest: string;
  caller: string;
  profile?: string;
}

export interface AuditChangeFields {
  kind: 'change';
  /** The file, relative to the data folder, with '/' separators. */
  path: string;
  op: 'create' | 'update' | 'delete';
  actor: AuditActor;
  /** Whom the actor acted for, when it knows more than its name: `rest@oauth:<sub>` (as a call's caller). */
  caller?: string;
  /** SHA-256 (hex) of the file before and after; absent for a file that did not exist. */
  before?: string;
  after?: string;
}

export interface AuditGapFields {
  kind: 'gap';
  reason: 'torn-tail' | 'dropped';
  /** Records lost (dropped while the disk was full), or 0 for a torn tail. */
  lost: number;
  /** Between which times the lost records happened. */
  from?: string;
  to?: string;
  /** What a torn tail was: its file, size and digest. */
  file?: string;
  tornBytes?: number;
  tornDigest?: string;
}

export type AuditRecordBody = AuditCallFields | AuditApprovalFields | AuditChangeFields | AuditGapFields;

export type AuditRecord = AuditRecordBody & {
  seq: number;
  at: string;
  pid: number;
  host?: string;
  prev: string;
  hash: string;
};

/** Where verify found the chain broken. */
export interface AuditProblem {
  file: string;
  line?: number;
  message: string;
}

export interface AuditVerifyResult {
  ok: boolean;
  records: number;
  files: number;
  gaps: number;
  from?: string;
  to?: string;
  /** The last record's hash: publish it to anchor the chain. */
  head?: string;
  problem?: AuditProblem;
  summary: string;
}
