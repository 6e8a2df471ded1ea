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
 */
import type { ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import spawn from 'cross-spawn';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

type Sdk = typeof import('@modelcontextprotocol/client');

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
  private readonly buffer: InstanceType<Sdk['ReadBuffer']>;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly sdk: Pick<Sdk, 'ReadBuffer' | 'serializeMessage'>,
    private readonly params: GroupStdioParams,
  ) {
    this.buffer = new sdk.ReadBuffer({ maxBufferSize: params.maxBufferSize });
  }

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
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
          for (;;) {
            let message: JSONRPCMessage | null;
            try {
              message = this.buffer.readMessage();
            } catch (error) {
              this.onerror?.(error as Error);
              continue;
            }
            if (message === null) break;
            this.onmessage?.(message);
          }
        } catch (error) {
          // A line past maxBufferSize: the stream cannot be trusted any more.
          this.onerror?.(error as Error);
          void this.close();
        }
      });
      child.stderr?.pipe(this.stderr);
    });
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
    this.buffer.clear();
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
