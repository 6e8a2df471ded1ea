/**
 * The files of a container tool's folder over REST (GET/PUT/DELETE …/files/content, POST
 * …/files/rename): what a person writes in the app's editor lands beside tool.json, atomically;
 * every hostile path is refused with the reason and writes nothing anywhere; links are never
 * followed; caps and conflicts answer in the contract's shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';
import type { StoreEvent } from '../../../../shared/operations.js';

let h: TestHost;
let bundleID: string;
let toolDir: string;
let outside: string;
const TOOL = () => `/tools/bundles/${bundleID}/tools/runner/version/v1`;
const fileUrl = (path: string) => `${TOOL()}/files/content?path=${encodeURIComponent(path)}`;

/** Every file under a folder, with its bytes' hash: proof that nothing else changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const d of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${d.name}` : d.name;
      if (d.name === '.lock') continue; // the bundle lock comes and goes with every write
      if (d.isDirectory()) walk(path);
      else
        out[path] = d.isSymbolicLink()
          ? 'link'
          : createHash('sha256')
              .update(readFileSync(join(dir, path)))
              .digest('hex');
    }
  };
  walk('');
  return out;
}

beforeAll(async () => {
  h = await startHost();
  bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'files', displayName: 'Files' });
  const put = await h.api('PUT', TOOL(), { type: 'container', displayName: 'Runner', impl: { build: '.' }, argSchema: { type: 'object' } });
  expect(put.status, JSON.stringify(put.body)).toBe(201);
  toolDir = join(h.dataDir, 'bundles', bundleID, 'tools', put.body.toolID);
  outside = await mkdtemp(join(tmpdir(), 'tw-outside-'));
  await writeFile(join(outside, 'secret.txt'), 'host secret');
});
afterAll(async () => {
  await h.close();
  await rm(outside, { recursive: true, force: true });
});

describe('writing and reading build files', () => {
  it('writes a Dockerfile and a runner beside tool.json, lists and reads them back byte for byte', async () => {
    expect((await h.api('GET', `${TOOL()}/files`)).body).toMatchObject({ items: [], totalBytes: 0 });
    const events: StoreEvent[] = [];
    const listen = (e: StoreEvent) => events.push(e);
    h.core.events.on('event', listen);
    const dockerfile = 'FROM scratch\nCOPY run.sh /run.sh\n';
    const w1 = await h.api('PUT', fileUrl('Dockerfile'), { content: dockerfile });
    expect(w1.status, JSON.stringify(w1.body)).toBe(200);
    expect(w1.body).toMatchObject({ path: 'Dockerfile', size: dockerfile.length, executable: false, encoding: 'utf8' });
    const runner = '#!/bin/sh\necho \'{"text":"hi"}\'\n';
    const w2 = await h.api('PUT', fileUrl('bin/run.sh'), { content: runner });
    expect(w2.body.executable).toBe(true); // a new file starting with #! is executable
    h.core.events.off('event', listen);

    expect(readFileSync(join(toolDir, 'Dockerfile'), 'utf8')).toBe(dockerfile);
    expect(statSync(join(toolDir, 'bin/run.sh')).mode & 0o777).toBe(0o755);
    expect(statSync(join(toolDir, 'Dockerfile')).mode & 0o777).toBe(0o644);
    const list = await h.api('GET', `${TOOL()}/files`);
    expect(list.body.items).toEqual([
      { path: 'Dockerfile', size: dockerfile.length, executable: false },
      { path: 'bin/run.sh', size: runner.length, executable: true },
    ]);
    expect(list.body.totalBytes).toBe(dockerfile.length + runner.length);
    const read = await h.api('GET', fileUrl('bin/run.sh'));
    expect(read.body).toMatchObject({ content: runner, encoding: 'utf8', sha256: createHash('sha256').update(runner).digest('hex') });
    expect(events.filter((e) => e.type === 'tool.files.changed')).toHaveLength(2);
    // The Dockerfile makes the tool available (no other reason stands in the way without Docker probes).
    const tool = await h.api('GET', TOOL());
    expect(tool.body.availability.reason ?? '').not.toMatch(/no Dockerfile/);
  });

  it('reads and writes binary content as base64, and keeps an explicit mode', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10]);
    const w = await h.api('PUT', fileUrl('data/blob.bin'), { content: bytes.toString('base64'), encoding: 'base64', executable: false });
    expect(w.status).toBe(200);
    expect(readFileSync(join(toolDir, 'data/blob.bin')).equals(bytes)).toBe(true);
    const r = await h.api('GET', fileUrl('data/blob.bin'));
    expect(r.body).toMatchObject({ encoding: 'base64', content: bytes.toString('base64'), size: 6 });
    const bad = await h.api('PUT', fileUrl('data/x.bin'), { content: '!!not base64!!', encoding: 'base64' });
    expect(bad.status).toBe(400);
  });

  it('renames and deletes, and folders left empty go with their last file', async () => {
    await h.api('PUT', fileUrl('deep/er/note.txt'), { content: 'x' });
    const mv = await h.api('POST', `${TOOL()}/files/rename`, { from: 'deep/er/note.txt', to: 'notes/note.md' });
    expect(mv.status, JSON.stringify(mv.body)).toBe(200);
    expect(existsSync(join(toolDir, 'deep'))).toBe(false);
    expect(readFileSync(join(toolDir, 'notes/note.md'), 'utf8')).toBe('x');
    const taken = await h.api('POST', `${TOOL()}/files/rename`, { from: 'notes/note.md', to: 'Dockerfile' });
    expect(taken.status).toBe(409);
    const del = await h.api('DELETE', fileUrl('notes/note.md'));
    expect(del.status).toBe(204);
    expect(existsSync(join(toolDir, 'notes'))).toBe(false);
    expect((await h.api('DELETE', fileUrl('notes/note.md'))).status).toBe(404);
    expect((await h.api('GET', fileUrl('nothing/here'))).status).toBe(404);
  });

  it('refuses to overwrite on "add", and a save over a file changed elsewhere', async () => {
    const add = await h.api('PUT', fileUrl('Dockerfile'), { content: 'FROM x', mustNotExist: true });
    expect(add.status).toBe(409);
    expect(add.body.error.message).toMatch(/already exists/);
    const stale = await h.api('PUT', fileUrl('Dockerfile'), { content: 'FROM x', ifSha256: 'a'.repeat(64) });
    expect(stale.status).toBe(412);
    expect(stale.body.error.code).toBe('MODIFIED_ELSEWHERE');
    const current = (await h.api('GET', fileUrl('Dockerfile'))).body.sha256 as string;
    const ok = await h.api('PUT', fileUrl('Dockerfile'), { content: 'FROM scratch\n', ifSha256: current });
    expect(ok.status).toBe(200);
    // Two names one case-insensitive file system would merge are refused: the folder must export and build anywhere.
    const twin = await h.api('PUT', fileUrl('dockerfile'), { content: 'x' });
    expect(twin.status).toBe(409);
    expect(twin.body.error.message).toMatch(/collides with 'Dockerfile'/);
  });

  it('caps one file and keeps nothing of a refused write', async () => {
    const big = 'a'.repeat(16 * 1024 * 1024 + 1);
    const r = await h.api('PUT', fileUrl('big.txt'), { content: big });
    expect(r.status).toBe(413);
    expect(r.body.error.message).toMatch(/at most 16 MB/);
    expect(existsSync(join(toolDir, 'big.txt'))).toBe(false);
    expect(readdirSync(toolDir).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });
});

describe('hostile paths', () => {
  const HOSTILE: [string, RegExp][] = [
    ['../escape.txt', /'\.\.' segment/],
    ['a/../../escape.txt', /'\.\.' segment/],
    ['../../../../../../tmp/escape.txt', /'\.\.' segment/],
    ['/etc/passwd', /absolute path/],
    ['C:/Windows/win.ini', /drive letter/],
    ['a\\..\\escape.txt', /backslash/],
    ['./Dockerfile', /'\.' segment/],
    ['a//b', /empty folder name/],
    ['tool.json', /tool's own definition/],
    ['TOOL.JSON', /tool's own definition/],
    ['.lock', /Toolwright uses for its own files/],
    ['.claims/abc', /Toolwright uses for its own files/],
    ['.Dockerfile.tmp-1-abcd', /Toolwright uses for its own files/],
    ['.env', /credentials do not belong/],
    ['src/.env.local', /credentials do not belong/],
    ['con.txt', /device name on Windows/],
    ['trailing.', /ends with a dot/],
    ['bell\u0007.sh', /control character/],
    ['folder/', /ends with '\/'/],
    [`${'a/'.repeat(40)}x`, /nested deeper than 32/],
  ];

  it('refuses each with the reason, for every operation, and writes nothing anywhere', async () => {
    const before = snapshot(h.dataDir);
    const outsideBefore = snapshot(outside);
    for (const [path, reason] of HOSTILE) {
      for (const [method, url, body] of [
        ['GET', fileUrl(path), undefined],
        ['PUT', fileUrl(path), { content: 'pwned' }],
        ['DELETE', fileUrl(path), undefined],
        ['POST', `${TOOL()}/files/rename`, { from: 'Dockerfile', to: path }],
        ['POST', `${TOOL()}/files/rename`, { from: path, to: 'stolen.txt' }],
      ] as const) {
        const r = await h.api(method, url, body);
        expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(400);
        expect(r.body.error.code).toBe('INVALID_INPUT');
        expect(r.body.error.message, `${method} ${path}`).toMatch(reason);
      }
    }
    expect(snapshot(h.dataDir)).toEqual(before);
    expect(snapshot(outside)).toEqual(outsideBefore);
    expect(existsSync(join(h.dataDir, 'bundles', bundleID, 'tools', 'escape.txt'))).toBe(false);
  });

  it('takes the path from the URL, never from a body key of the same name', async () => {
    const r = await h.api('PUT', fileUrl('from-url.txt'), { content: 'x', path: '../../escape.txt' });
    expect(r.status).toBe(200);
    expect(r.body.path).toBe('from-url.txt');
    await h.api('DELETE', fileUrl('from-url.txt'));
  });

  it('refuses paths over the contract length, and raw ../ sent unencoded', async () => {
    expect((await h.api('GET', fileUrl('a'.repeat(1100)))).status).toBe(400);
    const raw = await fetch(`${h.url}${TOOL()}/files/content?path=../../../etc/passwd`, { headers: { authorization: `Bearer ${h.token}` } });
    expect(raw.status).toBe(400);
  });

  it('never follows a link: reading, writing through or over one is refused; deleting removes the link only', async () => {
    await symlink(outside, join(toolDir, 'linked-dir'));
    await symlink(join(outside, 'secret.txt'), join(toolDir, 'linked-file'));
    const outsideBefore = snapshot(outside);
    const cases: [string, string, unknown][] = [
      ['GET', fileUrl('linked-file'), undefined],
      ['GET', fileUrl('linked-dir/secret.txt'), undefined],
      ['PUT', fileUrl('linked-dir/new.txt'), { content: 'pwned' }],
      ['PUT', fileUrl('linked-dir/secret.txt'), { content: 'pwned' }],
      ['PUT', fileUrl('linked-file'), { content: 'pwned' }],
      ['POST', `${TOOL()}/files/rename`, { from: 'Dockerfile', to: 'linked-dir/Dockerfile' }],
      ['POST', `${TOOL()}/files/rename`, { from: 'linked-file', to: 'copied.txt' }],
    ];
    for (const [method, url, body] of cases) {
      const r = await h.api(method, url, body);
      expect(r.status, `${method} ${url}: ${JSON.stringify(r.body)}`).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(JSON.stringify(r.body)).not.toContain('host secret');
    }
    expect(snapshot(outside)).toEqual(outsideBefore);
    const list = await h.api('GET', `${TOOL()}/files`);
    expect(list.body.skipped.map((s: { path: string }) => s.path)).toEqual(['linked-dir', 'linked-file']);
    expect(list.body.items.some((i: { path: string }) => i.path.startsWith('linked'))).toBe(false);
    expect((await h.api('DELETE', fileUrl('linked-file'))).status).toBe(204);
    expect(existsSync(join(toolDir, 'linked-file'))).toBe(false);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('host secret');
    await rm(join(toolDir, 'linked-dir'));
  });
});

describe('where files may be written', () => {
  it('refuses tools that are not container tools, and bundles that take no writes', async () => {
    const fn = await h.api('PUT', `/tools/bundles/${bundleID}/tools/fn/version/v1`, {
      type: 'function',
      impl: { function: 'core.uuid' },
      argSchema: { type: 'object' },
    });
    expect(fn.status).toBe(201);
    const r = await h.api('PUT', `/tools/bundles/${bundleID}/tools/fn/version/v1/files/content?path=Dockerfile`, { content: 'x' });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/only container tools/);
    expect((await h.api('GET', `/tools/bundles/${bundleID}/tools/missing/version/v1/files`)).status).toBe(404);

    await h.api('PATCH', `/tools/bundles/${bundleID}`, { isEnabled: false });
    const off = await h.api('PUT', fileUrl('Dockerfile'), { content: 'x' });
    expect(off.status).toBe(409);
    expect(off.body.error.code).toBe('BUNDLE_DISABLED');
    expect((await h.api('GET', fileUrl('Dockerfile'))).status).toBe(200); // reading stays possible
    await h.api('PATCH', `/tools/bundles/${bundleID}`, { isEnabled: true });
  });

  it('never re-creates the folder of a tool deleted meanwhile', async () => {
    const put = await h.api('PUT', `/tools/bundles/${bundleID}/tools/gone/version/v1`, {
      type: 'container',
      impl: { build: '.' },
      argSchema: { type: 'object' },
    });
    const dir = join(h.dataDir, 'bundles', bundleID, 'tools', put.body.toolID);
    const url = `/tools/bundles/${bundleID}/tools/gone/version/v1/files/content?path=${encodeURIComponent('sub/f.txt')}`;
    const [write] = await Promise.all([h.api('PUT', url, { content: 'x' }), h.api('DELETE', `/tools/bundles/${bundleID}/tools/gone/version/v1`)]);
    expect([200, 404]).toContain(write.status);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('atomic writes', () => {
  it('a reader sees the old file or the new one, never a torn one, and no temp file stays behind', async () => {
    const a = 'A'.repeat(3 * 1024 * 1024);
    const b = 'B'.repeat(2 * 1024 * 1024) + 'end';
    await h.api('PUT', fileUrl('payload.txt'), { content: a });
    const target = join(toolDir, 'payload.txt');
    let stop = false;
    let reads = 0;
    const torn: number[] = [];
    const reader = (async () => {
      while (!stop) {
        const text = await readFile(target, 'utf8');
        reads++;
        if (text !== a && text !== b) torn.push(text.length);
      }
    })();
    for (let i = 0; i < 12; i++) {
      const r = await h.api('PUT', fileUrl('payload.txt'), { content: i % 2 ? a : b });
      expect(r.status).toBe(200);
    }
    stop = true;
    await reader;
    expect(reads).toBeGreaterThan(12);
    expect(torn).toEqual([]);
    expect(readdirSync(toolDir).filter((n) => n.includes('.tmp-'))).toEqual([]);
    expect(lstatSync(target).isFile()).toBe(true);
    await h.api('DELETE', fileUrl('payload.txt'));
  });

  it('leaves a write in progress out of the build context (a stray temp file is not part of the folder)', async () => {
    const { readBuildContext } = await import('../../../../electron/core/tool-types/container/build-context.js');
    await mkdir(join(toolDir, 'sub'), { recursive: true });
    await writeFile(join(toolDir, 'sub', `.run.sh.tmp-${process.pid}-abcd1234`), 'half written');
    const context = await readBuildContext(toolDir);
    expect(context.entries.map((e) => e.path)).not.toContain(`sub/.run.sh.tmp-${process.pid}-abcd1234`);
    expect((await h.api('GET', `${TOOL()}/files`)).body.items.map((i: { path: string }) => i.path)).not.toContain(`sub/.run.sh.tmp-${process.pid}-abcd1234`);
    await rm(join(toolDir, 'sub'), { recursive: true });
  });
});
