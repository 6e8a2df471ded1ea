/**
 * The audit log's records and their chain: each record carries the hash of the one before it
 * (`prev`) and its own `hash = sha256(prev + sorted-keys JSON of the record without hash)`, so
 * editing, removing or reordering a record breaks a link that `toolwright audit verify` finds.
 */
import { createHash } from 'node:crypto';
import { sortedKeysJson } from '../../../shared/canonical.js';
import type { AuditRecord, AuditRecordBody } from '../../../shared/audit.js';

/** The `prev` of the very first record of a data folder. */
export const GENESIS = '0'.repeat(64);

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The digest of a call's arguments: SHA-256 over sorted-keys JSON, so key order never matters. */
export function argsDigest(args: unknown): string {
  return sha256Hex(sortedKeysJson(args ?? {}));
}

export function hashOf(record: Omit<AuditRecord, 'hash'>): string {
  return sha256Hex(record.prev + sortedKeysJson(record));
}

/** What a process knows of a record when it happens; seq, prev and hash come at flush. */
export type PendingRecord = AuditRecordBody & { at: string; pid: number; host?: string };

export function chainRecord(pending: PendingRecord, seq: number, prev: string): AuditRecord {
  const body = { ...pending, seq, prev } as Omit<AuditRecord, 'hash'>;
  return { ...body, hash: hashOf(body) } as AuditRecord;
}

/** A record's own hash matches its content (verify). */
export function hashMatches(record: AuditRecord): boolean {
  const { hash, ...rest } = record;
  return hashOf(rest) === hash;
}

/** A line of an audit file as a record, or undefined when it is not one (torn, edited into something else). */
export function parseRecord(line: string): AuditRecord | undefined {
  try {
    const v = JSON.parse(line) as AuditRecord;
    if (typeof v !== 'object' || v === null || typeof v.hash !== 'string' || typeof v.seq !== 'number' || typeof v.prev !== 'string') return undefined;
    return v;
  } catch {
    return undefined;
  }
}
