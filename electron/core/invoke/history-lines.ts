/** Reading a history file's lines (history.ts): what counts as an entry, and how many lines a file holds. */
import type { FileHandle } from 'node:fs/promises';
import type { HistoryEntry } from '../../../shared/types.js';

const READ_CHUNK = 64 * 1024;
const NEWLINE = 0x0a;
const STATUSES = new Set(['ok', 'error', 'cancelled']);

function isHistoryEntry(v: unknown): v is HistoryEntry {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as Partial<HistoryEntry>;
  return (
    typeof e.invocationID === 'string' &&
    typeof e.toolID === 'string' &&
    typeof e.startedAt === 'string' &&
    typeof e.durationMs === 'number' &&
    typeof e.status === 'string' &&
    STATUSES.has(e.status)
  );
}

export function parseLine(line: string): HistoryEntry | undefined {
  if (!line.trim()) return undefined;
  try {
    const v: unknown = JSON.parse(line);
    return isHistoryEntry(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export async function countLines(fh: FileHandle, size: number): Promise<number> {
  let count = 0;
  const chunk = Buffer.alloc(Math.min(READ_CHUNK, size));
  for (let pos = 0; pos < size;) {
    const { bytesRead } = await fh.read(chunk, 0, Math.min(chunk.length, size - pos), pos);
    if (bytesRead === 0) break;
    for (let i = 0; i < bytesRead; i++) if (chunk[i] === NEWLINE) count++;
    pos += bytesRead;
  }
  return count;
}
