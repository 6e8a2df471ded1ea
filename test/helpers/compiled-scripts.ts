/**
 * The scripts tests start as separate processes, compiled once per test run. Started with tsx,
 * every process compiled the TypeScript of the whole core again before its first line ran
 * (3-6 s apiece on a loaded 2-core machine; the crash tests start 49 of them). The bundles hold
 * the project's own code and import packages from node_modules as the sources do. A run whose
 * sources are those of the last compile keeps its bundles (the compile took 6-8 s on a loaded machine).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';

/** Scripts that tests spawn, by their path from the project root. */
export const SPAWNED_SCRIPTS = [
  'test/helpers/race-worker.ts',
  'test/helpers/transfer-worker.ts',
  'test/helpers/scheduler-worker.ts',
  'test/helpers/cli-main.ts',
  'test/helpers/conformance-client.ts',
  'electron/host/serve.ts',
] as const;

// Two levels below the root, like the sources the entries come from (electron/host/serve.ts finds
// the root as '../..' from its own file).
const OUT_DIR = 'out/test-scripts';
const COMPILE_CACHE_DIR = 'out/compile-cache';
// What the bundles were made from: their input files (the project's own, packages stay imports)
// and the hash of those files' contents with this module's, which holds the build options.
const INPUTS_FILE = 'inputs.json';

interface CompiledInputs {
  hash: string;
  inputs: string[];
}

// Set by the global set-up for the test run's processes: outside a test run (the benches) a bundle
// left by an earlier run may be older than the sources, and is not used.
const COMPILED_ENV = 'TOOLWRIGHT_TEST_SCRIPTS';

const bundleName = (script: string): string => script.replaceAll('/', '__').replace(/\.ts$/, '');

/** The bundle of a script this test run compiled, if it did. */
export function compiledPathOf(root: string, script: string): string | undefined {
  if (process.env[COMPILED_ENV] !== join(root, OUT_DIR) || !(SPAWNED_SCRIPTS as readonly string[]).includes(script)) return undefined;
  const path = join(root, OUT_DIR, `${bundleName(script)}.mjs`);
  return existsSync(path) ? path : undefined;
}

/**
 * A bundled module's import.meta.url is the bundle's; the modules inside it that find files
 * next to their source (data/builtin, bin/toolwright.js) get their own file's URL instead.
 * An entry keeps the bundle's, so its "am I the script that was started" test still holds.
 */
function ownImportMeta(root: string, entries: Set<string>): Plugin {
  return {
    name: 'own-import-meta',
    setup(b) {
      b.onLoad({ filter: /\.tsx?$/ }, async ({ path }) => {
        const source = await readFile(path, 'utf8');
        if (entries.has(path) || relative(root, path).startsWith('node_modules') || !source.includes('import.meta.')) return undefined;
        const contents = source
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(path)))
          .replaceAll('import.meta.filename', JSON.stringify(path));
        return { contents, loader: path.endsWith('x') ? 'tsx' : 'ts' };
      });
    },
  };
}

/** The hash of the files' contents, with this module's own (its build options) and the scripts' list. */
async function hashOf(root: string, inputs: readonly string[]): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify(SPAWNED_SCRIPTS));
  for (const path of [fileURLToPath(import.meta.url), ...inputs.map((i) => join(root, i))]) {
    hash.update(path).update('\0');
    hash.update(await readFile(path).catch(() => Buffer.from('(missing)')));
  }
  return hash.digest('hex');
}

/** The bundles of the last compile are those of the sources as they are now. */
async function compiledIsCurrent(root: string): Promise<boolean> {
  const last = await readFile(join(root, OUT_DIR, INPUTS_FILE), 'utf8').then(
    (text) => JSON.parse(text) as CompiledInputs,
    () => undefined,
  );
  if (!last || !SPAWNED_SCRIPTS.every((script) => existsSync(join(root, OUT_DIR, `${bundleName(script)}.mjs`)))) return false;
  return last.hash === (await hashOf(root, last.inputs));
}

export async function compileScripts(root: string): Promise<void> {
  if (!(await compiledIsCurrent(root))) await compile(root);
  process.env[COMPILED_ENV] = join(root, OUT_DIR);
  // Node keeps the compiled code of what these processes and the test workers import (V8's cache,
  // keyed by each file's content), so the hundreds of processes a run starts do not each compile
  // the same packages again.
  process.env['NODE_COMPILE_CACHE'] ??= join(root, COMPILE_CACHE_DIR);
}

async function compile(root: string): Promise<void> {
  // Imported here: every test file loads this module through procs.ts, and only the set-up builds.
  const { build } = await import('esbuild');
  // One build per script, split at its dynamic imports: a process loads the packages of the code
  // it runs (`toolwright ls` not the REST host's and MCP server's). Apart, so each entry stays its
  // own bundle's first module (serve.ts is also one the CLI imports) and keeps its import.meta.
  // Chunks are named by their content: two builds that share one write the same file.
  const results = await Promise.all(
    SPAWNED_SCRIPTS.map((script) =>
      build({
        absWorkingDir: root,
        entryPoints: { [bundleName(script)]: join(root, script) },
        outdir: join(root, OUT_DIR),
        outExtension: { '.js': '.mjs' },
        bundle: true,
        splitting: true,
        packages: 'external',
        platform: 'node',
        format: 'esm',
        target: 'node22',
        sourcemap: 'linked',
        logLevel: 'warning',
        metafile: true,
        plugins: [ownImportMeta(root, new Set([join(root, script)]))],
      }),
    ),
  );
  // Metafile inputs are paths from absWorkingDir.
  const inputs = [...new Set(results.flatMap((r) => Object.keys(r.metafile.inputs)))].sort();
  const compiled: CompiledInputs = { hash: await hashOf(root, inputs), inputs };
  await writeFile(join(root, OUT_DIR, INPUTS_FILE), JSON.stringify(compiled));
}
