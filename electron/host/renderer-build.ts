/**
 * The headless host serves the built renderer. It builds it when the build is missing or older
 * than any source it is made from, and otherwise starts at once — so `npm run serve` is quick
 * to print its listening line on the second start, and never serves a stale UI.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  const walk = async (d: string): Promise<void> => {
    for (const e of await fsp.readdir(d, { withFileTypes: true }).catch(() => [])) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else newest = Math.max(newest, (await fsp.stat(p)).mtimeMs);
    }
  };
  await walk(dir);
  return newest;
}

export async function rendererIsStale(projectRoot: string, outDir: string): Promise<boolean> {
  const built = await fsp.stat(join(outDir, 'index.html')).then(
    (s) => s.mtimeMs,
    () => 0,
  );
  if (!built) return true;
  const sources = await Promise.all([newestMtime(join(projectRoot, 'renderer')), newestMtime(join(projectRoot, 'shared'))]);
  return Math.max(...sources) > built;
}

/** Builds the renderer with Vite if it is stale; build output goes to stderr, stdout stays the host's. */
export async function ensureRendererBuilt(projectRoot: string, outDir: string): Promise<void> {
  if (!(await rendererIsStale(projectRoot, outDir))) return;
  process.stderr.write('Building the renderer…\n');
  const { build, createLogger } = await import('vite');
  const logger = createLogger('warn');
  // What the host serves is what people use: a production build, also when the host was started
  // from a test runner that set NODE_ENV=test (Vite would then bundle React's development build).
  const nodeEnv = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    await build({
      configFile: join(projectRoot, 'renderer/vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      customLogger: { ...logger, info: (m) => process.stderr.write(m + '\n') },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = nodeEnv;
  }
}
