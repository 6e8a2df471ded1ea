/**
 * The desktop app's build: main, preload and renderer bundled by electron-vite exactly as
 * `npm run build` does (into a temporary folder), then the main and preload bundles parsed by
 * Node. The Electron binary cannot run here, so this is what proves the shell still builds.
 */
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../../helpers/store.js';
import { budgetOfFolder, describeBudget, FIRST_SCREEN_GZIP_BUDGET } from '../../helpers/renderer-budget.js';

const ROOT = join(import.meta.dirname, '../../..');

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

describe('npm run build', () => {
  it('bundles main, preload and renderer (minified, within the first-screen budget), and Node parses the main and preload bundles', async () => {
    const out = await tempDir('tw-build-');
    const built = await run('npx', ['electron-vite', 'build', '--config', 'electron/electron.vite.config.ts'], { TOOLWRIGHT_OUT_DIR: out });
    expect(built.code, built.output).toBe(0);
    for (const bundle of [join(out, 'main', 'index.js'), join(out, 'preload', 'index.cjs')]) {
      const checked = await run(process.execPath, ['--check', bundle]);
      expect(checked.code, `${bundle}: ${checked.output}`).toBe(0);
    }
    expect(await readFile(join(out, 'renderer', 'index.html'), 'utf8')).toContain('<div id="root">');
    // The desktop renderer is built by electron-vite, apart from the browser build: the same budget.
    const budget = await budgetOfFolder(join(out, 'renderer'));
    console.log(describeBudget('desktop build', budget));
    expect(budget.firstScreenGzipBytes).toBeLessThanOrEqual(FIRST_SCREEN_GZIP_BUDGET);
    for (const c of [...budget.firstScreen, ...budget.lazy]) {
      expect(c.minified, `${c.fileName} is not minified`).toBe(true);
      expect(c.mapApart, `${c.fileName}: no source map, or the chunk points at it`).toBe(true);
    }
  }, 240_000);
});
