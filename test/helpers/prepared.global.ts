/**
 * Vitest global set-up: before any test file starts, two builds side by side (the scripts'
 * esbuild works in its own process while Vite builds the renderer; one after the other they
 * added up):
 * - the renderer, when it is missing or older than its sources. Every `npm run serve` the tests
 *   start would otherwise build it itself, and two files running side by side would build into
 *   the same out/renderer at once (Vite empties the folder first), each failing the other's page loads;
 * - the scripts tests start as processes, when their sources changed (see compiled-scripts.ts).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRendererBuilt } from '../../electron/host/renderer-build.js';
import { compileScripts } from './compiled-scripts.js';

export default async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  await Promise.all([ensureRendererBuilt(root, join(root, 'out/renderer')), compileScripts(root)]);
}
