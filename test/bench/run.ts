/**
 * `npm run bench [-- part ...]`: runs every benchmark part (or the named ones) and prints
 * figures side by side with a plain baseline measured in the same run. No part asserts time.
 */
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const here = fileURLToPath(new URL('.', import.meta.url));
const wanted = process.argv.slice(2);
const parts = (await readdir(here))
  .filter((f) => f.endsWith('.ts') && !['run.ts', 'util.ts'].includes(f))
  .map((f) => f.slice(0, -3))
  .filter((p) => wanted.length === 0 || wanted.includes(p))
  .sort();
for (const part of parts) {
  console.log(`\n=== ${part} ===`);
  const mod = (await import(join(here, `${part}.ts`))) as { run: () => Promise<void> };
  try {
    await mod.run();
  } catch (e) {
    console.log(`  (skipped: ${(e as Error).message})`);
  }
}
process.exit(0);
