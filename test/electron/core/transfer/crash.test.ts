/**
 * An import is all or nothing, also when the process dies: stopped after any single rename of
 * its commit, and SIGKILLed at random moments in a real child process, the next start shows
 * either the store as it was or the whole import, and no stage is left.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { DEFAULT_LIMITS } from '../../../../electron/core/archive/limits.js';
import { indexArchive } from '../../../../electron/core/archive/zip-read.js';
import { rawBundlesOf } from '../../../../electron/core/transfer/import-zip.js';
import { validateBundles } from '../../../../electron/core/transfer/validate.js';
import { ImportStage, type PlanEntry } from '../../../../electron/core/transfer/stage.js';
import { functionTool } from '../../../helpers/store.js';
import { collect, spawnTs } from '../../../helpers/procs.js';
import { openTransferStore, type TransferStore } from '../../../helpers/transfer.js';

const KILLS = 24;
let root: string;
let base: string; // the store before: bundle A (two tools) and bundle K (kept)
let archive: string; // A' (other tools) and NEW_BUNDLES new bundles
let bundleA: string;
let oldSnapshot: Map<string, string>;
let newSnapshot: Map<string, string>;
let newBundleIDs: string[];
const NEW_BUNDLES = 8;
const TOOLS_PER_BUNDLE = 15;

/** Every file under bundles/ with a hash of its content; locks and temp files are not content. */
async function snapshot(dataDir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (rel: string): Promise<void> => {
    for (const d of await readdir(join(dataDir, rel), { withFileTypes: true })) {
      if (d.name === '.lock' || d.name.includes('.tmp-')) continue;
      const p = `${rel}/${d.name}`;
      if (d.isDirectory()) await walk(p);
      else
        out.set(
          p,
          createHash('sha256')
            .update(await readFile(join(dataDir, p)))
            .digest('hex')
            .slice(0, 16),
        );
    }
  };
  await walk('bundles');
  return out;
}

function same(a: Map<string, string>, b: Map<string, string>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}

async function copyOfBase(name: string): Promise<string> {
  const dir = join(root, name);
  await cp(base, dir, { recursive: true });
  return dir;
}

/** Opens the store at dataDir and writes the archive into a stage the way importZip does, stopping before its commit. */
async function stageArchive(dataDir: string, zip: Buffer): Promise<{ t: TransferStore; stage: ImportStage; plan: PlanEntry[] }> {
  const t = await openTransferStore({ dataDir });
  const index = await indexArchive(zip, DEFAULT_LIMITS);
  const validated = validateBundles(await rawBundlesOf(index, DEFAULT_LIMITS), t.config.get());
  const plan: PlanEntry[] = validated.bundles.map((b) => ({ bundleID: b.file.bundleID, mode: b.file.bundleID === bundleA ? 'swap' : 'create' }));
  const stage = await ImportStage.begin(t.store.paths);
  for (const d of validated.bundles) await stage.writeBundle(d);
  index.zip.close();
  return { t, stage, plan };
}

/** Opens the store as the next start would (recover() included) and says which state it shows. */
async function stateAfterRestart(dataDir: string): Promise<'old' | 'new'> {
  const t = await openTransferStore({ dataDir });
  expect(await readdir(t.store.paths.stagingDir).catch(() => [])).toEqual([]);
  expect(t.store.problems()).toEqual([]);
  const snap = await snapshot(dataDir);
  const memoryTools = t.store.state.tools.size;
  if (same(snap, oldSnapshot)) {
    expect(memoryTools).toBe(3);
    return 'old';
  }
  if (same(snap, newSnapshot)) {
    expect(memoryTools).toBe(1 + NEW_BUNDLES * TOOLS_PER_BUNDLE + 1);
    return 'new';
  }
  const extra = [...snap.keys()].filter((k) => !oldSnapshot.has(k) && !newSnapshot.has(k)).slice(0, 5);
  const missing = [...newSnapshot.keys()].filter((k) => !snap.has(k)).slice(0, 5);
  throw new Error(`the store is neither as it was nor fully imported: unexpected ${extra.join(', ')}; missing ${missing.join(', ')}`);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tw-transfer-crash-'));
  // The archive: A' with one tool, plus new bundles, exported from a source store.
  const source = await openTransferStore({ dataDir: join(root, 'source') });
  bundleA = uuidv7();
  await source.bundles.put(bundleA, { slug: 'a-new' });
  await source.tools.create({ bundleID: bundleA, slug: 'replacement', version: 'v1' }, functionTool());
  newBundleIDs = [];
  for (let b = 0; b < NEW_BUNDLES; b++) {
    const id = uuidv7();
    newBundleIDs.push(id);
    await source.bundles.put(id, { slug: `bundle-${b}` });
    for (let i = 0; i < TOOLS_PER_BUNDLE; i++)
      await source.tools.create({ bundleID: id, slug: `tool-${i}`, version: 'v1' }, functionTool({ description: 'd'.repeat(200) }));
  }
  const { zip } = await source.transfer.exportBundles([bundleA, ...newBundleIDs]);
  archive = join(root, 'import.zip');
  await writeFile(archive, zip);

  // The base store: bundle A with two other tools, and bundle K that the import does not touch.
  const b = await openTransferStore({ dataDir: join(root, 'base') });
  base = b.dataDir;
  await b.bundles.put(bundleA, { slug: 'a-old' });
  await b.tools.create({ bundleID: bundleA, slug: 'old-one', version: 'v1' }, functionTool());
  await b.tools.create({ bundleID: bundleA, slug: 'old-two', version: 'v1' }, functionTool());
  const keep = uuidv7();
  await b.bundles.put(keep, { slug: 'keep' });
  await b.tools.create({ bundleID: keep, slug: 'kept', version: 'v1' }, functionTool());
  oldSnapshot = await snapshot(base);

  const done = await copyOfBase('reference');
  const ref = await openTransferStore({ dataDir: done });
  const report = await ref.transfer.importZip(zip, 'replace');
  expect(report.replaced).toHaveLength(1);
  expect(report.created).toHaveLength(NEW_BUNDLES);
  newSnapshot = await snapshot(done);
  expect(same(oldSnapshot, newSnapshot)).toBe(false);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('an import interrupted at any point', () => {
  it('stopped after each single rename of the commit (or after all of them, before the commit point), the next start undoes it', async () => {
    const zip = await readFile(archive);
    const total = 6 + NEW_BUNDLES; // A is swapped in 6 renames (3 out, 3 in), each new bundle moves in with one
    for (let k = 0; k <= total; k++) {
      const dataDir = await copyOfBase(`step-${k}`);
      const { stage, plan } = await stageArchive(dataDir, zip);
      await stage.writePlan(plan);
      const moves = stage.moves(plan);
      for (let i = 0; i < k; i++) expect((await moves.next()).done).toBe(false);
      if (k === total) expect((await moves.next()).done).toBe(true);
      stage.abandon(); // the process "dies" here
      expect(await stateAfterRestart(dataDir), `stopped after ${k} renames`).toBe('old');
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('stopped after its commit point, the next start keeps the whole import and removes the stage', async () => {
    const dataDir = await copyOfBase('committed');
    const { t, stage, plan } = await stageArchive(dataDir, await readFile(archive));
    await stage.commit(plan);
    stage.abandon(); // dies before removing its stage (which still holds A's old content)
    expect((await readdir(t.store.paths.stagingDir)).length).toBe(1);
    expect(await stateAfterRestart(dataDir)).toBe('new');
  });

  it(`SIGKILLed at ${KILLS} random moments in a real process, the next start shows the old store or the whole import`, async () => {
    // How long an import takes here, to spread the kills over its whole length.
    const timing = await copyOfBase('timing');
    const child = spawnTs('test/helpers/transfer-worker.ts', ['import', timing, archive, 'replace']);
    const run = collect(child);
    let readyAt = 0;
    run.onLine((l) => {
      if (l['ready']) readyAt = performance.now();
    });
    const finished = await run.done;
    expect(finished.code, finished.stderr).toBe(0);
    const importMs = performance.now() - readyAt;
    expect(await stateAfterRestart(timing)).toBe('new');

    const outcomes = { old: 0, new: 0 };
    for (let i = 0; i < KILLS; i++) {
      const dataDir = await copyOfBase(`kill-${i}`);
      const worker = spawnTs('test/helpers/transfer-worker.ts', ['import', dataDir, archive, 'replace']);
      const r = collect(worker);
      await new Promise<void>((resolve) => r.onLine((l) => l['ready'] && resolve()));
      await new Promise((res) => setTimeout(res, Math.random() * importMs * 1.2));
      worker.kill('SIGKILL');
      const done = await r.done;
      expect(done.lines.filter((l) => l['error'])).toEqual([]);
      outcomes[await stateAfterRestart(dataDir)]++;
      await rm(dataDir, { recursive: true, force: true });
    }
    expect(outcomes.old + outcomes.new).toBe(KILLS);
    console.log(
      `transfer crash test: import takes ~${Math.round(importMs)} ms here; after ${KILLS} kills: ${outcomes.old} × old store, ${outcomes.new} × whole import`,
    );
  }, 300_000);
});
