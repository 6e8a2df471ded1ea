/**
 * One scheduler per data folder, whatever runs on it (the app, the headless host, MCP servers
 * agents start): the holder of the lease schedules, the others stand by.
 *
 * The lease is a numbered file, `<data>/scheduler/lease/<generation>.json`; the highest number is
 * the lease. Its holder rewrites it every few seconds (renewedAt). A lease is stale when it was not
 * renewed within its time to live, when its holder process is gone from this machine, or when its
 * holder released it; then anyone may take it over by publishing the next generation with link(),
 * which refuses to overwrite, so of several processes taking over at once (or starting at the same
 * instant) exactly one wins. A holder that finds a higher generation has lost the lease and stands
 * by. Should two processes still believe they hold it for a moment (a holder frozen past its time to
 * live), each fire's claim (schedule-files.ts) keeps a fire from running twice.
 *
 * The lease also carries `checkedThrough`: up to when its holder handled the fires. The next holder
 * starts its catch-up from there.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { pidAlive, publishExclusive, writeFileAtomic } from '../fs/atomic.js';
import { readJsonPath } from '../fs/json-text.js';
import { HOST } from './schedule-files.js';

export interface LeaseHolder {
  /** Random per scheduler instance (a pid can be reused). */
  id: string;
  pid: number;
  host: string;
  startedAt: string;
}

export interface LeaseFile {
  generation: number;
  holder: LeaseHolder;
  /** Wall-clock time of the last renewal. */
  renewedAt: string;
  /** Fires up to this time (on the scheduler's clock) were handled; null before the first tick. */
  checkedThrough: string | null;
  /** Set when the holder stopped cleanly: the lease may be taken at once. */
  released?: boolean;
}

const NAME = /^(\d{12})\.json$/;

export class SchedulerLease {
  constructor(
    private readonly dir: string,
    private readonly ttlMs: number,
    private readonly realNow: () => number = Date.now,
  ) {}

  private path(generation: number): string {
    return join(this.dir, `${String(generation).padStart(12, '0')}.json`);
  }

  private async generations(): Promise<number[]> {
    const names = await fsp.readdir(this.dir).catch(() => [] as string[]);
    return names
      .map((n) => NAME.exec(n)?.[1])
      .filter((g): g is string => g !== undefined)
      .map(Number)
      .sort((a, b) => b - a);
  }

  /** The lease as it stands: the highest generation (an unreadable one counts as stale). */
  async current(): Promise<LeaseFile | { generation: number; unreadable: true } | undefined> {
    const [top] = await this.generations();
    if (top === undefined) return undefined;
    const read = await readJsonPath(this.path(top));
    const value = read.kind === 'ok' ? (read.value as LeaseFile) : undefined;
    if (!value || typeof value.renewedAt !== 'string' || typeof value.holder?.id !== 'string') return { generation: top, unreadable: true };
    return { ...value, generation: top };
  }

  isStale(lease: LeaseFile): boolean {
    if (lease.released) return true;
    if (this.realNow() - Date.parse(lease.renewedAt) > this.ttlMs) return true;
    return lease.holder.host === HOST && !pidAlive(lease.holder.pid);
  }

  /**
   * Takes the lease when it is free or stale. Answers the lease taken over (for catch-up), or
   * `held` with the live lease of another scheduler.
   */
  async tryAcquire(
    holder: LeaseHolder,
    checkedThrough: string | null,
  ): Promise<{ acquired: true; generation: number; previous?: LeaseFile } | { acquired: false }> {
    await fsp.mkdir(this.dir, { recursive: true });
    const current = await this.current();
    const previous = current && !('unreadable' in current) ? current : undefined;
    if (previous && previous.holder.id !== holder.id && !this.isStale(previous)) return { acquired: false };
    const generation = (current?.generation ?? 0) + 1;
    const file: LeaseFile = {
      generation,
      holder,
      renewedAt: new Date(this.realNow()).toISOString(),
      checkedThrough: previous?.checkedThrough ?? checkedThrough,
    };
    if (!(await publishExclusive(this.path(generation), JSON.stringify(file, null, 2) + '\n'))) return { acquired: false };
    void this.prune(generation);
    return { acquired: true, generation, ...(previous ? { previous } : {}) };
  }

  /** Renews the lease; false when another scheduler took it (a higher generation exists). */
  async renew(generation: number, holder: LeaseHolder, checkedThrough: string | null, released = false): Promise<boolean> {
    const [top] = await this.generations();
    if (top !== undefined && top > generation) return false;
    const file: LeaseFile = {
      generation,
      holder,
      renewedAt: new Date(this.realNow()).toISOString(),
      checkedThrough,
      ...(released ? { released: true } : {}),
    };
    await writeFileAtomic(this.path(generation), JSON.stringify(file, null, 2) + '\n', { skipDirSync: true });
    return true;
  }

  /** Old generations are history only; a few are kept for whoever reads the folder. */
  private async prune(generation: number): Promise<void> {
    for (const g of await this.generations()) {
      if (g < generation - 3) await fsp.rm(this.path(g), { force: true }).catch(() => undefined);
    }
  }
}
