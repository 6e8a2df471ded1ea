/**
 * A separate process for the transfer tests: exports (to compare bytes across processes and
 * time zones) or imports a ZIP (to be SIGKILLed at a random moment by the crash test).
 * Prints JSON lines: {ready} before the work starts, then {sha256} or {report}.
 *
 *   node --import tsx test/helpers/transfer-worker.ts export <dataDir> <bundleID>
 *   node --import tsx test/helpers/transfer-worker.ts import <dataDir> <zipPath> <skip|replace|copy>
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { openTransferStore } from './transfer.js';

const [mode, dataDir, arg, onConflict] = process.argv.slice(2);
const print = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);

try {
  const t = await openTransferStore({ dataDir: dataDir! });
  if (mode === 'export') {
    const { zip } = await t.transfer.exportBundles([arg!]);
    print({ sha256: createHash('sha256').update(zip).digest('hex') });
  } else if (mode === 'import') {
    const zip = await readFile(arg!);
    print({ ready: true });
    const report = await t.transfer.importZip(zip, (onConflict ?? 'skip') as 'skip');
    print({ report });
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
} catch (e) {
  print({ error: (e as Error).message });
  process.exitCode = 1;
}
