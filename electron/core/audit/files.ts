/** The audit folder's files: `audit-<n>.jsonl`, n from 000001, and reading the end of one cheaply. */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';

const FILE_NAME = /^audit-(\d{6,})\.jsonl$/;

export function auditFileName(n: number): string {
  return `audit-${String(n).padStart(6, '0')}.jsonl`;
}

export function auditFileNumber(name: string): number | undefined {
  const m = FILE_NAME.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** The audit files present, in order: [number, name]. */
export async function listAuditFiles(dir: string): Promise<{ n: number; name: string }[]> {
  const names = await fsp.readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [] as string[];
    throw e;
  });
  return names
    .flatMap((name) => {
      const n = auditFileNumber(name);
      return n === undefined ? [] : [{ n, name }];
    })
    .sort((a, b) => a.n - b.n);
}

export interface FileTail {
  /** Bytes of the file up to and including the last newline. */
  goodBytes: number;
  /** The last complete line (without its newline), if any. */
  lastLine?: string;
  /** Bytes after the last newline: a record a writer did not finish. */
  tornBytes: number;
  torn?: Buffer;
}

const CHUNK = 64 * 1024;

/** Reads backwards from the end, in growing windows, until the last complete line is found. */
export async function readTail(path: string): Promise<FileTail> {
  const handle = await fsp.open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    for (let window = CHUNK; ; window *= 2) {
      const start = Math.max(0, size - window);
      const buf = Buffer.alloc(size - start);
      await handle.read(buf, 0, buf.length, start);
      const last = buf.lastIndexOf(0x0a);
      if (last < 0 && start > 0) continue;
      const torn = buf.subarray(last + 1);
      const tail = { tornBytes: torn.length, ...(torn.length ? { torn: Buffer.from(torn) } : {}) };
      if (last < 0) return { goodBytes: 0, ...tail };
      const before = last === 0 ? -1 : buf.lastIndexOf(0x0a, last - 1);
      if (before < 0 && start > 0) continue;
      return { goodBytes: start + last + 1, lastLine: buf.subarray(before + 1, last).toString('utf8'), ...tail };
    }
  } finally {
    await handle.close();
  }
}

export function joinAudit(dir: string, name: string): string {
  return join(dir, name);
}
