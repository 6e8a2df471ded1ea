import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { promises as fsp } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createFunctionRegistry } from '../../../../electron/core/functions/core-functions.js';
import { createFunctionRunner } from '../../../../electron/core/tool-types/function/runner.js';
import { defaultRegexSandbox } from '../../../../electron/core/functions/regex.js';
import { readFileFunction, listDirFunction, MAX_READ_BYTES, type ReadFileValue, type DirEntry } from '../../../../electron/core/functions/files.js';
import type { CoreError } from '../../../../electron/core/errors.js';
import { contextFor, coreErrorOf, expectMatchesOutputSchema } from '../../../helpers/functions-context.js';

const SECRET = 'TOP-SECRET-CONTENT-7f3a';
let base: string;
let root: string;
let outside: string;
const runner = createFunctionRunner(createFunctionRegistry());

beforeAll(async () => {
  base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'tw-files-')));
  root = path.join(base, 'workspace');
  outside = path.join(base, 'outside');
  await fsp.mkdir(path.join(root, 'sub', 'deeper'), { recursive: true });
  await fsp.mkdir(outside);
  await fsp.writeFile(path.join(outside, 'secret.txt'), SECRET);
  await fsp.writeFile(path.join(root, 'a.txt'), 'hello\n');
  await fsp.writeFile(path.join(root, 'sub', 'b.txt'), 'bee');
  await fsp.writeFile(path.join(root, 'sub', 'deeper', 'c.md'), '# c');
  await fsp.writeFile(path.join(root, '.hidden'), 'h');
  await fsp.writeFile(path.join(root, 'x'), 'a file literally named x');
  await fsp.symlink('sub/b.txt', path.join(root, 'inside-link'));
  await fsp.symlink('sub', path.join(root, 'inside-dir-link'));
  await fsp.symlink('/etc', path.join(root, 'etc'));
  await fsp.symlink(path.join(outside, 'secret.txt'), path.join(root, 'out-file'));
  await fsp.symlink('../outside', path.join(root, 'out-dir'));
  await fsp.symlink('loop2', path.join(root, 'loop1'));
  await fsp.symlink('loop1', path.join(root, 'loop2'));
  await fsp.symlink('does-not-exist', path.join(root, 'dangling'));
  await fsp.symlink(root, path.join(base, 'root-link'));
});

afterAll(async () => {
  await fsp.rm(base, { recursive: true, force: true });
  await defaultRegexSandbox.close();
});

const read = async (args: Record<string, unknown>, workspaceRoot: string | null = root) =>
  (await runner.run(contextFor('core.readFile', args, { config: { workspaceRoot } }))).value as ReadFileValue;
const list = async (args: Record<string, unknown>, workspaceRoot: string | null = root) =>
  (await runner.run(contextFor('core.listDir', args, { config: { workspaceRoot } }))).value as {
    path: string;
    total: number;
    truncated: boolean;
    entries: DirEntry[];
  };

function expectNoLeak(err: CoreError): void {
  expect(err.message).not.toContain(SECRET);
  expect(JSON.stringify(err.details ?? {})).not.toContain(SECRET);
}

describe('workspace confinement', () => {
  it('reads files inside the root, also through a symlinked root and an inside symlink', async () => {
    const a = await read({ path: 'a.txt' });
    expectMatchesOutputSchema(readFileFunction, a);
    expect(a).toMatchObject({ path: 'a.txt', content: 'hello\n', size: 6, bytesRead: 6, truncated: false, binary: false, encoding: 'utf-8' });
    expect((await read({ path: './sub//b.txt' })).content).toBe('bee');
    expect((await read({ path: 'inside-link' })).content).toBe('bee');
    expect((await read({ path: 'inside-dir-link/deeper/c.md' })).content).toBe('# c');
    expect((await read({ path: 'a.txt' }, path.join(base, 'root-link'))).content).toBe('hello\n');
  });

  it.each([
    ['../x', 'FORBIDDEN', "'..' is not accepted"],
    ['../outside/secret.txt', 'FORBIDDEN', "'..' is not accepted"],
    ['a/../../x', 'FORBIDDEN', "'..' is not accepted"],
    ['sub/../a.txt', 'FORBIDDEN', "'..' is not accepted"],
    ['/etc/passwd', 'FORBIDDEN', 'absolute paths are not accepted'],
    ['//etc/passwd', 'FORBIDDEN', 'absolute paths are not accepted'],
    ['C:/Windows/win.ini', 'FORBIDDEN', 'absolute paths are not accepted'],
    ['..\\x', 'FORBIDDEN', 'backslashes are not accepted'],
    ['sub\\..\\..\\outside\\secret.txt', 'FORBIDDEN', 'backslashes are not accepted'],
    ['\\\\server\\share\\x', 'FORBIDDEN', 'backslashes are not accepted'],
    ['etc/passwd', 'FORBIDDEN', 'leads outside the workspace root through a symbolic link'],
    ['etc', 'FORBIDDEN', 'leads outside the workspace root'],
    ['out-file', 'FORBIDDEN', 'leads outside the workspace root'],
    ['out-dir/secret.txt', 'FORBIDDEN', 'leads outside the workspace root'],
    ['loop1', 'FORBIDDEN', 'symbolic link loop'],
    ['a.txt\u0000.png', 'INVALID_ARGS', 'contains a NUL byte'],
    ['dangling', 'NOT_FOUND', "'dangling' was not found"],
    ['%2e%2e/outside/secret.txt', 'NOT_FOUND', 'was not found'],
    ['a.txt/more', 'NOT_FOUND', 'was not found'],
  ])('readFile refuses %j (%s)', async (hostile, code, message) => {
    const err = await coreErrorOf(() => read({ path: hostile }));
    expect(err.code).toBe(code);
    expect(err.message).toContain(message);
    expectNoLeak(err);
  });

  it.each(['../', '/', '/etc', 'etc', 'out-dir', 'a/../..', '..\\', 'loop2'])('listDir refuses %j', async (hostile) => {
    const err = await coreErrorOf(() => list({ path: hostile }));
    expect(['FORBIDDEN', 'INVALID_ARGS']).toContain(err.code);
    expectNoLeak(err);
  });

  it('asks for workspaceRoot in Settings when it is not set, and checks it exists', async () => {
    const err = await coreErrorOf(() => read({ path: 'a.txt' }, null));
    expect(err.code).toBe('TOOL_UNAVAILABLE');
    expect(err.message).toBe('core.readFile needs a workspace folder: set workspaceRoot in Settings to the folder that file tools may read');
    expect((await coreErrorOf(() => list({}, null))).message).toContain('core.listDir needs a workspace folder: set workspaceRoot in Settings');
    expect((await coreErrorOf(() => read({ path: 'a.txt' }, path.join(base, 'missing')))).message).toMatch(/does not exist; create it or fix it in Settings/);
    expect((await coreErrorOf(() => read({ path: 'a.txt' }, 'relative/root'))).message).toMatch(/not an absolute path/);
    expect((await coreErrorOf(() => read({ path: 'a.txt' }, path.join(root, 'a.txt')))).message).toMatch(/is not a folder/);
  });
});

describe('core.readFile', () => {
  it('caps reads at 1 MiB and says the file was truncated', async () => {
    const big = 'x'.repeat(MAX_READ_BYTES + 10);
    await fsp.writeFile(path.join(root, 'big.txt'), big);
    const v = await read({ path: 'big.txt' });
    expect(v).toMatchObject({ size: MAX_READ_BYTES + 10, bytesRead: MAX_READ_BYTES, truncated: true, binary: false });
    expect(v.content!.length).toBe(MAX_READ_BYTES);
    expect((await coreErrorOf(() => read({ path: 'big.txt', maxBytes: MAX_READ_BYTES + 1 }))).code).toBe('INVALID_ARGS');
  });

  it('does not split a multi-byte character when truncating', async () => {
    await fsp.writeFile(path.join(root, 'utf8.txt'), 'aé€😀b');
    const v = await read({ path: 'utf8.txt', maxBytes: 5 }); // a(1) é(2) then 2 of €'s 3 bytes
    expect(v.content).toBe('aé');
    expect(v.truncated).toBe(true);
    expect((await read({ path: 'utf8.txt' })).content).toBe('aé€😀b');
  });

  it('reports binary files by type and size instead of dumping them', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100)]);
    await fsp.writeFile(path.join(root, 'image.png'), png);
    const v = await read({ path: 'image.png' });
    expectMatchesOutputSchema(readFileFunction, v);
    expect(v).toMatchObject({ binary: true, content: null, encoding: null, size: 108, detectedType: 'image/png' });
    await fsp.writeFile(path.join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9])); // "café" in Latin-1
    expect(await read({ path: 'latin1.txt' })).toMatchObject({ binary: true, content: null });
    const out = await runner.run(contextFor('core.readFile', { path: 'image.png' }, { config: { workspaceRoot: root } }));
    expect(out.card?.html).toContain('Binary file (image/png), 108 bytes');
  });

  it('refuses folders and special files without blocking', async () => {
    expect((await coreErrorOf(() => read({ path: 'sub' }))).message).toMatch(/is a folder; use core.listDir/);
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    const err = await coreErrorOf(() => read({ path: 'pipe' }));
    expect(err.message).toMatch(/not a regular file/);
    await fsp.rm(path.join(root, 'pipe'));
  });

  it('escapes file content in its card', async () => {
    await fsp.writeFile(path.join(root, 'evil.html'), '<script>alert(1)</script>');
    const out = await runner.run(contextFor('core.readFile', { path: 'evil.html' }, { config: { workspaceRoot: root } }));
    expect(out.card?.html).toBe('<pre>&lt;script&gt;alert(1)&lt;/script&gt;</pre>');
  });
});

describe('core.listDir', () => {
  it('lists the root sorted, with types, sizes and where symlinks lead', async () => {
    const v = await list({});
    expectMatchesOutputSchema(listDirFunction, v);
    expect(v.path).toBe('.');
    const names = v.entries.map((e) => e.name);
    expect(names).toEqual([...names].sort());
    const byName = new Map(v.entries.map((e) => [e.name, e]));
    expect(byName.get('a.txt')).toMatchObject({ type: 'file', size: 6 });
    expect(byName.get('sub')).toMatchObject({ type: 'directory' });
    expect(byName.get('sub')!.size).toBeUndefined();
    expect(byName.get('.hidden')).toMatchObject({ type: 'file' });
    expect(byName.get('inside-link')).toMatchObject({ type: 'symlink', linkTarget: 'file' });
    expect(byName.get('inside-dir-link')).toMatchObject({ type: 'symlink', linkTarget: 'directory' });
    expect(byName.get('etc')).toMatchObject({ type: 'symlink', linkTarget: 'outside' });
    expect(byName.get('out-file')).toMatchObject({ type: 'symlink', linkTarget: 'outside' });
    expect(byName.get('loop1')).toMatchObject({ type: 'symlink', linkTarget: 'broken' });
    expect(byName.get('dangling')).toMatchObject({ type: 'symlink', linkTarget: 'broken' });
    expect(v.total).toBe(v.entries.length);
    expect(JSON.stringify(v)).not.toContain(SECRET);
  });

  it('lists sub-folders, through inside symlinks, and caps the count', async () => {
    expect((await list({ path: 'sub' })).entries.map((e) => e.name)).toEqual(['b.txt', 'deeper']);
    expect((await list({ path: 'inside-dir-link/deeper' })).entries.map((e) => e.name)).toEqual(['c.md']);
    expect((await list({ path: '' })).path).toBe('.');
    const capped = await list({ maxEntries: 2 });
    expect(capped.entries).toHaveLength(2);
    expect(capped.truncated).toBe(true);
    expect(capped.total).toBeGreaterThan(2);
  });

  it('refuses a file and a missing folder', async () => {
    expect((await coreErrorOf(() => list({ path: 'a.txt' }))).message).toMatch(/is not a folder; use core.readFile/);
    expect((await coreErrorOf(() => list({ path: 'nope' }))).code).toBe('NOT_FOUND');
  });
});
