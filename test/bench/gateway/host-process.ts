/**
 * The gateway's benches against the host as shipped: `electron/host/serve.ts` (what `npm run
 * serve` starts) in a process of its own, as an agent meets it, driven over loopback from the
 * bench's process. `api` has the tests' host helper's shape, so the same set-up code serves
 * both. `mainThreadMs()` reads the host's main thread's time on a CPU from
 * `/proc/<pid>/schedstat` (nanoseconds, unlike `/proc/<pid>/stat`'s 10 ms ticks), so a bench can
 * tell the host's CPU per call from its own.
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestHost } from '../../helpers/host.js';
import { restCall, startServeProcess } from '../../helpers/serve-process.js';

export interface HostProcess extends Pick<TestHost, 'api' | 'url' | 'token' | 'dataDir'> {
  child: ChildProcess;
  /** The host's main thread's time on a CPU so far, in ms (NaN where the kernel does not say). */
  mainThreadMs(): number;
  /** The same for every thread of the host (the main one, libuv's workers where fdatasync runs, V8's), in ms. */
  allThreadsMs(): number;
  /** SIGTERM (the host's clean stop: a `--cpu-prof` is written then), then the data folder removed. */
  close(): Promise<void>;
}

/** `nodeOptions` go before the script (e.g. `--cpu-prof`); `env` is added to this process's. */
export async function startHostProcess(opts: { nodeOptions?: string[]; env?: Record<string, string>; dataPrefix?: string } = {}): Promise<HostProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), opts.dataPrefix ?? 'tw-bench-gateway-host-'));
  const { url, token, child, exited } = await startServeProcess(dataDir, opts.env, opts.nodeOptions);
  const schedstat = `/proc/${child.pid}/schedstat`;
  return {
    url,
    token,
    dataDir,
    child,
    api: (method, path, body, headers) => restCall({ url, token }, method, path, body, headers),
    mainThreadMs() {
      try {
        return Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1e6;
      } catch {
        return NaN;
      }
    },
    allThreadsMs() {
      try {
        const tasks = readdirSync(`/proc/${child.pid}/task`);
        return tasks.reduce((sum, t) => sum + Number(readFileSync(`/proc/${child.pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]) / 1e6, 0);
      } catch {
        return NaN;
      }
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000).unref())]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
