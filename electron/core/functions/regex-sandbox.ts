/**
 * Runs user regular expressions in a worker thread with a time budget.
 *
 * Why a worker and not a static "no nested quantifiers" rule: catastrophic backtracking also
 * comes from overlapping alternations ((a|a)*, (a|ab)*c) and back-references, which a lint
 * misses, while the lint would refuse harmless patterns such as (\d+,)*. V8's linear-time
 * engine is not enabled in Node or Electron by default, and a vm timeout would block the
 * main process for the whole budget. A worker can be terminated mid-match, so a runaway
 * pattern costs one worker restart (~20 ms) and never stalls the app.
 *
 * One long-lived worker serves calls one at a time; the budget starts when a call reaches the
 * worker, so time spent queued behind another call does not count against it.
 */
import { Worker } from 'node:worker_threads';
import { CoreError, cancelledError } from '../errors.js';

export interface RegexJob {
  pattern: string;
  flags: string;
  text: string;
  maxMatches: number;
}

export interface RegexMatch {
  match: string;
  index: number;
  end: number;
  groups: (string | null)[];
  groupIndices: ([number, number] | null)[];
  namedGroups: Record<string, string | null>;
}

export interface RegexOutcome {
  matches: RegexMatch[];
  truncated: boolean;
}

// Plain JavaScript evaluated in the worker: no file to locate after bundling, no TS loader needed.
// (process.getBuiltinModule rather than CommonJS loading, for the same reason as card/server-sanitizer.ts.)
const WORKER_SOURCE = `
const { parentPort } = process.getBuiltinModule('node:worker_threads');
parentPort.on('message', ({ id, pattern, flags, text, maxMatches }) => {
  let re;
  try {
    re = new RegExp(pattern, flags.includes('d') ? flags : flags + 'd');
  } catch (e) {
    // Report the error as the caller wrote the pattern, without the 'd' flag added for indices.
    let message = String(e && e.message);
    try { new RegExp(pattern, flags); } catch (plain) { message = String(plain && plain.message); }
    parentPort.postMessage({ id, syntaxError: message });
    return;
  }
  const all = re.global;
  const matches = [];
  let truncated = false;
  for (;;) {
    const m = re.exec(text);
    if (!m) break;
    if (matches.length >= maxMatches) { truncated = true; break; }
    const groups = [];
    const groupIndices = [];
    for (let i = 1; i < m.length; i++) {
      groups.push(m[i] === undefined ? null : m[i]);
      const ix = m.indices[i];
      groupIndices.push(ix === undefined ? null : [ix[0], ix[1]]);
    }
    const namedGroups = Object.create(null);
    if (m.groups) for (const k of Object.keys(m.groups)) namedGroups[k] = m.groups[k] === undefined ? null : m.groups[k];
    matches.push({ match: m[0], index: m.index, end: m.index + m[0].length, groups, groupIndices, namedGroups });
    if (!all) break;
    if (m[0] === '') {
      const unicode = re.unicode || re.unicodeSets;
      const cp = unicode ? text.codePointAt(re.lastIndex) : undefined;
      re.lastIndex += cp !== undefined && cp > 0xffff ? 2 : 1;
    }
  }
  parentPort.postMessage({ id, matches, truncated });
});
`;

interface Pending {
  id: number;
  job: RegexJob;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  resolve: (o: RegexOutcome) => void;
  reject: (e: unknown) => void;
  timer?: NodeJS.Timeout;
  onAbort?: () => void;
}

type WorkerReply = { id: number; syntaxError?: string; matches?: RegexMatch[]; truncated?: boolean };

export class RegexSandbox {
  private worker: Worker | undefined;
  private readonly queue: Pending[] = [];
  private current: Pending | undefined;
  private nextID = 1;
  private workerOnline = false;
  /** Times a worker was started; lets tests see that a runaway pattern cost a restart. */
  workerStarts = 0;

  run(job: RegexJob, timeoutMs: number, signal?: AbortSignal): Promise<RegexOutcome> {
    if (signal?.aborted) return Promise.reject(cancelledError());
    return new Promise<RegexOutcome>((resolve, reject) => {
      const pending: Pending = { id: this.nextID++, job, timeoutMs, signal, resolve, reject };
      if (signal) {
        pending.onAbort = () => this.fail(pending, cancelledError());
        signal.addEventListener('abort', pending.onAbort, { once: true });
      }
      this.queue.push(pending);
      this.pump();
    });
  }

  /** Stops the worker, failing calls still in flight; later calls start a new one. */
  async close(): Promise<void> {
    const inFlight = [...(this.current ? [this.current] : []), ...this.queue.splice(0)];
    this.current = undefined;
    const w = this.worker;
    this.worker = undefined;
    for (const pending of inFlight) {
      this.settle(pending);
      pending.reject(new CoreError('CANCELLED', 'the regex sandbox was shut down'));
    }
    if (w) await w.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    // A cap on the heap keeps a huge capture list from exhausting the app's memory.
    const worker = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 128 } });
    this.workerStarts++;
    this.workerOnline = false;
    worker.once('online', () => {
      if (worker !== this.worker) return;
      this.workerOnline = true;
      const waiting = this.current;
      if (waiting && !waiting.timer) this.startBudget(waiting);
    });
    worker.unref();
    worker.on('message', (reply: WorkerReply) => this.onReply(worker, reply));
    worker.on('error', (err) => this.onWorkerDeath(worker, err));
    worker.on('exit', () => this.onWorkerDeath(worker, undefined));
    this.worker = worker;
    return worker;
  }

  private pump(): void {
    if (this.current) return;
    if (this.queue.length === 0) {
      this.worker?.unref(); // an idle worker must not keep the process alive
      return;
    }
    const pending = this.queue.shift()!;
    this.current = pending;
    const { job } = pending;
    const worker = this.ensureWorker();
    worker.ref();
    worker.postMessage({ id: pending.id, pattern: job.pattern, flags: job.flags, text: job.text, maxMatches: job.maxMatches });
    // A fresh worker needs tens of milliseconds to boot; the budget is for matching only.
    if (this.workerOnline) this.startBudget(pending);
  }

  private startBudget(pending: Pending): void {
    pending.timer = setTimeout(() => {
      this.fail(
        pending,
        new CoreError(
          'TIMEOUT',
          `the pattern ran longer than ${pending.timeoutMs} ms and was stopped; this is usually catastrophic backtracking ` +
            'from nested or overlapping quantifiers such as (a+)+ or (a|a)*: make the repeated part unambiguous',
        ),
      );
    }, pending.timeoutMs);
  }

  private settle(pending: Pending): void {
    if (pending.timer) clearTimeout(pending.timer);
    if (pending.onAbort) pending.signal?.removeEventListener('abort', pending.onAbort);
  }

  /** Rejects a call; if it is the one running, the worker is killed so the runaway match stops. */
  private fail(pending: Pending, error: unknown): void {
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) this.queue.splice(queued, 1);
    else if (this.current === pending) {
      this.current = undefined;
      const w = this.worker;
      this.worker = undefined;
      void w?.terminate();
    } else return; // already settled
    this.settle(pending);
    pending.reject(error);
    this.pump();
  }

  private onReply(worker: Worker, reply: WorkerReply): void {
    const pending = this.current;
    if (worker !== this.worker || !pending || pending.id !== reply.id) return;
    this.current = undefined;
    this.settle(pending);
    if (reply.syntaxError !== undefined) {
      pending.reject(
        new CoreError('INVALID_ARGS', `pattern or flags are invalid: ${reply.syntaxError}`, {
          issues: [{ field: 'args.pattern', message: reply.syntaxError }],
        }),
      );
    } else pending.resolve({ matches: reply.matches ?? [], truncated: reply.truncated ?? false });
    this.pump();
  }

  private onWorkerDeath(worker: Worker, err: Error | undefined): void {
    if (worker !== this.worker) return; // a worker we terminated on purpose
    this.worker = undefined;
    const pending = this.current;
    if (!pending) return;
    this.current = undefined;
    this.settle(pending);
    const outOfMemory = (err as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
    pending.reject(
      new CoreError(
        'INTERNAL',
        outOfMemory
          ? 'the match ran out of memory (over 128 MB); use a narrower pattern, fewer capture groups or a smaller maxMatches'
          : `the regex worker stopped unexpectedly${err ? `: ${err.message}` : ''}`,
      ),
    );
    this.pump();
  }
}
