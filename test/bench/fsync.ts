/**
 * What one durable audit batch costs on this disk (issues 31, 32 pt 5), for the file system the
 * data folder lives on (the OS temp folder, as the host and gateway benches use; TW_BENCH_FSYNC_DIR
 * to point elsewhere). p50/p95 of:
 * (a) append to a growing file + fdatasync: today's writer (the size changes, so the inode and the
 *     file system's journal are committed with the data);
 * (b) pwrite in place into a pre-zeroed, already synced file + fdatasync: a write-ahead journal
 *     (no size change, so only the data blocks go to disk);
 * each with one record per batch and with 10 writers' worth (10 records) per batch.
 * (a) is the baseline; the ratio (b)/(a) is what a journal written in place could save.
 */
import { closeSync, fdatasyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, quantile } from './util.js';

const N = Number(process.env['TW_BENCH_FSYNC_N'] ?? 400);
const BLOCK = Number(process.env['TW_BENCH_FSYNC_BLOCK'] ?? 1);
const JOURNAL_BYTES = 8 * 1024 * 1024;
/** About one call record as the host writes it (JSON line with its hash chain). */
const RECORD = Buffer.from(
  JSON.stringify({
    kind: 'call',
    seq: 1,
    prev: 'x'.repeat(64),
    hash: 'y'.repeat(64),
    tool: 'calc',
    caller: 'host',
    ok: true,
    at: new Date().toISOString(),
    pid: 1,
    host: 'bench',
    pad: 'z'.repeat(200),
  }) + '\n',
);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

function appendSync(fd: number, buf: Buffer): void {
  for (let done = 0; done < buf.length;) done += writeSync(fd, buf, done, buf.length - done);
}

/**
 * Both sides in turns of BLOCK batches (default 1: alternating), so both see the same machine;
 * TW_BENCH_FSYNC_BLOCK=50 runs 50 of one kind in a row, so one side's file system journal commits
 * land less in the other's samples.
 */
function measure(records: number): { append: number[]; inPlace: number[] } {
  const batch = Buffer.concat(Array.from({ length: records }, () => RECORD));
  const append: number[] = [];
  const inPlace: number[] = [];
  const jsonl = openSync(join(dir, `append-${records}.jsonl`), 'a');
  const journal = openSync(join(dir, `journal-${records}`), 'r+');
  let at = 0;
  try {
    for (let i = 0; i < 2 * N; i++) {
      const side = Math.floor(i / BLOCK) % 2 ? 'a' : 'b';
      const t0 = performance.now();
      if (side === 'a') {
        appendSync(jsonl, batch);
        fdatasyncSync(jsonl);
        append.push(performance.now() - t0);
      } else {
        if (at + batch.length > JOURNAL_BYTES) at = 0;
        for (let done = 0; done < batch.length;) done += writeSync(journal, batch, done, batch.length - done, at + done);
        at += batch.length;
        fdatasyncSync(journal);
        inPlace.push(performance.now() - t0);
      }
    }
  } finally {
    closeSync(jsonl);
    closeSync(journal);
  }
  return { append, inPlace };
}

let dir = '';

export async function run(): Promise<void> {
  dir = await mkdtemp(join(process.env['TW_BENCH_FSYNC_DIR'] ?? tmpdir(), 'tw-bench-fsync-'));
  console.log(`  folder ${dir}, ${N} batches per side in turns of ${BLOCK}, record ${RECORD.length} B; load ${load()}`);
  try {
    for (const records of [1, 10]) {
      // The journal: made full size, zeroed, synced once (as a WAL segment is).
      const fd = openSync(join(dir, `journal-${records}`), 'w');
      ftruncateSync(fd, 0);
      appendSync(fd, Buffer.alloc(JOURNAL_BYTES));
      fdatasyncSync(fd);
      closeSync(fd);
      const { append, inPlace } = measure(records);
      for (const [label, s] of [
        ['(a) append + fdatasync', append],
        ['(b) pwrite in place (pre-zeroed) + fdatasync', inPlace],
      ] as const) {
        console.log(`  ${`${label}, ${records} rec/batch`.padEnd(60)} p50 ${fmt(quantile(s, 0.5)).padStart(9)}   p95 ${fmt(quantile(s, 0.95)).padStart(9)}`);
      }
      const r50 = quantile(inPlace, 0.5) / quantile(append, 0.5);
      const r95 = quantile(inPlace, 0.95) / quantile(append, 0.95);
      console.log(`  ${`(b)/(a), ${records} rec/batch`.padEnd(60)} p50 ${r50.toFixed(2)}x     p95 ${r95.toFixed(2)}x`);
    }
    console.log(`  load at end ${load()}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
