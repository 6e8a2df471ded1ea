/**
 * What the interleaved renderer benches (ui-compare, ui-profile) stand on: this checkout's renderer
 * built into a temporary folder, the 10,000-tool data set, one core, one REST server per renderer
 * build on that core (so the load falls on every build alike), Chromium, and the writer when asked.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { createCore, type Core } from '../../electron/core/app-core.js';
import { createHttpHost } from '../../electron/host/http-host.js';
import { chromiumAvailable, launchBrowser, PROJECT_ROOT, type Browser } from '../e2e/harness.js';
import { startWriter, stopGroup } from './startup.js';
import { writeDataset } from './ui.js';

export interface RendererRig {
  core: Core;
  browser: Browser;
  dataDir: string;
  /** Each build's address, by name: 'ours', then the others in the order given. */
  urls: Map<string, string>;
  /** Starts the writer (startup.ts) on the data set; stopped by close(). */
  startWriter(): Promise<void>;
  close(): Promise<void>;
}

/** `others`: name → folder of another renderer build (an index.html in it). The core watches the data folder when `watch`. */
export async function openRendererRig(opts: { token: string; others: [string, string][]; watch: boolean; dataPrefix: string }): Promise<RendererRig> {
  if (!chromiumAvailable()) throw new Error('no Chromium at /usr/bin/chromium');
  const ours = await mkdtemp(join(tmpdir(), 'tw-bench-renderer-'));
  const dataDir = await mkdtemp(join(tmpdir(), opts.dataPrefix));
  await build({ configFile: join(PROJECT_ROOT, 'renderer/vite.config.ts'), logLevel: 'silent', build: { outDir: ours, emptyOutDir: true } });
  await writeDataset(dataDir);
  const core = await createCore({ dataDir, docker: false, watch: opts.watch });
  const browser = await launchBrowser();
  const apps: Awaited<ReturnType<typeof createHttpHost>>[] = [];
  const urls = new Map<string, string>();
  let writer: Awaited<ReturnType<typeof startWriter>> | undefined;
  const close = async () => {
    if (writer) await stopGroup(writer);
    await browser.close();
    for (const app of apps) await app.close();
    await core.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(ours, { recursive: true, force: true });
  };
  try {
    for (const [name, dir] of [['ours', ours] as [string, string], ...opts.others]) {
      const app = await createHttpHost({ core, token: opts.token, rendererDir: dir, mcp: true });
      await app.listen({ host: '127.0.0.1', port: 0 });
      apps.push(app);
      urls.set(name, `http://127.0.0.1:${(app.server.address() as { port: number }).port}`);
    }
  } catch (e) {
    await close();
    throw e;
  }
  return {
    core,
    browser,
    dataDir,
    urls,
    startWriter: async () => {
      writer = await startWriter(dataDir);
    },
    close,
  };
}
