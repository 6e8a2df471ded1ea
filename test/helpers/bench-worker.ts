/** Benchmark helper processes. store-create: real creates; plain-create: the same JSON written plainly. */
import { writeSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { functionTool, openTestStore } from './store.js';

const [mode, dataDir, bundleID, count, proc] = process.argv.slice(2);

async function main(): Promise<void> {
  const t = mode === 'store-create' ? await openTestStore({ dataDir: dataDir! }) : undefined;
  const delay = Number(process.env['RACE_START_AT'] ?? 0) - Date.now();
  if (delay > 0) await new Promise((r) => setTimeout(r, delay));
  const first = Date.now();
  let n = 0;
  for (let i = 0; i < Number(count); i++) {
    if (t) {
      await t.tools.create({ bundleID: bundleID!, slug: `p${proc}-${i}`, version: '1' }, functionTool());
    } else {
      const dir = join(dataDir!, 'plain', uuidv7());
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, '.tool.json.tmp'), JSON.stringify(functionTool(), null, 2));
      await rename(join(dir, '.tool.json.tmp'), join(dir, 'tool.json'));
    }
    n++;
  }
  writeSync(1, JSON.stringify({ first, last: Date.now(), n }) + '\n');
}
void main().then(() => process.exit(0));
