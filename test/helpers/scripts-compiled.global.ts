/** Vitest global set-up: compiles the scripts tests start as processes, once per run (see compiled-scripts.ts). */
import { fileURLToPath } from 'node:url';
import { compileScripts } from './compiled-scripts.js';

export default async function setup(): Promise<void> {
  await compileScripts(fileURLToPath(new URL('../..', import.meta.url)));
}
