/**
 * Who created a schedule through the operations (schedules.create): `<data>/scheduler/owners.json`,
 * `{<scheduleID>: {principal, caller, createdAt}}`, written under a lock by any process. A schedule
 * with no record was written by a person (the app, tool.json, REST's tool save) and belongs to the
 * data folder's owner. Kept beside tool.json rather than in it, so nobody can claim a schedule by
 * writing a field, and a tool that travels (export, copy) carries no principal of this machine.
 */
import { join } from 'node:path';
import { isUuid } from '../../../shared/ids.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { readJsonPath } from '../fs/json-text.js';
import { withLock } from '../fs/lock.js';

export interface ScheduleOwner {
  /** shared/caller.ts principalKey: what the schedule is served to. */
  principal: string;
  /** The caller's label when it was created (who, in words). */
  caller: string;
  createdAt: string;
}

type OwnersFile = Record<string, ScheduleOwner>;

function isOwner(v: unknown): v is ScheduleOwner {
  const o = v as ScheduleOwner;
  return typeof o === 'object' && o !== null && typeof o.principal === 'string' && typeof o.caller === 'string' && typeof o.createdAt === 'string';
}

export class ScheduleOwners {
  private readonly file: string;
  private readonly lock: string;

  constructor(dir: string) {
    this.file = join(dir, 'owners.json');
    this.lock = join(dir, 'owners.lock');
  }

  /** Every record; an unreadable file counts as empty (its schedules fall to the owner, never to someone else). */
  async all(): Promise<ReadonlyMap<string, ScheduleOwner>> {
    const r = await readJsonPath(this.file);
    const out = new Map<string, ScheduleOwner>();
    if (r.kind !== 'ok' || typeof r.value !== 'object' || r.value === null) return out;
    for (const [id, owner] of Object.entries(r.value as OwnersFile)) if (isUuid(id) && isOwner(owner)) out.set(id, owner);
    return out;
  }

  async get(scheduleID: string): Promise<ScheduleOwner | undefined> {
    return (await this.all()).get(scheduleID);
  }

  private async update(change: (records: Map<string, ScheduleOwner>) => void): Promise<void> {
    await withLock(this.lock, async () => {
      const records = new Map(await this.all());
      change(records);
      const sorted = Object.fromEntries([...records.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
      await writeFileAtomic(this.file, JSON.stringify(sorted, null, 2) + '\n');
    });
  }

  set(scheduleID: string, owner: ScheduleOwner): Promise<void> {
    return this.update((r) => void r.set(scheduleID, owner));
  }

  remove(scheduleID: string): Promise<void> {
    return this.update((r) => void r.delete(scheduleID));
  }

  /** Forgets records of schedules that no longer exist, once a day old (a record is written just before its schedule). */
  async sweep(known: ReadonlySet<string>, now: number): Promise<void> {
    const gone = (id: string, o: ScheduleOwner) => !known.has(id) && now - Date.parse(o.createdAt) > 24 * 60 * 60 * 1000;
    if (![...(await this.all()).entries()].some(([id, o]) => gone(id, o))) return;
    await this.update((r) => {
      for (const [id, o] of [...r.entries()]) if (gone(id, o)) r.delete(id);
    });
  }
}
