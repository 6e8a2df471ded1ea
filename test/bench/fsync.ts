/**
 * What one durable audit batch costs on this disk (issues 31, 32 pt 5), for the file system the
 * data folder lives on (the OS temp folder, as the host and gateway benches use; TW_BENCH_FSYNC_DIR
 * to point elsewhere). p50/p95 of:
 * (a) append to a growing file + fdatasync: today's writer (the size changes, so the inode and the
 *     file system's journal are committed with the data);
 * (b) pwrite in place into a pre-zeroed, already synced file + fdatasync: a write-ahead journal
 *     (no size change, so only the data blocks go to disk);
 * each with one record per batch and with 10 writers' worth (10 records) per batch.
 * (a) is the baseline; the ratio (b)/(a) is what a journal written in place could save. Beside
 * each, the CPU this process spent per batch (user + system: the kernel's part of the sync).
 * Then the writer under a modelled host (writerRounds) and by thread (byThread).
 */
import { closeSync, fdatasyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, open, readdir, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditLog } from '../../electron/core/audit/writer.js';
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
function measure(records: number): { append: number[]; inPlace: number[]; cpuUs: { a: number; b: number } } {
  const batch = Buffer.concat(Array.from({ length: records }, () => RECORD));
  const append: number[] = [];
  const inPlace: number[] = [];
  const jsonl = openSync(join(dir, `append-${records}.jsonl`), 'a');
  const journal = openSync(join(dir, `journal-${records}`), 'r+');
  let at = 0;
  const cpuUs = { a: 0, b: 0 };
  try {
    for (let i = 0; i < 2 * N; i++) {
      const side = Math.floor(i / BLOCK) % 2 ? 'a' : 'b';
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
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
      const cpu = process.cpuUsage(cpu0);
      cpuUs[side] += (cpu.user + cpu.system) / N;
    }
  } finally {
    closeSync(jsonl);
    closeSync(journal);
  }
  return { append, inPlace, cpuUs };
}

let dir = '';

const WRITER_ROUND_MS = Number(process.env['TW_BENCH_FSYNC_ROUND_MS'] ?? 1500);
const ROUNDS = Number(process.env['TW_BENCH_FSYNC_ROUNDS'] ?? 5);

/** Each modelled call's own work before its record (a host's call costs about this much CPU). */
const WORK_MS = Number(process.env['TW_BENCH_FSYNC_WORK_MS'] ?? 0.5);

type Variant = 'batched' | 'durable';
const VARIANTS: Variant[] = ['batched', 'durable'];

interface Level {
  perSecond: number;
  lat: number[];
  cpuUs: number;
  /** fdatasyncs per call: 1 / the records a batch held. */
  syncsPerCall: number;
}

/** FileHandle.prototype, whose datasync the writer rounds count (the writer calls it once a batch). */
async function fileHandleProto(): Promise<{ datasync: () => Promise<void> }> {
  const probe = await open(join(dir, 'probe'), 'w');
  const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
  await probe.close();
  return proto;
}

/**
 * `clients` closed loops on one AuditLog for `ms`, each call WORK_MS of CPU then its record
 * (awaited): calls per second, p50/p95 of a call, this process's CPU per call.
 */
async function writerLevel(folder: string, variant: Variant, clients: number, ms: number): Promise<Level> {
  const log = new AuditLog(variant === 'batched' ? { dir: folder, batchedDelayMs: 200 } : { dir: folder });
  const proto = await fileHandleProto();
  const real = proto.datasync;
  let syncs = 0;
  proto.datasync = function (this: unknown) {
    syncs++;
    return real.call(this);
  };
  const cpu0 = process.cpuUsage();
  const lat: number[] = [];
  const end = performance.now() + ms;
  let n = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        while (performance.now() - t0 < WORK_MS);
        await log.append({ kind: 'change', path: `bundles/client-${c}/${n++}.json`, op: 'update', actor: 'app', after: 'a'.repeat(64) });
        lat.push(performance.now() - t0);
        // The next call arrives as a new event, as a client's request would.
        await new Promise((r) => setImmediate(r));
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  const syncsPerCall = syncs / lat.length;
  proto.datasync = real;
  await log.close();
  return { perSecond: (lat.length * 1000) / ms, lat, cpuUs: (cpu.user + cpu.system) / lat.length, syncsPerCall };
}

/**
 * The audit writer itself (electron/core/audit/writer.ts) under a modelled host: 1 and 10
 * closed-loop clients whose calls cost WORK_MS of CPU each, durable (each call waits for its
 * record's fdatasync, group commit) beside the former batching (records written 200 ms later,
 * nobody waiting: the host bench's baseline), in alternating rounds, each on a folder of its own;
 * the writer alone, without the host's HTTP and engine, so a change to the writer can be tried
 * in a minute. Ratios are paired: each round against the batched one of the same round, the
 * median printed; CPU per call is this process's (user + system), which includes the kernel's
 * work in fdatasync.
 */
async function writerRounds(): Promise<void> {
  console.log(`  the audit writer under a modelled host (${WORK_MS} ms of CPU a call), closed loop, ${ROUNDS} alternating rounds of ${WRITER_ROUND_MS} ms`);
  for (const clients of [1, 10]) {
    const by = new Map<Variant, Level[]>(VARIANTS.map((v) => [v, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of round % 2 ? [...VARIANTS].reverse() : VARIANTS) {
        by.get(variant)!.push(await writerLevel(join(dir, `writer-${clients}-${variant.replace(/\W/g, '')}-${round}`), variant, clients, WRITER_ROUND_MS));
      }
    }
    const mid = Math.floor(ROUNDS / 2);
    for (const variant of VARIANTS) {
      const levels = by.get(variant)!;
      const m = [...levels].sort((a, b) => a.perSecond - b.perSecond)[mid]!;
      const paired = levels.map((r, i) => r.perSecond / by.get('batched')![i]!.perSecond).sort((a, b) => a - b);
      console.log(
        `  ${`${variant}, ${clients} client${clients > 1 ? 's' : ''}`.padEnd(30)} ${m.perSecond.toFixed(0).padStart(6)} calls/s   p50 ${fmt(quantile(m.lat, 0.5)).padStart(9)}   p95 ${fmt(quantile(m.lat, 0.95)).padStart(9)}   CPU/call ${m.cpuUs.toFixed(0).padStart(4)} µs   syncs/call ${m.syncsPerCall.toFixed(2)}   vs batched ${paired[mid]!.toFixed(2)}x (${paired.map((x) => x.toFixed(2)).join(' ')})`,
      );
    }
  }
}

/** Each thread's run time so far (ms), as the scheduler counts it exactly: main, libuv workers, the rest. */
async function threadRunMs(): Promise<Map<string, number>> {
  const run = new Map<string, number>();
  for (const task of await readdir('/proc/self/task')) {
    const stat = await readFile(`/proc/self/task/${task}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const ns = Number((await readFile(`/proc/self/task/${task}/schedstat`, 'utf8')).split(' ')[0]);
    const kind = name === 'MainThread' || name === 'libuv-worker' ? name : 'other';
    run.set(kind, (run.get(kind) ?? 0) + ns / 1e6);
  }
  return run;
}

/**
 * Where a durable record's CPU goes, by thread (Linux): N awaited appends, one record a batch,
 * durable beside an ablation whose fdatasync answers at once (FileHandle.prototype.datasync
 * replaced for the loop only): the main thread's extra is its idle wake, the workers' is the sync.
 */
async function byThread(): Promise<void> {
  if (process.platform !== 'linux') return;
  const proto = await fileHandleProto();
  const real = proto.datasync;
  const n = 1000;
  console.log(`  by thread (run time from /proc/self/task/*/schedstat), ${n} awaited appends, one record a batch, per record:`);
  for (const ablation of [false, true, false, true]) {
    if (ablation) proto.datasync = () => Promise.resolve();
    try {
      const log = new AuditLog({ dir: join(dir, `threads-${ablation}-${Math.random()}`) });
      await log.append({ kind: 'change', path: 'warm-up', op: 'update', actor: 'app', after: 'a'.repeat(64) });
      const before = await threadRunMs();
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await log.append({ kind: 'change', path: `bundles/${i}.json`, op: 'update', actor: 'app', after: 'a'.repeat(64) });
      const wall = performance.now() - t0;
      const after = await threadRunMs();
      await log.close();
      const per = (kind: string) => fmt(((after.get(kind) ?? 0) - (before.get(kind) ?? 0)) / n);
      console.log(
        `  ${(ablation ? 'ablation: datasync answers at once' : 'durable (as shipped)').padEnd(36)} main ${per('MainThread').padStart(7)}   libuv workers ${per('libuv-worker').padStart(7)}   other ${per('other').padStart(7)}   wall ${fmt(wall / n).padStart(8)}`,
      );
    } finally {
      proto.datasync = real;
    }
  }
  // What the main thread pays to go idle and be woken, with nothing else to do.
  const before = await threadRunMs();
  for (let i = 0; i < 300; i++) await new Promise((r) => setTimeout(r, 1));
  const after = await threadRunMs();
  console.log(
    `  ${'an idle wake alone (setTimeout 1 ms)'.padEnd(36)} main ${fmt(((after.get('MainThread') ?? 0) - (before.get('MainThread') ?? 0)) / 300).padStart(7)}`,
  );
}

export async function run(): Promise<void> {
  dir = await mkdtemp(join(process.env['TW_BENCH_FSYNC_DIR'] ?? tmpdir(), 'tw-bench-fsync-'));
  console.log(`  folder ${dir}, ${N} batches per side in turns of ${BLOCK}, record ${RECORD.length} B; load ${load()}`);
  try {
    // TW_BENCH_FSYNC_ONLY=writer: the writer under a modelled host alone (a change to the writer, tried in a minute).
    const writerOnly = process.env['TW_BENCH_FSYNC_ONLY'] === 'writer';
    for (const records of writerOnly ? [] : [1, 10]) {
      // The journal: made full size, zeroed, synced once (as a WAL segment is).
      const fd = openSync(join(dir, `journal-${records}`), 'w');
      ftruncateSync(fd, 0);
      appendSync(fd, Buffer.alloc(JOURNAL_BYTES));
      fdatasyncSync(fd);
      closeSync(fd);
      const { append, inPlace, cpuUs } = measure(records);
      for (const [label, s, cpu] of [
        ['(a) append + fdatasync', append, cpuUs.a],
        ['(b) pwrite in place (pre-zeroed) + fdatasync', inPlace, cpuUs.b],
      ] as const) {
        console.log(
          `  ${`${label}, ${records} rec/batch`.padEnd(60)} p50 ${fmt(quantile(s, 0.5)).padStart(9)}   p95 ${fmt(quantile(s, 0.95)).padStart(9)}   CPU ${cpu.toFixed(0).padStart(4)} µs`,
        );
      }
      const r50 = quantile(inPlace, 0.5) / quantile(append, 0.5);
      const r95 = quantile(inPlace, 0.95) / quantile(append, 0.95);
      console.log(`  ${`(b)/(a), ${records} rec/batch`.padEnd(60)} p50 ${r50.toFixed(2)}x     p95 ${r95.toFixed(2)}x`);
    }
    await writerRounds();
    if (!writerOnly) await byThread();
    console.log(`  load at end ${load()}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
