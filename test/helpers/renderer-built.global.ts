/**
 * Vitest global set-up: builds the renderer once, before any test file starts, when it is missing
 * or older than its sources. Every `npm run serve` the tests start would otherwise build it
 * itself, and two files running side by side would build into the same out/renderer at once
 * (Vite empties the folder first), each failing the other's page loads.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRendererBuilt } from '../../electron/host/renderer-build.js';

export default async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  await ensureRendererBuilt(root, join(root, 'out/renderer'));
}
