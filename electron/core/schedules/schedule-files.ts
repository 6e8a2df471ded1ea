/**
 * What the scheduler keeps on disk, under `<data>/scheduler/`, so every Toolwright process on
 * the data folder sees the same state:
 *
 *   lease/<generation>.json      who schedules (./lease.ts)
 *   fires/<scheduleID>/<time>    one claim per fire: created with O_EXCL, the commit point that
 *                                makes a fire run once whatever the number of schedulers
 *   runs/<scheduleID>.json       the latest fire or run: running, ok, error, refused, skipped
 *   outputs/<scheduleID>.json    the latest output (what the MCP resource serves)
 *   run-log/<scheduleID>/…       every kept run with its output (./run-log.ts)
 *   owners.json                  who created a schedule through the operations (./schedule-owners.ts)
 *
 * Records are written atomically (temp file and rename); a file that cannot be read counts as
 * absent, never as an error that stops the scheduler.
 */
import { promises as fsp } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isUuid } from '../../../shared/ids.js';
import type { ApiError } from '../../../shared/errors.js';
import type { ScheduleOutput, ScheduleRunStatus } from '../../../shared/types.js';
import { pidAlive, writeFileAtomic } from '../fs/atomic.js';
import { readJsonPath } from '../fs/json-text.js';
import { RunLog } from './run-log.js';
import { ScheduleOwners } from './schedule-owners.js';

/** The latest fire or run of a schedule, with who ran it (for overlap checks across processes). */
export interface ScheduleRunRecord {
  scheduleID: string;
  toolID: string;
  invocationID: string;
  fireAt: string | null;
  startedAt: string;
  status: ScheduleRunStatus;
  finishedAt?: string;
  durationMs?: number;
  /** Why it was refused or skipped, or how it failed. */
  error?: ApiError;
  pid: number;
  host: string;
}

/** How many fire claims are kept per schedule (older ones are only litter). */
const KEEP_CLAIMS = 20;
/** A run recorded as going is believed for this long at most (a pid may have been reused since). */
const LONGEST_RUN_MS = 6 * 60 * 60 * 1000;

export const HOST = hostname();

/** A fire time as a file name (no colons, for Windows). */
export function fireStamp(fireAt: number): string {
  return new Date(fireAt).toISOString().replace(/[:.]/g, '-');
}

export class ScheduleFiles {
  readonly runLog: RunLog;
  readonly owners: ScheduleOwners;

  constructor(readonly dir: string) {
    this.runLog = new RunLog(join(dir, 'run-log'));
    this.owners = new ScheduleOwners(dir);
  }

  get leaseDir(): string {
    return join(this.dir, 'lease');
  }
  get runsDir(): string {
    return join(this.dir, 'runs');
  }
  get outputsDir(): string {
    return join(this.dir, 'outputs');
  }
  private firesDir(scheduleID: string): string {
    return join(this.dir, 'fires', scheduleID);
  }

  async ensure(): Promise<void> {
    await Promise.all([this.leaseDir, this.runsDir, this.outputsDir].map((d) => fsp.mkdir(d, { recursive: true })));
  }

  /**
   * Claims a fire for this process: true when this call created the claim, false when any
   * process (this one included) already had. O_EXCL makes the create atomic on every OS.
   */
  async claimFire(scheduleID: string, fireAt: number, invocationID: string): Promise<boolean> {
    const dir = this.firesDir(scheduleID);
    await fsp.mkdir(dir, { recursive: true });
    try {
      await fsp.writeFile(join(dir, fireStamp(fireAt)), JSON.stringify({ invocationID, pid: process.pid, host: HOST }) + '\n', { flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
    void this.pruneClaims(dir);
    return true;
  }

  async isClaimed(scheduleID: string, fireAt: number): Promise<boolean> {
    return fsp.access(join(this.firesDir(scheduleID), fireStamp(fireAt))).then(
      () => true,
      () => false,
    );
  }

  private async pruneClaims(dir: string): Promise<void> {
    const names = (await fsp.readdir(dir).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).sort();
    await Promise.all(names.slice(0, Math.max(0, names.length - KEEP_CLAIMS)).map((n) => fsp.rm(join(dir, n), { force: true }).catch(() => undefined)));
  }

  async readRun(scheduleID: string): Promise<ScheduleRunRecord | undefined> {
    if (!isUuid(scheduleID)) return undefined;
    const r = await readJsonPath(join(this.runsDir, `${scheduleID}.json`));
    return r.kind === 'ok' && typeof (r.value as ScheduleRunRecord)?.status === 'string' ? (r.value as ScheduleRunRecord) : undefined;
  }

  async writeRun(record: ScheduleRunRecord): Promise<void> {
    await fsp.mkdir(this.runsDir, { recursive: true });
    await writeFileAtomic(join(this.runsDir, `${record.scheduleID}.json`), JSON.stringify(record, null, 2) + '\n', { skipDirSync: true });
  }

  /**
   * Whether a run recorded as going in another process is really still going: its process lives
   * (a record of this very pid is from an earlier process that had it, since this process tracks
   * its own runs in memory), and it is not older than any run can be.
   */
  static isLive(record: ScheduleRunRecord | undefined, now: number): boolean {
    if (!record || record.status !== 'running') return false;
    if (!(now - Date.parse(record.startedAt) < LONGEST_RUN_MS)) return false;
    return record.host !== HOST || (record.pid !== process.pid && pidAlive(record.pid));
  }

  async readOutput(scheduleID: string): Promise<ScheduleOutput | undefined> {
    if (!isUuid(scheduleID)) return undefined;
    const r = await readJsonPath(join(this.outputsDir, `${scheduleID}.json`));
    return r.kind === 'ok' && typeof (r.value as ScheduleOutput)?.invocationID === 'string' ? (r.value as ScheduleOutput) : undefined;
  }

  async writeOutput(output: ScheduleOutput): Promise<void> {
    await fsp.mkdir(this.outputsDir, { recursive: true });
    await writeFileAtomic(join(this.outputsDir, `${output.scheduleID}.json`), JSON.stringify(output, null, 2) + '\n', { skipDirSync: true });
  }

  /** Removes what is left of schedules that no longer exist (their claims, runs and outputs), once it is a day old. */
  async sweep(known: ReadonlySet<string>, now: number): Promise<void> {
    const old = async (path: string) => {
      const st = await fsp.stat(path).catch(() => undefined);
      return !!st && now - st.mtimeMs > 24 * 60 * 60 * 1000;
    };
    for (const [dir, suffix] of [
      [join(this.dir, 'fires'), ''],
      [this.runsDir, '.json'],
      [this.outputsDir, '.json'],
    ] as const) {
      for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
        const id = suffix ? name.slice(0, -suffix.length) : name;
        if (!isUuid(id) || known.has(id) || (suffix && !name.endsWith(suffix))) continue;
        const path = join(dir, name);
        if (await old(path)) await fsp.rm(path, { recursive: true, force: true }).catch(() => undefined);
      }
    }
    await this.runLog.sweep(known, now);
    await this.owners.sweep(known, now);
  }
}
