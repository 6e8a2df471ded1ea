/**
 * Whether work waits for a writable audit log (AuditLog's `records` option): the environment's
 * TOOLWRIGHT_AUDIT_RECORDS (the team image sets `required`), else config auditRecords, else
 * `required`. TOOLWRIGHT_BENCH_AUDIT_BATCHED_MS brings back the former batching for the host
 * bench's side-by-side figures only.
 */
import { DEFAULT_AUDIT_MAX_FILE_BYTES, type AuditRecords, type Config } from '../../../shared/schemas.js';
import { AuditLog, type AuditLogOptions } from './writer.js';

const VALUES: readonly AuditRecords[] = ['required', 'when-possible'];

/** The setting as it stands now; a value the environment gives that is not one of the two is refused at start. */
export function auditRecordsSetting(fromConfig: () => AuditRecords | undefined, env: NodeJS.ProcessEnv = process.env): () => AuditRecords {
  const pinned = env['TOOLWRIGHT_AUDIT_RECORDS'];
  if (pinned !== undefined && pinned !== '') {
    if (!VALUES.includes(pinned as AuditRecords)) {
      throw new Error(`TOOLWRIGHT_AUDIT_RECORDS is '${pinned}'; set it to required or when-possible (or leave it unset to follow config auditRecords)`);
    }
    return () => pinned as AuditRecords;
  }
  return () => fromConfig() ?? 'required';
}

/** The bench's batched mode (records written this long after they happen, answers never wait), or undefined. */
export function benchBatchedDelayMs(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env['TOOLWRIGHT_BENCH_AUDIT_BATCHED_MS'];
  const ms = raw ? Number(raw) : NaN;
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** The core's audit log, its file size and mode read from config once that is open (the defaults until then). */
export function openAuditLog(
  dir: string,
  settings: () => Pick<Config, 'auditMaxFileBytes' | 'auditRecords'> | undefined,
  opts: Pick<AuditLogOptions, 'clock' | 'onError'>,
): AuditLog {
  const batchedDelayMs = benchBatchedDelayMs();
  return new AuditLog({
    dir,
    ...opts,
    maxFileBytes: () => settings()?.auditMaxFileBytes ?? DEFAULT_AUDIT_MAX_FILE_BYTES,
    records: auditRecordsSetting(() => settings()?.auditRecords),
    ...(batchedDelayMs !== undefined ? { batchedDelayMs } : {}),
  });
}
