/**
 * Store part: open-and-index 10,000 tools in 100 bundles, as a ratio to a plain parallel
 * readFile + JSON.parse of the same files; and create throughput with 8 competing processes
 * beside 8 processes writing the same files plainly (no locks, claims or fsync).
 */
import { mkdir, readFile, rm, writeFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { canonicalJson } from '../../shared/canonical.js';
import { BUNDLE_KEY_ORDER, TOOL_KEY_ORDER } from '../../shared/schemas.js';
import { ConfigStore } from '../../electron/core/config.js';
import { DataPaths } from '../../electron/core/data-paths.js';
import { Store } from '../../electron/core/store/store.js';
import { ToolSearchIndex } from '../../electron/core/search/search-index.js';
import { openTestStore, tempDir } from '../helpers/store.js';
import { collect, spawnTs } from '../helpers/procs.js';
import { fmt, median, row, time } from './util.js';

const BUNDLES = 100;
const PER_BUNDLE = 100;

export async function makeDataset(dir: string, bundles = BUNDLES, perBundle = PER_BUNDLE): Promise<string[]> {
  const files: string[] = [];
  const at = new Date('2026-01-01T00:00:00.000Z').getTime();
  const words = ['weather', 'invoice', 'search', 'convert', 'translate', 'summarise', 'currency', 'calendar', 'email', 'stock', 'map', 'news'];
  for (let b = 0; b < bundles; b++) {
    const bundleID = uuidv7();
    const bdir = join(dir, 'bundles', bundleID);
    await mkdir(join(bdir, 'tools'), { recursive: true });
    const bfile = join(bdir, 'bundle.json');
    const stamp = new Date(at + b * 1000).toISOString();
    await writeFile(
      bfile,
      canonicalJson(
        {
          schemaVersion: '1',
          bundleID,
          slug: `bundle-${b}`,
          displayName: `Bundle ${b}`,
          description: '',
          isEnabled: true,
          isBuiltIn: false,
          createdAt: stamp,
          modifiedAt: stamp,
        },
        BUNDLE_KEY_ORDER,
      ),
    );
    files.push(bfile);
    await Promise.all(
      Array.from({ length: perBundle }, async (_, i) => {
        const toolID = uuidv7();
        const w = words[(b * perBundle + i) % words.length]!;
        const t = new Date(at + (b * perBundle + i) * 1000).toISOString();
        const tool = {
          schemaVersion: '1',
          toolID,
          bundleID,
          slug: `${w}-${b}-${i}`,
          version: 'v1',
          displayName: `${w} tool ${i}`,
          description: `Does ${w} things for bundle ${b}, item ${i}`,
          type: 'http',
          isEnabled: true,
          isBuiltIn: false,
          tags: [w, `b${b}`],
          safety: 'readOnly',
          argSchema: { type: 'object', properties: { q: { type: 'string', description: 'query' }, n: { type: 'integer', maximum: 50 } }, required: ['q'] },
          outputSchema: { type: 'object' },
          impl: { method: 'GET', urlTemplate: 'https://api.example.com/' + w + '?q=${q}&key=${API_KEY}', timeoutMs: 5000 },
          card: { enabled: true, title: `${w} {{q}}`, accentColor: '#4a90d4' },
          limits: { maxCallsPerMinute: 60 },
          createdAt: t,
          modifiedAt: t,
        };
        await mkdir(join(bdir, 'tools', toolID));
        const f = join(bdir, 'tools', toolID, 'tool.json');
        await writeFile(f, canonicalJson(tool, TOOL_KEY_ORDER));
        files.push(f);
      }),
    );
  }
  return files;
}

async function plainRead(files: string[]): Promise<number> {
  const values = await Promise.all(files.map(async (f) => JSON.parse(await readFile(f, 'utf8')) as unknown));
  return values.length;
}

async function plainReadWithListing(dir: string): Promise<number> {
  const bundlesDir = join(dir, 'bundles');
  const ids = await readdir(bundlesDir);
  const per = await Promise.all(
    ids.map(async (id) => {
      const b = JSON.parse(await readFile(join(bundlesDir, id, 'bundle.json'), 'utf8')) as unknown;
      const tools = await readdir(join(bundlesDir, id, 'tools'));
      const ts = await Promise.all(tools.map(async (t) => JSON.parse(await readFile(join(bundlesDir, id, 'tools', t, 'tool.json'), 'utf8')) as unknown));
      return [b, ...ts].length;
    }),
  );
  return per.reduce((a, b) => a + b, 0);
}

async function openStore(dir: string, withSearch: boolean): Promise<number> {
  const paths = new DataPaths(dir);
  const config = await ConfigStore.open(paths);
  const store = await Store.open({ paths, config });
  if (withSearch) {
    const index = new ToolSearchIndex();
    index.load([...store.state.tools.values()].map((t) => ({ tool: t.file, bundle: store.state.bundles.get(t.file.bundleID)!.file })));
  }
  return store.state.tools.size;
}

export async function run(): Promise<void> {
  const dir = await tempDir('tw-bench-store-');
  try {
    const files = await makeDataset(dir);
    console.log(`  dataset: ${BUNDLES} bundles × ${PER_BUNDLE} tools = ${files.length} files`);
    const ours: number[] = [];
    const oursIdx: number[] = [];
    const base: number[] = [];
    const baseList: number[] = [];
    await plainRead(files); // warm the page cache for everyone
    for (let i = 0; i < 7; i++) {
      base.push((await time(() => plainRead(files)))[0]);
      baseList.push((await time(() => plainReadWithListing(dir)))[0]);
      const [t, n] = await time(() => openStore(dir, false));
      if (n !== BUNDLES * PER_BUNDLE) throw new Error(`store loaded ${n} tools`);
      ours.push(t);
      oursIdx.push((await time(() => openStore(dir, true)))[0]);
    }
    console.log(row('open store (validate + index) vs plain read', median(ours), median(base)));
    console.log(row('open store vs plain readdir + read', median(ours), median(baseList)));
    console.log(row('open store + search index vs plain read', median(oursIdx), median(base)));
    console.log('  goal: open-and-index ≤ 1.3× plain parallel readFile + JSON.parse');

    // Create throughput, 8 competing processes in one bundle.
    const t = await openTestStore();
    const bundleID = uuidv7();
    await t.bundles.put(bundleID, { slug: 'bench' });
    const perProc = 40;
    const startAt = Date.now() + 3000;
    const runs = Array.from({ length: 8 }, (_, p) =>
      collect(spawnTs('test/helpers/bench-worker.ts', ['store-create', t.dataDir, bundleID, String(perProc), String(p)], { RACE_START_AT: String(startAt) })),
    );
    const res = await Promise.all(runs.map((r) => r.done));
    const spans = res.flatMap((r) => r.lines).map((l) => l as { first: number; last: number; n: number });
    const created = spans.reduce((a, s) => a + s.n, 0);
    const wall = Math.max(...spans.map((s) => s.last)) - Math.min(...spans.map((s) => s.first));
    const plainRuns = Array.from({ length: 8 }, (_, p) =>
      collect(
        spawnTs('test/helpers/bench-worker.ts', ['plain-create', t.dataDir, bundleID, String(perProc), String(p)], {
          RACE_START_AT: String(Date.now() + 3000),
        }),
      ),
    );
    const plainRes = await Promise.all(plainRuns.map((r) => r.done));
    const pspans = plainRes.flatMap((r) => r.lines).map((l) => l as { first: number; last: number; n: number });
    const pwall = Math.max(...pspans.map((s) => s.last)) - Math.min(...pspans.map((s) => s.first));
    const pn = pspans.reduce((a, s) => a + s.n, 0);
    console.log(row('create throughput, 8 processes (tools/s)', (created / wall) * 1000, (pn / pwall) * 1000, 'tools/s'));
    console.log(`  (${created} creates in ${fmt(wall)}; plain: ${pn} files written with writeFile+rename, no lock, claim or fsync)`);
    await t.cleanup();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
