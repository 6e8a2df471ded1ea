/**
 * ZIP export and import through real stores on real data folders: byte-identical round trips,
 * the archive's layout and what never goes into it, conflicts (skip, replace, copy, built-ins),
 * all-or-nothing writes, claims that keep <slug,version> unique after an import, dry runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, mkdir, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import yauzl from 'yauzl';
import { ToolFile as ToolSchema, type ToolFile } from '../../../../shared/schemas.js';
import { validatorFor } from '../../../../electron/core/validation.js';
import { expectCode, functionTool, httpTool, makeBuiltinDir } from '../../../helpers/store.js';
import { collect, spawnTs } from '../../../helpers/procs.js';
import { freshTransferStores, listTree, type TransferStore } from '../../../helpers/transfer.js';

const fresh = freshTransferStores(afterAll);

interface ZipEntryInfo {
  name: string;
  mode: number;
  data: Buffer;
}

async function readZip(zip: Uint8Array): Promise<ZipEntryInfo[]> {
  const z = await yauzl.fromBufferPromise(Buffer.from(zip), { lazyEntries: false });
  const out: ZipEntryInfo[] = [];
  for await (const e of z.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const c of await z.openReadStreamPromise(e)) chunks.push(c as Buffer);
    out.push({ name: e.fileName, mode: (e.externalFileAttributes >>> 16) & 0o7777, data: Buffer.concat(chunks) });
  }
  z.close();
  return out;
}

/** A source store with a Unicode-named bundle holding a function, an http and a container tool with build files. */
async function sourceStore(): Promise<{ t: TransferStore; bundleID: string; containerID: string }> {
  const t = await fresh();
  await t.config.patch({ allowedHosts: ['api.example.com'] });
  const bundleID = uuidv7();
  await t.bundles.put(bundleID, { slug: 'météo', displayName: 'Wetter ☂', description: 'Weather tools' });
  await t.tools.create({ bundleID, slug: 'calc', version: 'v1' }, functionTool({ tags: ['math'] }));
  await t.tools.create(
    { bundleID, slug: 'prévision', version: '2.0' },
    httpTool('https://api.example.com/w?q=${city}&key=${WEATHER_API_KEY}', { headers: { Authorization: 'Bearer ${WEATHER_TOKEN}' } } as never),
  );
  const box = await t.tools.create({ bundleID, slug: 'box', version: 'v1' }, { type: 'container', impl: { build: '.', sandbox: { network: 'none' } } });
  const dir = t.store.paths.toolDir(bundleID, box.toolID);
  await writeFile(join(dir, 'Dockerfile'), 'FROM busybox\nCOPY run.sh /\nENTRYPOINT ["/bin/sh", "/run.sh"]\n');
  await writeFile(join(dir, 'run.sh'), '#!/bin/sh\necho \'{"text":"hi"}\'\n');
  await chmod(join(dir, 'run.sh'), 0o755);
  await mkdir(join(dir, 'lib', 'deep'), { recursive: true });
  await writeFile(join(dir, 'lib', 'deep', 'data.txt'), 'x'.repeat(5000));
  return { t, bundleID, containerID: box.toolID };
}

describe('export', () => {
  it('writes the documented layout, sorted, with fixed timestamps and modes, and nothing else', async () => {
    const { t, bundleID, containerID } = await sourceStore();
    // Things that must never travel: metrics, history, secrets, stray temp files, links.
    await mkdir(t.store.paths.metricsDir, { recursive: true });
    await writeFile(join(t.store.paths.metricsDir, `${containerID}.json`), '{"callCount":3}');
    await writeFile(t.store.paths.secretsFile, '{"WEATHER_API_KEY":"sk-live-123456"}');
    const toolDir = t.store.paths.toolDir(bundleID, containerID);
    await writeFile(join(toolDir, '.tool.json.tmp-99999-abcd'), 'half');
    await symlink('/etc/passwd', join(toolDir, 'passwd-link'));
    const progress: [number, number][] = [];
    const { zip, fileName } = await t.transfer.exportBundles([bundleID], (d, n) => progress.push([d, n]));
    expect(fileName).toBe('météo.zip');
    const entries = await readZip(zip);
    const names = entries.map((e) => e.name);
    expect(names).toEqual([...names].sort());
    const prefix = `bundles/${bundleID}/`;
    for (const n of names) expect(n.startsWith(prefix), n).toBe(true);
    const rels = names.map((n) => n.slice(prefix.length).replace(/^tools\/[0-9a-f-]{36}\//, 'tools/<id>/'));
    expect(rels.sort()).toEqual(
      [
        'bundle.json',
        'tools/<id>/Dockerfile',
        'tools/<id>/lib/deep/data.txt',
        'tools/<id>/run.sh',
        'tools/<id>/tool.json',
        'tools/<id>/tool.json',
        'tools/<id>/tool.json',
      ].sort(),
    );
    expect(entries.find((e) => e.name.endsWith('run.sh'))!.mode).toBe(0o755);
    expect(entries.find((e) => e.name.endsWith('Dockerfile'))!.mode).toBe(0o644);
    expect(Buffer.from(zip).includes('sk-live-123456')).toBe(false);
    const http = JSON.parse(entries.find((e) => e.data.includes('prévision'))!.data.toString()) as ToolFile;
    expect(http.impl).toMatchObject({ urlTemplate: 'https://api.example.com/w?q=${city}&key=${WEATHER_API_KEY}' });
    // Fixed timestamps: the DOS date/time fields of every entry read 2000-01-01 00:00.
    const z = await yauzl.fromBufferPromise(Buffer.from(zip), { lazyEntries: false });
    for await (const e of z.eachEntry()) {
      expect(e.lastModFileDate).toBe(0x2821);
      expect(e.lastModFileTime).toBe(0);
    }
    z.close();
    expect(progress.at(-1)).toEqual([entries.length, entries.length]);
    expect(progress.map((p) => p[0])).toEqual([...progress.map((p) => p[0])].sort((a, b) => a - b));
  });

  it('gives the same bytes for the same content, even in another process and time zone', async () => {
    const { t, bundleID } = await sourceStore();
    const first = await t.transfer.exportBundles([bundleID]);
    const second = await t.transfer.exportBundles([bundleID]);
    expect(Buffer.from(second.zip).equals(Buffer.from(first.zip))).toBe(true);
    const child = spawnTs('test/helpers/transfer-worker.ts', ['export', t.dataDir, bundleID], { TZ: 'Pacific/Kiritimati' });
    const done = await collect(child).done;
    expect(done.code, done.stderr).toBe(0);
    const line = done.lines.find((l) => l['sha256']);
    expect(line?.['sha256']).toBe(createHash('sha256').update(first.zip).digest('hex'));
  });

  it('exports several bundles in one archive and refuses unknown bundles', async () => {
    const { t, bundleID } = await sourceStore();
    const other = uuidv7();
    await t.bundles.put(other, { slug: 'other' });
    const { zip, fileName } = await t.transfer.exportBundles([other, bundleID]);
    expect(fileName).toBe('toolwright-2-bundles.zip');
    const names = (await readZip(zip)).map((e) => e.name);
    expect(names.filter((n) => n.endsWith('bundle.json'))).toHaveLength(2);
    await expectCode(t.transfer.exportBundles([uuidv7()]), 'NOT_FOUND');
    await expectCode(t.transfer.exportBundles(['../../etc']), 'INVALID_INPUT');
  });

  it('exports built-in bundles as user bundles', async () => {
    const builtin = await makeBuiltinDir();
    const t = await fresh({ builtinDir: builtin.dir });
    const { zip } = await t.transfer.exportBundles([builtin.bundleID]);
    const entries = await readZip(zip);
    expect(entries).toHaveLength(2);
    for (const e of entries) expect(JSON.parse(e.data.toString()).isBuiltIn).toBe(false);
    const target = await fresh();
    const report = await target.transfer.importZip(zip, 'skip');
    expect(report.created).toEqual([{ bundleID: builtin.bundleID, slug: 'builtin-test' }]);
    expect(target.store.isBuiltinBundle(builtin.bundleID)).toBe(false);
  });

  it('streams with progress (openExport) for the REST host', async () => {
    const { t, bundleID } = await sourceStore();
    const opened = await t.transfer.openExport([bundleID]);
    expect(opened.entryCount).toBe(7);
    const chunks: Buffer[] = [];
    for await (const c of opened.stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(Buffer.from((await t.transfer.exportBundles([bundleID])).zip))).toBe(true);
    await expect(new Promise((resolve, reject) => t.transfer.exportStream([uuidv7()]).on('error', reject).on('end', resolve).resume())).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});

describe('import', () => {
  let src: Awaited<ReturnType<typeof sourceStore>>;
  let zip: Uint8Array;
  beforeAll(async () => {
    src = await sourceStore();
    zip = (await src.t.transfer.exportBundles([src.bundleID])).zip;
  });

  it('round trip: export → import into an empty data folder → export gives identical bytes', async () => {
    const target = await fresh();
    const report = await target.transfer.importZip(zip, 'skip');
    expect(report).toEqual({
      created: [{ bundleID: src.bundleID, slug: 'météo' }],
      replaced: [],
      skipped: [],
      toolCount: 3,
      hostsToAllow: ['api.example.com'],
    });
    const again = await target.transfer.exportBundles([src.bundleID]);
    expect(Buffer.from(again.zip).equals(Buffer.from(zip))).toBe(true);
    // Memory follows, and a reopened store reads the same thing without problems.
    expect(target.store.state.toolCount(src.bundleID)).toBe(3);
    const reopened = await target.reopen();
    expect(reopened.store.problems()).toEqual([]);
    expect(reopened.store.state.toolCount(src.bundleID)).toBe(3);
    const box = [...reopened.store.state.tools.values()].find((r) => r.file.slug === 'box')!;
    expect((await stat(join(box.dir, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect(await readFile(join(box.dir, 'lib', 'deep', 'data.txt'), 'utf8')).toBe('x'.repeat(5000));
    for (const rec of reopened.store.state.tools.values())
      expect(validatorFor(ToolSchema)(JSON.parse(await readFile(join(rec.dir, 'tool.json'), 'utf8')))).toBe(true);
  });

  it('carries claims: imported pairs stay unique across processes, new pairs can be added', async () => {
    const target = await fresh();
    await target.transfer.importZip(zip, 'skip');
    const claims = await readdir(target.store.paths.claimsDir(src.bundleID));
    expect(claims).toHaveLength(3);
    for (const rec of target.store.state.tools.values()) {
      expect(await target.store.claims.owner(src.bundleID, rec.file.slug, rec.file.version)).toBe(rec.file.toolID);
    }
    await expectCode(target.tools.create({ bundleID: src.bundleID, slug: 'calc', version: 'v1' }, functionTool()), 'CONFLICT');
    await target.tools.create({ bundleID: src.bundleID, slug: 'calc', version: 'v2' }, functionTool());
  });

  it('conflicts: skip leaves the bundle, replace swaps it whole, copy makes new IDs and a <slug>-copy slug', async () => {
    const target = await fresh();
    await target.transfer.importZip(zip, 'skip');
    const extra = await target.tools.create({ bundleID: src.bundleID, slug: 'local-only', version: 'v1' }, functionTool());

    const skipped = await target.transfer.importZip(zip, 'skip');
    expect(skipped.created).toEqual([]);
    expect(skipped.skipped).toEqual([{ bundleID: src.bundleID, slug: 'météo', reason: `bundle ${src.bundleID} already exists here` }]);
    expect(target.store.state.tools.has(extra.toolID)).toBe(true);

    const replaced = await target.transfer.importZip(zip, 'replace');
    expect(replaced.replaced).toEqual([{ bundleID: src.bundleID, slug: 'météo' }]);
    expect(target.store.state.tools.has(extra.toolID)).toBe(false); // replace means the archive's content, whole
    expect(target.store.state.toolCount(src.bundleID)).toBe(3);
    expect(await readdir(target.store.paths.claimsDir(src.bundleID))).toHaveLength(3);
    await target.tools.create({ bundleID: src.bundleID, slug: 'local-only', version: 'v1' }, functionTool()); // its old claim went with it

    const copied = await target.transfer.importZip(zip, 'copy');
    expect(copied.created).toHaveLength(1);
    const copy = copied.created[0]!;
    expect(copy.fromBundleID).toBe(src.bundleID);
    expect(copy.bundleID).not.toBe(src.bundleID);
    expect(copy.slug).toBe('météo-copy');
    expect(target.store.state.bundles.get(copy.bundleID)!.file.slug).toBe('météo-copy');
    const original = target.store.state.bundles.get(src.bundleID)!.file.displayName;
    expect(target.store.state.bundles.get(copy.bundleID)!.file.displayName).toBe(`${original} (copy)`);
    const copiedTools = target.store.state.toolIDsOf(copy.bundleID).map((id) => target.store.state.tools.get(id)!.file);
    expect(copiedTools.map((f) => f.slug).sort()).toEqual(['box', 'calc', 'prévision']);
    for (const f of copiedTools) expect(target.store.state.toolIDsOf(src.bundleID)).not.toContain(f.toolID);
    expect((await target.transfer.importZip(zip, 'copy')).created[0]!.slug).toBe('météo-copy-2');
    expect((await target.reopen()).store.problems()).toEqual([]);
    expect(await listTree(join(target.dataDir, '.staging'))).toEqual([]);
  });

  it('never replaces a built-in (BUILTIN_READONLY), but skips or copies it', async () => {
    const builtin = await makeBuiltinDir();
    const source = await fresh({ builtinDir: builtin.dir });
    const builtinZip = (await source.transfer.exportBundles([builtin.bundleID])).zip;
    const target = await fresh({ builtinDir: builtin.dir });
    const before = await listTree(target.dataDir);
    const e = await expectCode(target.transfer.importZip(builtinZip, 'replace'), 'BUILTIN_READONLY');
    expect(e.message).toMatch(/built-in/);
    expect(await listTree(target.dataDir)).toEqual(before);
    expect((await target.transfer.importZip(builtinZip, 'skip')).skipped[0]!.reason).toMatch(/built-in/);
    const copy = await target.transfer.importZip(builtinZip, 'copy');
    expect(target.store.isBuiltinBundle(copy.created[0]!.bundleID)).toBe(false);
  });

  it('treats tool IDs held by another bundle as a conflict', async () => {
    const target = await fresh();
    await target.transfer.importZip(zip, 'skip');
    // The same archive with its bundle folder renamed: its tools' IDs belong to the bundle already here.
    const entries = await readZip(zip);
    const newID = uuidv7();
    const yazl = (await import('yazl')).default;
    const z = new yazl.ZipFile();
    for (const e of entries) {
      const text = e.name.endsWith('.json') ? Buffer.from(e.data.toString().replaceAll(src.bundleID, newID)) : e.data;
      z.addBuffer(text, e.name.replace(src.bundleID, newID), { mode: 0o100000 | e.mode });
    }
    z.end();
    const chunks: Buffer[] = [];
    for await (const c of z.outputStream) chunks.push(c as Buffer);
    const renamed = Buffer.concat(chunks);
    expect((await target.transfer.importZip(renamed, 'skip')).skipped[0]!.reason).toMatch(/already has one of its tool IDs/);
    await expectCode(target.transfer.importZip(renamed, 'replace'), 'CONFLICT');
    expect((await target.transfer.importZip(renamed, 'copy')).created[0]!.fromBundleID).toBe(newID);
  });

  it('dry run reports what would happen and writes nothing', async () => {
    const target = await fresh();
    const before = await listTree(target.dataDir);
    const report = await target.transfer.importZip(zip, 'skip', { dryRun: true });
    expect(report.dryRun).toBe(true);
    expect(report.created).toEqual([{ bundleID: src.bundleID, slug: 'météo' }]);
    expect(await listTree(target.dataDir)).toEqual(before);
  });

  it('imports http tools whose hosts are not allowed yet, and lists the hosts for the user to confirm', async () => {
    const target = await fresh();
    await target.config.patch({ allowedHosts: ['*.example.com'] });
    const r1 = await target.transfer.importZip(zip, 'copy');
    expect(r1.hostsToAllow).toBeUndefined(); // *.example.com covers api.example.com
    const other = await fresh();
    const r2 = await other.transfer.importZip(zip, 'copy');
    expect(r2.hostsToAllow).toEqual(['api.example.com']);
    expect(other.store.state.toolCount(r2.created[0]!.bundleID)).toBe(3);
  });

  it('reports progress by tools written', async () => {
    const target = await fresh();
    const seen: number[] = [];
    await target.transfer.importZip(zip, 'skip', { onProgress: (d, n) => (expect(n).toBe(3), seen.push(d)) });
    expect(seen).toEqual([0, 1, 2, 3]);
  });
});

describe('recover()', () => {
  it('removes stages of dead processes and leaves those of live ones', async () => {
    const t = await fresh();
    const dead = join(t.store.paths.stagingDir, '999999-deadbeef0000');
    const live = join(t.store.paths.stagingDir, `${process.ppid}-livestage000`);
    await mkdir(join(dead, 'new', uuidv7()), { recursive: true });
    await mkdir(join(live, 'new'), { recursive: true });
    await t.transfer.recover();
    expect(await listTree(t.store.paths.stagingDir)).toEqual([`${process.ppid}-livestage000/`, `${process.ppid}-livestage000/new/`]);
  });
});
