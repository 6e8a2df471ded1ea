/**
 * The end of the audit chain as the files on disk hold it (read under the folder's lock when the
 * writer's cached tail no longer matches): the file it is in, that file's size, and the last
 * record's hash and seq. A torn or unreadable last line (a writer stopped mid-write) is cut off and
 * noted by a `gap` record, returned to be chained first.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import type { AuditRecord } from '../../../shared/audit.js';
import { listAuditFiles, readTail } from './files.js';
import { GENESIS, parseRecord, sha256Hex, type PendingRecord } from './record.js';

export interface Tail {
  n: number;
  size: number;
  hash: string;
  seq: number;
}

export async function readChainTail(dir: string, stamp: () => Pick<PendingRecord, 'at' | 'pid' | 'host'>): Promise<{ tail: Tail; notes: PendingRecord[] }> {
  const files = await listAuditFiles(dir);
  const notes: PendingRecord[] = [];
  for (let i = files.length - 1; i >= 0; i--) {
    const { n, name } = files[i]!;
    const path = join(dir, name);
    const tail = await readTail(path);
    let record: AuditRecord | undefined;
    let cut = tail.goodBytes;
    let torn = tail.torn;
    if (tail.lastLine !== undefined) {
      record = parseRecord(tail.lastLine);
      if (!record) {
        // A complete but unreadable last line: treat it like a torn one, so the chain goes on.
        const lineBytes = Buffer.byteLength(tail.lastLine, 'utf8') + 1;
        cut = tail.goodBytes - lineBytes;
        torn = Buffer.concat([Buffer.from(tail.lastLine + '\n', 'utf8'), tail.torn ?? Buffer.alloc(0)]);
      }
    }
    if (torn?.length) {
      await fsp.truncate(path, cut);
      notes.push({ kind: 'gap', reason: 'torn-tail', lost: 0, file: name, tornBytes: torn.length, tornDigest: sha256Hex(torn), ...stamp() });
    }
    if (record) {
      // A later file left empty by a cut-off write is written into next.
      const lastN = files[files.length - 1]!.n;
      const size = lastN === n ? cut : 0;
      return { tail: { n: lastN, size, hash: record.hash, seq: record.seq }, notes };
    }
    if (!record && tail.lastLine !== undefined) {
      // The cut line was the only complete one we read; look again at this file.
      i++;
      continue;
    }
  }
  const lastN = files.length ? files[files.length - 1]!.n : 0;
  return { tail: { n: lastN, size: 0, hash: GENESIS, seq: 0 }, notes };
}
