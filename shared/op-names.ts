/**
 * `bundles.list` → `bundlesList`: the name of the preload function for an operation. Kept apart
 * from operations.ts (which re-exports it) so the renderer can name preload functions without
 * loading the TypeBox schemas; the import below is type-only and vanishes at build time.
 */
import type { OpName } from './operations.js';

export function opFunctionName(name: OpName): string {
  return name.replace(/\.([a-z])/g, (_m, c: string) => c.toUpperCase());
}
