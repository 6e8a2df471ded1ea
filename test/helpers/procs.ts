/** Spawns TypeScript helpers as real OS processes, and reads their JSON lines. */
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledPathOf } from './compiled-scripts.js';

// From the string, not `new URL`: under jsdom (the renderer's tests load this through the set-up file) URL is jsdom's.
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs the script's bundle from the test run's global set-up, or the source through tsx when there is none. */
export function nodeArgsFor(script: string): string[] {
  const compiled = compiledPathOf(ROOT, script);
  return compiled ? [compiled] : ['--import', 'tsx', join(ROOT, script)];
}

/**
 * The node arguments that start the `toolwright` CLI: the bundle of bin/toolwright.js's work
 * (test/helpers/cli-main.ts). Tests that are about the command itself start bin/toolwright.js.
 */
export function toolwrightArgs(): string[] {
  return nodeArgsFor('test/helpers/cli-main.ts');
}

/**
 * Starts `toolwright <args>` on a data folder (the compiled CLI, or `entry` such as [bin/toolwright.js] for
 * the command as installed), its stdin a pipe that `input` (if given) is written to and then closed.
 */
export function startToolwright(dataDir: string, args: string[], opts: { entry?: string[]; input?: string } = {}): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [...(opts.entry ?? toolwrightArgs()), '--data-dir', dataDir, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  // A command that exits before reading its stdin closes the pipe: that is not the test's failure.
  child.stdin.on('error', () => undefined);
  child.stdin.end(opts.input ?? '');
  return child;
}

export interface ToolwrightRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `toolwright <args>` on a data folder to its end: exit code and everything it printed (`onStdout` sees it grow). */
export function runToolwright(
  dataDir: string,
  args: string[],
  opts: { entry?: string[]; input?: string; onStdout?: (soFar: string) => void } = {},
): Promise<ToolwrightRun> {
  return new Promise((resolve, reject) => {
    const child = startToolwright(dataDir, args, opts);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      opts.onStdout?.(stdout);
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const running = new Set<ChildProcess>();

/**
 * Kills the workers a test file left running (workers-killed.setup.ts, after each file): a test
 * that timed out leaves its worker behind (a churn worker writes until killed), eating the CPU the
 * next files need.
 */
export function killLeftWorkers(): void {
  for (const child of running) child.kill('SIGKILL');
}

export function spawnTs(
  script: string,
  args: string[],
  env: Record<string, string> = {},
  opts: { stdin?: 'pipe'; /** Node's own options, before the script (e.g. `--cpu-prof`). */ nodeOptions?: string[] } = {},
): ChildProcess {
  const child = spawn(process.execPath, [...(opts.nodeOptions ?? []), ...nodeArgsFor(script), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: [opts.stdin ?? 'ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
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

/**
 * Starts one worker per argument list (race-worker.ts), waits until every one has loaded and said
 * {ready: true}, then lets them all go at once (it ends their stdin), and returns each one's end
 * without the ready line. The race starts when the last one is ready, not after a guessed delay.
 */
export async function runTogether(script: string, argsOfEach: string[][], env: Record<string, string> = {}): Promise<Finished[]> {
  const children = argsOfEach.map((args) => spawnTs(script, args, { ...env, RACE_GO: 'stdin' }, { stdin: 'pipe' }));
  const runs = children.map((child) => collect(child));
  const ready = runs.map(
    (run) =>
      new Promise<void>((resolve, reject) => {
        run.onLine((l) => l['ready'] === true && resolve());
        void run.done.then((d) => reject(new Error(`a worker ended before it was ready (code ${d.code}): ${d.stderr}${JSON.stringify(d.lines)}`)));
      }),
  );
  try {
    await Promise.all(ready);
  } catch (e) {
    for (const child of children) child.kill('SIGKILL');
    throw e;
  }
  for (const child of children) child.stdin!.end();
  const done = await Promise.all(runs.map((r) => r.done));
  return done.map((d) => ({ ...d, lines: d.lines.filter((l) => l['ready'] !== true) }));
}
