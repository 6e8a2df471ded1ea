/**
 * Transfer bench: export and import of 1,000 tools (10 bundles; function, http and container
 * tools, the container ones with a Dockerfile and an executable runner beside tool.json),
 * side by side with a plain zip of the same files in the same run:
 *   export  ours: validated records, canonical JSON, sorted deterministic entries, streamed
 *           plain: yazl.addFile of every file under bundles/ as found on disk
 *   import  ours: hostile-archive checks, full validation, staging with fsync, claims,
 *                 atomic commit, memory sync
 *           plain: yauzl + mkdir + writeFile of every entry, no checks, no fsync
 *
 * Run alone: npx tsx test/bench/transfer.ts
 */
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import yazl from 'yazl';
import yauzl from 'yauzl';
import { v7 as uuidv7 } from 'uuid';
import { canonicalJson } from '../../shared/canonical.js';
import { BUNDLE_KEY_ORDER, TOOL_KEY_ORDER, type ToolFile } from '../../shared/schemas.js';
import { ConfigStore } from '../../electron/core/config.js';
import { DataPaths } from '../../electron/core/data-paths.js';
import { Store } from '../../electron/core/store/store.js';
import { BundleService } from '../../electron/core/store/bundles.js';
import { plainToolService } from '../helpers/store.js';
import { TransferService } from '../../electron/core/transfer/transfer-service.js';
import { fmt, median, row } from './util.js';

const BUNDLES = 10;
const TOOLS_PER_BUNDLE = 100;
const ROUNDS = 3;
const AT = '2026-03-01T12:00:00.000Z';

async function openTransfer(dataDir: string): Promise<{ transfer: TransferService; store: Store }> {
  const paths = new DataPaths(dataDir);
  await fsp.mkdir(dataDir, { recursive: true });
  const config = await ConfigStore.open(paths);
  const store = await Store.open({ paths, config });
  const transfer = new TransferService({ store, bundles: new BundleService(store), tools: plainToolService(store), config, paths });
  await transfer.recover();
  return { transfer, store };
}

function tool(bundleID: string, i: number): ToolFile {
  const base = {
    schemaVersion: '1' as const,
    toolID: uuidv7(),
    bundleID,
    slug: `tool-${i}`,
    version: 'v1',
    displayName: `Tool number ${i}`,
    description: `Synthetic tool ${i} for the transfer benchmark. `.repeat(4),
    isEnabled: true,
    isBuiltIn: false,
    tags: ['bench', `group-${i % 7}`],
    safety: 'readOnly' as const,
    argSchema: { type: 'object', properties: { q: { type: 'string', description: 'query' }, n: { type: 'integer', minimum: 1 } }, required: ['q'] },
    outputSchema: { type: 'object' },
    card: { enabled: true, title: 'Result for {{q}}' },
    limits: {},
    createdAt: AT,
    modifiedAt: AT,
  };
  if (i % 3 === 0)
    return {
      ...base,
      type: 'http',
      impl: { method: 'GET', urlTemplate: `https://api${i % 5}.example.com/v1/search?q=\${q}&n=\${n}&key=\${API_KEY}`, timeoutMs: 5000 },
    };
  if (i % 3 === 1) return { ...base, type: 'container', impl: { build: '.', sandbox: { network: 'none' }, timeoutSeconds: 10 } };
  return { ...base, type: 'function', impl: { function: 'core.calc' } };
}

/** Writes the data folder directly (as a git checkout would): bundles, tools, claims, build files. */
export async function makeSource(dataDir: string): Promise<string[]> {
  const paths = new DataPaths(dataDir);
  const ids: string[] = [];
  for (let b = 0; b < BUNDLES; b++) {
    const bundleID = uuidv7();
    ids.push(bundleID);
    await fsp.mkdir(paths.claimsDir(bundleID), { recursive: true });
    await fsp.writeFile(
      paths.bundleFile(bundleID),
      canonicalJson(
        {
          schemaVersion: '1',
          bundleID,
          slug: `bundle-${b}`,
          displayName: `Bundle ${b}`,
          description: '',
          isEnabled: true,
          isBuiltIn: false,
          createdAt: AT,
          modifiedAt: AT,
        },
        BUNDLE_KEY_ORDER,
      ),
    );
    for (let i = 0; i < TOOLS_PER_BUNDLE; i++) {
      const file = tool(bundleID, i);
      const dir = paths.toolDir(bundleID, file.toolID);
      await fsp.mkdir(dir, { recursive: true });
      await fsp.writeFile(join(dir, 'tool.json'), canonicalJson(file as unknown as Record<string, unknown>, TOOL_KEY_ORDER));
      await fsp.writeFile(paths.claimFile(bundleID, file.slug, file.version), file.toolID);
      if (file.type === 'container') {
        await fsp.writeFile(join(dir, 'Dockerfile'), 'FROM busybox:1.37\nCOPY run.sh /tool/\nENTRYPOINT ["/bin/sh", "/tool/run.sh"]\n');
        await fsp.writeFile(join(dir, 'run.sh'), `#!/bin/sh\n# runner ${i}\nprintf '{"text":"%s"}\\n' "$(printf '%s' "$1" | base64 -d | wc -c)"\n`, {
          mode: 0o755,
        });
      }
    }
  }
  return ids;
}

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const d of await fsp.readdir(dir, { withFileTypes: true })) {
      if (d.name.startsWith('.')) continue;
      const p = join(dir, d.name);
      if (d.isDirectory()) await walk(p);
      else out.push(p);
    }
  };
  await walk(root);
  return out;
}

async function plainZip(dataDir: string): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const bundles = join(dataDir, 'bundles');
  for (const f of await listFiles(bundles)) zip.addFile(f, relative(dataDir, f));
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function plainUnzip(zip: Buffer, target: string): Promise<number> {
  const z = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  let n = 0;
  for await (const e of z.eachEntry()) {
    const path = join(target, e.fileName);
    await fsp.mkdir(dirname(path), { recursive: true });
    const chunks: Buffer[] = [];
    for await (const c of await z.openReadStreamPromise(e)) chunks.push(c as Buffer);
    await fsp.writeFile(path, Buffer.concat(chunks));
    n++;
  }
  z.close();
  return n;
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
}

export async function run(): Promise<void> {
  const root = await fsp.mkdtemp(join(tmpdir(), 'tw-bench-transfer-'));
  try {
    const sourceDir = join(root, 'source');
    const ids = await makeSource(sourceDir);
    const source = await openTransfer(sourceDir);
    const fileCount = (await listFiles(join(sourceDir, 'bundles'))).length;

    const ours = { export: [] as number[], import: [] as number[] };
    const plain = { export: [] as number[], import: [] as number[] };
    let oursZip: Uint8Array = new Uint8Array();
    let plainBytes: Buffer = Buffer.alloc(0);
    let identical = true;
    for (let r = 0; r < ROUNDS; r++) {
      const [te, ex] = await timed(() => source.transfer.exportBundles(ids));
      ours.export.push(te);
      if (r > 0 && !Buffer.from(ex.zip).equals(Buffer.from(oursZip))) identical = false;
      oursZip = ex.zip;
      const [tp, pz] = await timed(() => plainZip(sourceDir));
      plain.export.push(tp);
      plainBytes = pz;

      const target = await openTransfer(join(root, `ours-${r}`));
      const [ti, report] = await timed(() => target.transfer.importZip(oursZip, 'skip'));
      ours.import.push(ti);
      if (report.toolCount !== BUNDLES * TOOLS_PER_BUNDLE || target.store.state.tools.size !== report.toolCount) throw new Error('import lost tools');
      if (r === 0) {
        const again = await target.transfer.exportBundles(ids);
        if (!Buffer.from(again.zip).equals(Buffer.from(oursZip))) identical = false;
      }
      const [tu, n] = await timed(() => plainUnzip(plainBytes, join(root, `plain-${r}`)));
      plain.import.push(tu);
      if (n !== fileCount) throw new Error(`plain unzip wrote ${n} of ${fileCount} files`);
      await fsp.rm(join(root, `ours-${r}`), { recursive: true, force: true });
      await fsp.rm(join(root, `plain-${r}`), { recursive: true, force: true });
    }

    const tools = BUNDLES * TOOLS_PER_BUNDLE;
    console.log(`transfer: ${tools.toLocaleString('en')} tools in ${BUNDLES} bundles, ${fileCount.toLocaleString('en')} files; median of ${ROUNDS} rounds`);
    console.log('  baseline: plain yazl/yauzl of the same files, no checks, no fsync; ratio = ours / baseline');
    console.log(row('export (zip of 1,000 tools)', median(ours.export), median(plain.export)));
    console.log(row('import (into an empty data folder)', median(ours.import), median(plain.import)));
    console.log(`  archive size: ours ${(oursZip.length / 1024).toFixed(0)} KB, plain ${(plainBytes.length / 1024).toFixed(0)} KB`);
    console.log(`  per tool: export ${fmt(median(ours.export) / tools)}, import ${fmt(median(ours.import) / tools)}`);
    console.log(`  deterministic (same bytes every round, and after export → import → export): ${identical ? 'yes' : 'NO'}`);
  } finally {
    await fsp.rm(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
