/**
 * The stdio transport of an upstream MCP server, started in a process group of its own so that
 * stopping it stops everything it started. The SDK's StdioClientTransport signals only the
 * process it spawned: a server behind `npx`, `uvx` or a shell script, or one that starts helpers,
 * leaves those running; and a server that hangs before answering `initialize` outlived the
 * failed start entirely (the SDK's Client does not close a transport whose connect is pending).
 * This one speaks the same newline-delimited JSON-RPC (the SDK's ReadBuffer and serializer), and
 * its close ends stdin, then signals the whole group: SIGTERM, and SIGKILL to whatever is left
 * after a grace period. On Windows, where there are no process groups, the tree is ended with
 * `taskkill /T /F`. Commands are resolved as the SDK resolves them (cross-spawn: `.cmd` shims,
 * PATHEXT), so what started before still starts.
 *
 * It also carries the hot path of tools/call past the SDK's Client (`request`, issue 32 point 5):
 * the answer and progress of such a request come back to its caller as plain JSON, not through
 * the SDK's zod parse of every message; everything else (the handshake, lists, the server's own
 * requests and notifications) reaches the Client as before, validated by the SDK.
 */
import type { ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import spawn from 'cross-spawn';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { isPlainObject } from '../../../../shared/plain-object.js';

type Sdk = typeof import('@modelcontextprotocol/client');

/** The answer to a request sent with `request`: a JSON-RPC response as the server wrote it, unchecked. */
export type DirectAnswer = Record<string, unknown>;

interface DirectCall {
  resolve(answer: DirectAnswer): void;
  reject(error: Error): void;
  onProgress?: (params: Record<string, unknown>) => void;
}

export interface GroupStdioParams {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  maxBufferSize: number;
}

/** How long a stopping server may take to exit by itself after its stdin is closed, then after SIGTERM. */
export const STOP_GRACE_MS = 2000;

const isWindows = process.platform === 'win32';

/** Signals every process of a group; false when the group has no process left. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  /** The server's stderr, readable before start (the SDK's transport offers the same). */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  /** The start of a line not ended yet. */
  private partial: Buffer | undefined;
  private closing: Promise<void> | undefined;
  /** Requests sent with `request`, by id: their answers and progress skip the SDK's Client. */
  private readonly direct = new Map<string, DirectCall>();
  private directCount = 0;
  /** Ids given up on (cancelled, timed out), so that a late answer is dropped quietly; the newest few hundred. */
  private readonly forgotten = new Set<string>();

  constructor(
    private readonly sdk: Pick<Sdk, 'parseJSONRPCMessage' | 'serializeMessage'>,
    private readonly params: GroupStdioParams,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('GroupStdioTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args, {
        env: this.params.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        // A new process group (and session) led by the server: its pid is the group's id.
        detached: !isWindows,
        windowsHide: true,
        ...(this.params.cwd ? { cwd: this.params.cwd } : {}),
      });
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        if (this.child === child) this.child = undefined;
        this.onclose?.();
        this.dropDirect(new Error('Connection closed'));
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr?.pipe(this.stderr);
    });
  }

  /** Newline-delimited JSON-RPC, as the SDK's ReadBuffer reads it: a line that is not JSON is skipped. */
  private read(chunk: Buffer): void {
    if ((this.partial?.length ?? 0) + chunk.length > this.params.maxBufferSize) {
      // A line past maxBufferSize: the stream cannot be trusted any more.
      this.partial = undefined;
      this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${this.params.maxBufferSize} bytes`));
      void this.close();
      return;
    }
    const buffer = this.partial ? Buffer.concat([this.partial, chunk]) : chunk;
    let start = 0;
    for (let end = buffer.indexOf(10); end !== -1; end = buffer.indexOf(10, start)) {
      const line = buffer.toString('utf8', start, end > start && buffer[end - 1] === 13 ? end - 1 : end);
      start = end + 1;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      if (this.direct.size && this.routeDirect(value)) continue;
      let message: JSONRPCMessage;
      try {
        message = this.sdk.parseJSONRPCMessage(value);
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      this.onmessage?.(message);
    }
    this.partial = start < buffer.length ? buffer.subarray(start) : undefined;
  }

  /** The answer or a progress notification of a request sent with `request`: handed to its caller. */
  private routeDirect(value: unknown): boolean {
    if (!isPlainObject(value) || value['jsonrpc'] !== '2.0') return false;
    const id = value['id'];
    if (typeof id === 'string' && !('method' in value)) {
      const call = this.direct.get(id);
      if (!call) return this.forgotten.delete(id);
      this.direct.delete(id);
      call.resolve(value);
      return true;
    }
    const params = value['params'];
    if (value['method'] === 'notifications/progress' && isPlainObject(params) && typeof params['progressToken'] === 'string') {
      const call = this.direct.get(params['progressToken']);
      if (!call) return this.forgotten.has(params['progressToken']);
      call.onProgress?.(params);
      return true;
    }
    return false;
  }

  private dropDirect(error: Error): void {
    const calls = [...this.direct.values()];
    this.direct.clear();
    for (const call of calls) call.reject(error);
  }

  /**
   * Sends a request whose answer (and progress, when `message(id)` names `id` as its progress
   * token) comes back to the caller as the server wrote it. The id is a string of this
   * transport's own, so it never meets the SDK Client's numeric ids. `forget` stops waiting
   * (a cancel, a timeout): a late answer is then dropped.
   */
  request(
    message: (id: string) => JSONRPCMessage,
    onProgress?: (params: Record<string, unknown>) => void,
  ): { id: string; answer: Promise<DirectAnswer>; forget(): void } {
    const id = `tw-${++this.directCount}`;
    const answer = new Promise<DirectAnswer>((resolve, reject) => {
      this.direct.set(id, { resolve, reject, ...(onProgress ? { onProgress } : {}) });
      this.send(message(id)).catch((error: unknown) => {
        this.direct.delete(id);
        reject(error as Error);
      });
    });
    const forget = () => {
      if (!this.direct.delete(id)) return;
      this.forgotten.add(id);
      if (this.forgotten.size > 256) this.forgotten.delete(this.forgotten.values().next().value!);
    };
    return { id, answer, forget };
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closing) return reject(new Error('Not connected'));
      if (stdin.write(this.sdk.serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Stops the server and everything in its group: end of input first, as the protocol's shutdown asks. */
  close(): Promise<void> {
    this.closing ??= this.stop(true);
    return this.closing;
  }

  /** Stops a server that failed to start: it is not asked, its group is signalled at once. */
  kill(): Promise<void> {
    this.closing ??= this.stop(false);
    return this.closing;
  }

  private async stop(gently: boolean): Promise<void> {
    const child = this.child;
    this.partial = undefined;
    if (!child?.pid) return;
    const pid = child.pid;
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    const leaderExits = (ms: number) => Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
    try {
      child.stdin?.end();
    } catch {
      // The pipe is gone already: the signals below still apply.
    }
    if (isWindows) {
      if (!gently || !(await leaderExits(STOP_GRACE_MS))) await taskkillTree(pid);
      await leaderExits(STOP_GRACE_MS);
    } else {
      if (gently) await leaderExits(STOP_GRACE_MS);
      // The server may be gone and its helpers not: the group outlives its leader.
      if (signalGroup(pid, 'SIGTERM') && !(await groupEnds(pid, STOP_GRACE_MS))) signalGroup(pid, 'SIGKILL');
      await leaderExits(STOP_GRACE_MS);
    }
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
}

/** Whether every process of the group has exited within `ms` (a zombie not yet reaped still counts as there). */
async function groupEnds(pgid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!signalGroup(pgid, 0)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !signalGroup(pgid, 0);
}

async function taskkillTree(pid: number): Promise<void> {
  await new Promise<void>((resolve) => {
    const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    killer.on('error', () => resolve());
    killer.on('close', () => resolve());
  });
}
