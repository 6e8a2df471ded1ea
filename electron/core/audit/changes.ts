/**
 * Changes to stored state as audit records: which file (relative to the data folder), create,
 * update or delete, who (this process's transport, and the caller it acts for when the transport
 * names one: acting-caller.ts), what the file is for people (change-subject.ts: the bundle or
 * tool by name, which settings or secrets by name), and the SHA-256 of the content before and
 * after. Only digests and names leave here, so a secrets.json change records no value.
 */
import { promises as fsp } from 'node:fs';
import { relative, sep } from 'node:path';
import type { AuditActor, AuditRecordBody } from '../../../shared/audit.js';
import { sha256Hex } from './record.js';
import { actingCaller, inOperation } from './acting-caller.js';
import { callerLabel } from '../../../shared/caller.js';
import { describeChange } from './change-subject.js';

/** What the writers of stored state call around a write. */
export interface ChangeRecorder {
  /**
   * Before a write: the file's bytes (undefined when it does not exist). Refuses (AUDIT_UNAVAILABLE)
   * a change someone asked for while the log cannot take its record; the core's own start-up and
   * housekeeping writes go on.
   */
  before(path: string): Promise<Buffer | undefined>;
  /** After a write: the content before (undefined: none) and after (undefined: deleted). The operation is answered once its record is durable. */
  changed(path: string, before: string | Uint8Array | undefined, after: string | Uint8Array | undefined): void;
}

export interface RecordSink {
  /** Resolves once the record is durable (AuditLog.append). */
  append(body: AuditRecordBody): Promise<void>;
  /** Resolves when work may go on; AUDIT_UNAVAILABLE while the log cannot be written (AuditLog.ready). */
  ready(): Promise<void>;
}

/** The bytes of a file about to change, or undefined when it does not exist (or cannot be read). */
export async function contentBefore(path: string): Promise<Buffer | undefined> {
  return fsp.readFile(path).catch(() => undefined);
}

export class AuditChanges implements ChangeRecorder {
  constructor(
    private readonly sink: RecordSink,
    private readonly dataDir: string,
    private readonly actor: AuditActor,
  ) {}

  async before(path: string): Promise<Buffer | undefined> {
    if (inOperation()) await this.sink.ready();
    return contentBefore(path);
  }

  changed(path: string, before: string | Uint8Array | undefined, after: string | Uint8Array | undefined): void {
    const beforeDigest = before === undefined ? undefined : sha256Hex(before);
    const afterDigest = after === undefined ? undefined : sha256Hex(after);
    if (beforeDigest === afterDigest) return;
    const acting = actingCaller();
    const caller = acting && callerLabel(acting);
    const relativePath = relative(this.dataDir, path).split(sep).join('/');
    void this.sink.append({
      kind: 'change',
      path: relativePath,
      ...describeChange(relativePath, before, after),
      op: beforeDigest === undefined ? 'create' : afterDigest === undefined ? 'delete' : 'update',
      actor: this.actor,
      ...(caller !== undefined && caller !== this.actor ? { caller } : {}),
      ...(beforeDigest ? { before: beforeDigest } : {}),
      ...(afterDigest ? { after: afterDigest } : {}),
    });
  }
}
