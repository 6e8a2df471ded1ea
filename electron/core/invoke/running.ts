/**
 * The runs in progress, across every Toolwright process on a data folder, so that
 * `POST /tools/invocations/{id}/cancel` stops a run wherever it started (the app, the host, the
 * CLI, an agent's stdio MCP server).
 *
 * Each run is a small file `<data>/invocations/<invocationID>.json` (its pid, tool and start)
 * while it goes. A process that wants another's run stopped writes
 * `<invocationID>.cancel` beside it; the owner sees it (fs.watch on the folder, with a poll as a
 * safety net), cancels the run and removes the request, which is the acknowledgement the asker
 * waits for. Both are written whole (temp file, then rename) and never fsynced: they describe
 * live processes only, and a file whose process is gone is stale and swept. A run is written
 * down once it has gone on for REGISTER_AFTER_MS: the many calls that end sooner (a function,
 * a quick API) never touch the disk, and nobody could have stopped them by hand anyway.
 */
import { promises as fsp, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { pidAlive, writeFileWhole } from '../fs/atomic.js';
import { parseJsonText } from '../fs/json-text.js';
import { setTimeout as sleep } from 'node:timers/promises';

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const CANCEL_FILE = /^([A-Za-z0-9_-]{1,64})\.cancel$/;
/** How often an owner looks for cancel requests when fs.watch says nothing. */
const POLL_MS = 500;
/** How long an asker waits for the owner's acknowledgement. */
const ACK_WAIT_MS = 3000;
const ACK_POLL_MS = 20;
/** A run is registered on disk once it has gone on this long. */
export const REGISTER_AFTER_MS = 100;

export interface RunningEntry {
  invocationID: string;
  pid: number;
  toolID: string;
  bundleID: string;
  slug: string;
  version: string;
  caller?: string;
  startedAt: string;
}

/** What the engine needs: register a run with the way to stop it; the returned function ends the registration. */
export interface RunRegistry {
  register(entry: Omit<RunningEntry, 'pid'>, cancel: () => void): () => void;
}

interface Local {
  cancel: () => void;
  /** Until the run is written down. */
  timer?: NodeJS.Timeout;
  written?: Promise<void>;
}

export class RunningInvocations implements RunRegistry {
  private readonly local = new Map<string, Local>();
  private watcher: FSWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;
  private dirReady: Promise<void> | undefined;
  private closed = false;

  constructor(
    readonly dir: string,
    private readonly onError: (what: string, error: unknown) => void = () => undefined,
  ) {}

  private entryFile(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  private cancelFile(id: string): string {
    return join(this.dir, `${id}.cancel`);
  }

  private ensureDir(): Promise<void> {
    return (this.dirReady ??= fsp.mkdir(this.dir, { recursive: true }).then(() => undefined));
  }

  register(entry: Omit<RunningEntry, 'pid'>, cancel: () => void): () => void {
    const id = entry.invocationID;
    const run: Local = { cancel };
    run.timer = setTimeout(() => {
      run.timer = undefined;
      if (this.local.get(id) !== run || this.closed) return;
      const full: RunningEntry = { ...entry, pid: process.pid };
      run.written = this.ensureDir()
        .then(() => writeFileWhole(this.entryFile(id), JSON.stringify(full)))
        .catch((e: unknown) => this.onError('registering a running invocation', e));
      this.watchRequests();
    }, REGISTER_AFTER_MS);
    run.timer.unref();
    this.local.set(id, run);
    return () => {
      if (this.local.get(id) !== run) return;
      this.local.delete(id);
      clearTimeout(run.timer);
      if (![...this.local.values()].some((r) => r.written)) this.stopWatching();
      void run.written?.then(() => Promise.all([rmQuiet(this.entryFile(id)), rmQuiet(this.cancelFile(id))]));
    };
  }

  /**
   * Asks the process running invocationID to cancel it and waits (up to 3 s) until it has
   * acknowledged. False when no live process runs it.
   */
  async requestCancel(invocationID: string): Promise<boolean> {
    if (!ID.test(invocationID)) return false;
    const owner = await this.readEntry(invocationID);
    if (!owner) return false;
    if (!pidAlive(owner.pid)) {
      await Promise.all([rmQuiet(this.entryFile(invocationID)), rmQuiet(this.cancelFile(invocationID))]);
      return false;
    }
    await writeFileWhole(this.cancelFile(invocationID), JSON.stringify({ requestedAt: new Date().toISOString(), pid: process.pid }));
    const deadline = Date.now() + ACK_WAIT_MS;
    while (Date.now() < deadline) {
      // A timer that keeps the process alive: a CLI asking must not exit before the answer.
      await sleep(ACK_POLL_MS);
      if (!(await exists(this.cancelFile(invocationID)))) return true;
      if (!(await exists(this.entryFile(invocationID)))) {
        // The run ended meanwhile: nothing left to stop, and no request left lying around.
        await rmQuiet(this.cancelFile(invocationID));
        return true;
      }
    }
    // The owner is alive but slow to answer; its poll will still find the request.
    return true;
  }

  /** Removes files of processes that are gone (run at start). */
  async sweep(): Promise<void> {
    const names = await fsp.readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      const id = /^([A-Za-z0-9_-]{1,64})\.json$/.exec(name)?.[1];
      if (!id) continue;
      const entry = await this.readEntry(id);
      if (entry && pidAlive(entry.pid)) continue;
      await Promise.all([rmQuiet(this.entryFile(id)), rmQuiet(this.cancelFile(id))]);
    }
    for (const name of names) {
      const id = CANCEL_FILE.exec(name)?.[1];
      if (id && !names.includes(`${id}.json`)) await rmQuiet(this.cancelFile(id));
    }
  }

  close(): void {
    this.closed = true;
    this.stopWatching();
  }

  private async readEntry(id: string): Promise<RunningEntry | undefined> {
    // A file is written whole, but a reader on another file system may still race its rename.
    for (let attempt = 0; attempt < 3; attempt++) {
      const text = await fsp.readFile(this.entryFile(id), 'utf8').catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : undefined));
      if (text === null) return undefined;
      const parsed = text === undefined ? undefined : parseJsonText(text);
      const entry = parsed?.ok ? (parsed.value as RunningEntry) : undefined;
      if (entry && typeof entry.pid === 'number') return entry;
      await sleep(10);
    }
    return undefined;
  }

  private watchRequests(): void {
    if (this.closed || this.poll) return;
    this.poll = setInterval(() => void this.checkAll(), POLL_MS);
    this.poll.unref();
    void this.ensureDir().then(() => {
      if (this.closed || !this.poll || this.watcher) return;
      try {
        this.watcher = watch(this.dir, { persistent: false }, (_event, name) => {
          const id = name ? CANCEL_FILE.exec(String(name))?.[1] : undefined;
          if (id) void this.check(id);
        });
        this.watcher.on('error', () => this.watcher?.close());
      } catch (e) {
        // No inotify watch left (ENOSPC) or a file system without events: the poll does the work.
        this.onError('watching for cancel requests (polling instead)', e);
      }
    });
  }

  private stopWatching(): void {
    clearInterval(this.poll);
    this.poll = undefined;
    this.watcher?.close();
    this.watcher = undefined;
  }

  private async checkAll(): Promise<void> {
    for (const [id, run] of [...this.local]) if (run.written) await this.check(id);
  }

  private async check(id: string): Promise<void> {
    const run = this.local.get(id);
    if (!run || !(await exists(this.cancelFile(id)))) return;
    run.cancel();
    await rmQuiet(this.cancelFile(id));
  }
}

async function exists(path: string): Promise<boolean> {
  return fsp.access(path).then(
    () => true,
    () => false,
  );
}

function rmQuiet(path: string): Promise<void> {
  return fsp.rm(path, { force: true }).catch(() => undefined);
}
