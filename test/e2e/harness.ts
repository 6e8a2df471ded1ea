/**
 * End-to-end plumbing: the real headless host (what `npm run serve` starts) on a temporary data directory,
 * REST calls to it, and page helpers. One host and one browser context serve a whole test file
 * (fixture.ts sets them up), so the suite stays quick on 2 cores.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { buildRestRequest } from '../../shared/rest.js';
import type { OpInput, OpName, OpOutput } from '../../shared/operations.js';
import { nodeArgsFor } from '../helpers/procs.js';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable } from './chromium.js';

export interface Host {
  url: string;
  token: string;
  dataDir: string;
  process: ChildProcess;
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts the headless host as `npm run serve -- --data-dir <tmp> --port 0` would (serve.ts, from
 * the run's compiled bundle: npm and tsx cost seconds per start) and waits for its "listening" line.
 */
export async function startHost(opts: { dataDir?: string } = {}): Promise<Host> {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'tw-e2e-data-')));
  const token = randomBytes(18).toString('base64url');
  const child = spawn(process.execPath, [...nodeArgsFor('electron/host/serve.ts'), '--data-dir', dataDir, '--port', '0'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, TOOLWRIGHT_TOKEN: token, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host did not start within 180 s:\n${output}`)), 180_000);
    const onData = (b: Buffer) => {
      output += b.toString();
      const m = /Toolwright listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`host exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    url,
    token,
    dataDir,
    process: child,
    log: () => output,
    async stop() {
      if (child.exitCode === null && child.pid) {
        const exited = new Promise((r) => child.once('exit', r));
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
      if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error?: { code: string; message: string; details?: unknown } },
  ) {
    super(`${status} ${body.error?.code ?? ''}: ${body.error?.message ?? JSON.stringify(body)}`);
  }
}

/** Calls one operation over REST, as a script or another process would. */
export async function api<N extends OpName>(host: Host, name: N, input: OpInput<N>): Promise<OpOutput<N>> {
  const req = buildRestRequest(name, input);
  const res = await fetch(host.url + req.url, {
    method: req.method,
    headers: { ...req.headers, Authorization: `Bearer ${host.token}`, ...(req.body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    body: req.body !== undefined ? JSON.stringify(req.body) : undefined,
  });
  if (res.status === 204) return { deleted: true } as OpOutput<N>;
  const body = (await res.json()) as unknown;
  if (!res.ok) throw new RestError(res.status, body as RestError['body']);
  if (name === 'bundles.put') return { bundle: body, created: res.status === 201 } as unknown as OpOutput<N>;
  return body as OpOutput<N>;
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Chromium of its own with a fresh --user-data-dir (a persistent context on a new temporary folder),
 * for the benches; a test opens its browser with fixture.ts (the run's shared Chromium).
 */
export async function launchBrowser(): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'tw-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 820 },
    colorScheme: 'light',
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      await rm(profile, { recursive: true, force: true });
    },
  };
}

const SHOTS = join(PROJECT_ROOT, 'test-results', 'e2e');

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}

/** Opens the app with the token in the fragment, as the host's printed link does. */
export async function openApp(page: Page, host: Host): Promise<void> {
  await page.goto(`${host.url}/#token=${host.token}`);
  await page.getByTestId('bundle-list').waitFor();
}

/**
 * Resolves when the page has drawn a frame and every finite CSS animation or transition has finished
 * (a spinner's infinite one never does): what a screenshot or a contrast check waits for.
 */
export async function animationsFinished(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await new Promise(requestAnimationFrame);
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/** Collects page errors and CSP violations, so a test can assert there were none. */
export function watchPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource: the server responded with a status of (4\d\d)/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  return problems;
}
