/**
 * The gateway's benches against the host as shipped: `electron/host/serve.ts` (what `npm run
 * serve` starts) in a process of its own, as an agent meets it, driven over loopback from the
 * bench's process. `api` has the tests' host helper's shape, so the same set-up code serves
 * both. `mainThreadMs()` reads the host's main thread's time on a CPU from
 * `/proc/<pid>/schedstat` (nanoseconds, unlike `/proc/<pid>/stat`'s 10 ms ticks), so a bench can
 * tell the host's CPU per call from its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeArgsFor, ROOT } from '../../helpers/procs.js';
import type { TestHost } from '../../helpers/host.js';

export interface HostProcess extends Pick<TestHost, 'api' | 'url' | 'token' | 'dataDir'> {
  child: ChildProcess;
  /** The host's main thread's time on a CPU so far, in ms (NaN where the kernel does not say). */
  mainThreadMs(): number;
  /** SIGTERM (the host's clean stop: a `--cpu-prof` is written then), then the data folder removed. */
  close(): Promise<void>;
}

/** `nodeOptions` go before the script (e.g. `--cpu-prof`); `env` is added to this process's. */
export async function startHostProcess(opts: { nodeOptions?: string[]; env?: Record<string, string>; dataPrefix?: string } = {}): Promise<HostProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), opts.dataPrefix ?? 'tw-bench-gateway-host-'));
  const token = 'bench-gateway-' + Math.random().toString(36).slice(2);
  const child = spawn(process.execPath, [...(opts.nodeOptions ?? []), ...nodeArgsFor('electron/host/serve.ts'), '--data-dir', dataDir, '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, TOOLWRIGHT_TOKEN: token, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (b: Buffer) => {
      output += b.toString();
      const m = /Toolwright listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the host exited with ${code} before listening:\n${output}`)));
  });
  const schedstat = `/proc/${child.pid}/schedstat`;
  return {
    url,
    token,
    dataDir,
    child,
    async api(method, path, body, headers = {}) {
      const res = await fetch(url + path, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON
      }
      return { status: res.status, body: parsed as any, headers: res.headers };
    },
    mainThreadMs() {
      try {
        return Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1e6;
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
