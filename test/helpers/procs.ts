/** Spawns TypeScript helpers as real OS processes (node + tsx), and reads their JSON lines. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function spawnTs(script: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: Record<string, unknown>[];
  stderr: string;
}

export function collect(child: ChildProcess): {
  done: Promise<Finished>;
  lines: Record<string, unknown>[];
  onLine: (fn: (l: Record<string, unknown>) => void) => void;
} {
  const lines: Record<string, unknown>[] = [];
  const listeners: ((l: Record<string, unknown>) => void)[] = [];
  let buf = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (!line.trim()) continue;
      try {
        const obj = JSON.parse(line) as Record<string, unknown>;
        lines.push(obj);
        for (const l of listeners) l(obj);
      } catch {
        // not ours
      }
    }
  });
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Finished>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, lines, stderr })));
  return { done, lines, onLine: (fn) => listeners.push(fn) };
}
