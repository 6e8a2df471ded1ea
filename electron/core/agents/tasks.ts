/**
 * Agents' tasks (MCP's tasks extension): a call an agent started and then polls, answers and
 * cancels by id. Each is a file `<data>/tasks/<taskId>.json`, so any process on the data folder
 * (the host, the app, an agent's stdio server) can answer for it, and a task outlives the
 * connection that started it. The process that runs the call (its owner, `pid`) writes how it
 * goes; any process may write a cancel or mark an answer given. Every change is made under the
 * file's lock and a finished task is never changed again, so a cancel and a result cannot both
 * win. A finished task is kept `ttlMs` after it ended, then removed; a task whose owner died
 * before it finished reads as failed.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { pidAlive, writeFileAtomic } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import { readJsonPath } from '../fs/json-text.js';
import type { Caller } from '../../../shared/caller.js';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export interface TaskRecord {
  taskId: string;
  /** The MCP audience (its key) that started it; only that audience may see it. */
  audience: string;
  /** The principal whose call started it (shared/caller.ts principalKey); only it may see, answer or cancel it. */
  principal: string;
  /** The process that runs it. */
  pid: number;
  /** The MCP tool name called, and the invocation that runs it (cancel goes through the invocations registry). */
  tool: string;
  invocationID: string;
  /** Who started it. */
  caller: Caller;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  /** The approval this task waits for, and whether a client already answered it through tasks/update. */
  approvalID?: string;
  inputAnswered?: boolean;
  inputRequests?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);
const TASK_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** JSON-RPC's internal error: what a task that could not finish reports. */
const INTERNAL_ERROR = -32603;

export const isFinished = (status: TaskStatus): boolean => TERMINAL.has(status);

export type TaskChange = Partial<Omit<TaskRecord, 'taskId' | 'audience' | 'principal' | 'caller' | 'pid' | 'createdAt'>>;

export class TaskStore {
  constructor(
    private readonly dir: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private file(taskId: string): string {
    return join(this.dir, `${taskId}.json`);
  }

  private lock(taskId: string): string {
    return join(this.dir, `.${taskId}.lock`);
  }

  private async load(taskId: string): Promise<TaskRecord | undefined> {
    const read = await readJsonPath(this.file(taskId));
    return read.kind === 'ok' ? (read.value as TaskRecord) : undefined;
  }

  private async save(task: TaskRecord): Promise<void> {
    await writeFileAtomic(this.file(task.taskId), JSON.stringify(task, null, 2));
  }

  private expired(task: TaskRecord, now: number): boolean {
    return isFinished(task.status) && Date.parse(task.lastUpdatedAt) + task.ttlMs <= now;
  }

  async create(task: Omit<TaskRecord, 'pid' | 'createdAt' | 'lastUpdatedAt'>): Promise<TaskRecord> {
    const now = this.clock().toISOString();
    const full: TaskRecord = { ...task, pid: process.pid, createdAt: now, lastUpdatedAt: now };
    await fsp.mkdir(this.dir, { recursive: true });
    await this.save(full);
    return full;
  }

  /**
   * The task as it stands, or undefined when there is none (never was, or its ttl ran out: then
   * it is removed now). A task whose owner process is gone is marked failed first.
   */
  async get(taskId: string): Promise<TaskRecord | undefined> {
    if (!TASK_ID.test(taskId)) return undefined;
    const task = await this.load(taskId);
    if (!task) return undefined;
    if (this.expired(task, this.clock().getTime())) {
      await this.remove(taskId);
      return undefined;
    }
    if (!isFinished(task.status) && !pidAlive(task.pid)) {
      const failed = await this.update(taskId, () => ({
        status: 'failed',
        error: { code: INTERNAL_ERROR, message: `The Toolwright process that ran this task (pid ${task.pid}) ended before the task finished.` },
      }));
      return failed?.task;
    }
    return task;
  }

  /**
   * Changes a task under its lock. `change` sees the current record and returns the change, or
   * undefined to leave it; a finished task is never changed. Answers the record after, and
   * whether it changed; undefined when there is no such task.
   */
  async update(taskId: string, change: (current: TaskRecord) => TaskChange | undefined): Promise<{ task: TaskRecord; changed: boolean } | undefined> {
    if (!TASK_ID.test(taskId)) return undefined;
    await fsp.mkdir(this.dir, { recursive: true });
    return withLock(this.lock(taskId), async () => {
      const current = await this.load(taskId);
      if (!current) return undefined;
      const patch = isFinished(current.status) ? undefined : change(current);
      if (!patch) return { task: current, changed: false };
      const next: TaskRecord = { ...current, ...patch, lastUpdatedAt: this.clock().toISOString() };
      for (const key of Object.keys(next) as (keyof TaskRecord)[]) if (next[key] === undefined) delete next[key];
      await this.save(next);
      return { task: next, changed: true };
    });
  }

  /** Removes the finished tasks whose ttl ran out. */
  async sweep(): Promise<void> {
    const names = await fsp.readdir(this.dir).catch(() => [] as string[]);
    const now = this.clock().getTime();
    for (const name of names) {
      const id = /^([A-Za-z0-9_-]{1,64})\.json$/.exec(name)?.[1];
      if (!id) continue;
      const task = await this.load(id).catch(() => undefined);
      if (task && this.expired(task, now)) await this.remove(id);
    }
  }

  private async remove(taskId: string): Promise<void> {
    await fsp.rm(this.file(taskId), { force: true }).catch(() => undefined);
  }
}
