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

/**
 * What a changed file is, named for people as it was at the time (a deleted tool keeps its name):
 * read from the file's content after the change, or before it for a delete.
 */
export interface AuditChangeSubject {
  type: 'bundle' | 'tool' | 'config' | 'secrets' | 'builtin-state' | 'file';
  bundleID?: string;
  toolID?: string;
  slug?: string;
  version?: string;
  displayName?: string;
  /** Bundles and tools, after the change: switched on, and (bundles) in the Trash. */
  isEnabled?: boolean;
  inTrash?: boolean;
}

export interface AuditChangeFields {
  kind: 'change';
  /** The file, relative to the data folder, with '/' separators. */
  path: string;
  subject?: AuditChangeSubject;
  /**
   * An update's names of what changed inside the file, never a value: top-level fields of a
   * bundle, tool or config.json, secret names of secrets.json, `bundle:<id>`/`tool:<id>` switches
   * of builtin-state.json.
   */
  changed?: string[];
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

const OP_DONE: Record<AuditChangeFields['op'], string> = { create: 'Created', update: 'Changed', delete: 'Deleted' };

/** A bundle or tool as people know it: “Display name” (slug version), or its slug alone. */
function entityName(s: AuditChangeSubject): string {
  const id = [s.slug, s.version].filter(Boolean).join(' ');
  if (s.displayName && id) return `“${s.displayName}” (${id})`;
  return s.displayName ? `“${s.displayName}”` : id || '(unnamed)';
}

/** A change record without a subject (written before changes were named): what its path says. */
function pathName(path: string): string {
  const tool = /^bundles\/([^/]+)\/tools\/([^/]+)\/tool\.json$/.exec(path);
  if (tool) return `tool ${tool[2]!.slice(0, 13)}…`;
  const bundle = /^bundles\/([^/]+)\/bundle\.json$/.exec(path);
  if (bundle) return `bundle ${bundle[1]!.slice(0, 13)}…`;
  if (path === 'config.json') return 'the settings';
  if (path === 'secrets.json') return 'the secrets';
  if (path === 'builtin-state.json') return 'the built-in switches';
  return path;
}

const listed = (names: string[] | undefined) => (names?.length ? `: ${names.join(', ')}` : '');

function changeSummary(r: AuditChangeFields): string {
  const s = r.subject;
  if (!s || s.type === 'file') return `${OP_DONE[r.op]} ${pathName(r.path)}`;
  if (s.type === 'bundle' || s.type === 'tool') {
    const what = `${s.type} ${entityName(s)}`;
    if (r.op !== 'update') return `${r.op === 'delete' && s.type === 'bundle' ? 'Deleted for good' : OP_DONE[r.op]} ${what}`;
    const changed = r.changed ?? [];
    if (changed.includes('softDeletedAt')) return `${s.inTrash ? 'Moved to the Trash' : 'Restored from the Trash'} ${what}`;
    if (changed.length === 1 && changed[0] === 'isEnabled') return `${s.isEnabled ? 'Switched on' : 'Switched off'} ${what}`;
    return `Changed ${what}${listed(changed)}`;
  }
  if (s.type === 'config') return r.op === 'create' ? 'Created the settings' : `Changed the settings${listed(r.changed)}`;
  if (s.type === 'secrets') return `${r.op === 'delete' ? 'Deleted' : 'Set or removed'} secrets${listed(r.changed)}`;
  return `Switched built-ins${listed(r.changed)}`;
}

/** What a record says, in one line for people. */
export function auditSummary(r: AuditRecordBody): string {
  switch (r.kind) {
    case 'call':
      return `Called ${r.slug} ${r.version}: ${r.status}${r.errorCode ? ` (${r.errorCode})` : ''}, ${Math.round(r.durationMs)} ms`;
    case 'approval':
      return `${r.decision === 'approve' ? 'Approved' : 'Denied'} ${r.slug} ${r.version} for ${r.caller}`;
    case 'change':
      return changeSummary(r);
    case 'gap':
      return r.reason === 'dropped'
        ? `${r.lost} records lost (the log could not be written) from ${r.from} to ${r.to}`
        : `A torn record was cut from ${r.file} (${r.tornBytes} bytes)`;
  }
}

/** Who did it: the caller by name when the transport knew one, else the transport or process. */
export function auditWho(r: AuditRecord): string {
  if (r.kind === 'call') return r.caller;
  if (r.kind === 'approval') return r.decider ?? r.decidedBy;
  if (r.kind === 'change') return r.caller ?? r.actor;
  return `pid ${r.pid}`;
}
