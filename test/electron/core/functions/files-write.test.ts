import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { promises as fsp } from 'node:fs';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { createFunctionRegistry } from '../../../../electron/core/functions/core-functions.js';
import { createFunctionRunner } from '../../../../electron/core/tool-types/function/runner.js';
import { fileWriteFunction, fileEditFunction, fileDeleteFunction, MAX_WRITE_BYTES } from '../../../../electron/core/functions/files-write.js';
import { contextFor, coreErrorOf, expectMatchesOutputSchema, functionTool } from '../../../helpers/functions-context.js';
import { DEFAULT_CONFIG } from '../../../../shared/schemas.js';

const registry = createFunctionRegistry();
const runner = createFunctionRunner(registry);
let base: string;
let root: string;
let outside: string;

beforeAll(async () => {
  base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'tw-fwrite-')));
  root = path.join(base, 'workspace');
  outside = path.join(base, 'outside');
});

beforeEach(async () => {
  await fsp.rm(root, { recursive: true, force: true });
  await fsp.rm(outside, { recursive: true, force: true });
  await fsp.mkdir(path.join(root, 'sub'), { recursive: true });
  await fsp.mkdir(outside);
  await fsp.writeFile(path.join(outside, 'secret.txt'), 'SECRET');
  await fsp.writeFile(path.join(root, 'a.txt'), 'alpha\nbeta\ngamma\nbeta\n');
  await fsp.symlink(outside, path.join(root, 'out-dir'));
  await fsp.symlink(path.join(outside, 'secret.txt'), path.join(root, 'out-file'));
  await fsp.symlink('sub', path.join(root, 'inside-dir-link'));
  await fsp.symlink('a.txt', path.join(root, 'inside-file-link'));
});

afterAll(async () => {
  await fsp.rm(base, { recursive: true, force: true });
});

const call = async (fn: string, args: Record<string, unknown>, workspaceRoot: string | null = root) =>
  (await runner.run(contextFor(fn, args, { config: { workspaceRoot } }))).value as Record<string, unknown>;
const outsideUntouched = async () => {
  expect((await fsp.readdir(outside)).sort()).toEqual(['secret.txt']);
  expect(await fsp.readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('SECRET');
};
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('core.fileWrite', () => {
  it('creates a file and its folders, replaces one whole, and keeps its mode', async () => {
    const made = await call('core.fileWrite', { path: 'new/deep/n.txt', content: 'héllo' });
    expectMatchesOutputSchema(fileWriteFunction, made);
    expect(made).toEqual({ path: 'new/deep/n.txt', created: true, bytesWritten: 6, sha256: sha('héllo') });
    expect(await fsp.readFile(path.join(root, 'new/deep/n.txt'), 'utf8')).toBe('héllo');
    await fsp.chmod(path.join(root, 'a.txt'), 0o600);
    const replaced = await call('core.fileWrite', { path: './a.txt', content: 'new' });
    expect(replaced).toMatchObject({ path: 'a.txt', created: false, bytesWritten: 3 });
    expect(await fsp.readFile(path.join(root, 'a.txt'), 'utf8')).toBe('new');
    expect((await fsp.stat(path.join(root, 'a.txt'))).mode & 0o777).toBe(0o600);
    const bytes = Buffer.from([0, 1, 2, 255]);
    await call('core.fileWrite', { path: 'bin.dat', content: bytes.toString('base64'), encoding: 'base64' });
    expect(await fsp.readFile(path.join(root, 'bin.dat'))).toEqual(bytes);
    // No temp file is left beside what was written.
    expect((await fsp.readdir(root)).filter((n) => n.includes('.tw-'))).toEqual([]);
  });

  it('refuses to replace with overwrite: false, and to create folders with createFolders: false', async () => {
    const err = await coreErrorOf(() => call('core.fileWrite', { path: 'a.txt', content: 'x', overwrite: false }));
    expect(err.code).toBe('CONFLICT');
    expect(err.message).toContain('already exists');
    expect(await fsp.readFile(path.join(root, 'a.txt'), 'utf8')).toBe('alpha\nbeta\ngamma\nbeta\n');
    expect((await coreErrorOf(() => call('core.fileWrite', { path: 'nope/x.txt', content: 'x', createFolders: false }))).code).toBe('NOT_FOUND');
    expect((await coreErrorOf(() => call('core.fileWrite', { path: 'sub', content: 'x' }))).message).toContain('is a folder');
    expect((await coreErrorOf(() => call('core.fileWrite', { path: 'a.txt/x', content: 'x' }))).message).toContain("'a.txt' is a file");
  });

  it.each([
    ['../escape.txt', "'..' is not accepted"],
    ['sub/../../escape.txt', "'..' is not accepted"],
    ['/tmp/tw-escape.txt', 'absolute paths are not accepted'],
    ['out-dir/x.txt', "'out-dir' is a symbolic link"],
    ['out-dir/secret.txt', "'out-dir' is a symbolic link"],
    ['out-file', 'is a symbolic link'],
    ['inside-dir-link/x.txt', "'inside-dir-link' is a symbolic link"],
    ['inside-file-link', 'is a symbolic link'],
    ['sub\\..\\..\\escape.txt', 'backslashes are not accepted'],
    ['.', 'the workspace root itself'],
  ])('refuses to write %j', async (hostile, message) => {
    const err = await coreErrorOf(() => call('core.fileWrite', { path: hostile, content: 'PWNED' }));
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toContain(message);
    await outsideUntouched();
    expect(await fsp.readFile(path.join(root, 'a.txt'), 'utf8')).toBe('alpha\nbeta\ngamma\nbeta\n');
  });

  it('refuses content over the cap and text that is not base64', async () => {
    const big = 'x'.repeat(MAX_WRITE_BYTES + 1);
    expect((await coreErrorOf(() => call('core.fileWrite', { path: 'big.txt', content: big }))).message).toContain(`at most ${MAX_WRITE_BYTES}`);
    expect((await coreErrorOf(() => call('core.fileWrite', { path: 'b.dat', content: '%%%', encoding: 'base64' }))).message).toContain('not base64');
    await expect(fsp.access(path.join(root, 'big.txt'))).rejects.toThrow();
  });

  it('is unavailable without a workspace and asks for one', async () => {
    const fnRunner = createFunctionRunner(registry, () => ({ ...DEFAULT_CONFIG, workspaceRoot: null }));
    for (const fn of ['core.fileWrite', 'core.fileEdit', 'core.fileDelete', 'core.glob', 'core.fileSearch']) {
      expect(fnRunner.availability(functionTool(fn), '', { get: () => undefined, has: () => false, values: () => [] })).toMatchObject({
        ok: false,
        reason: expect.stringContaining('no workspace folder is set'),
      });
    }
    expect((await coreErrorOf(() => call('core.fileWrite', { path: 'x', content: 'x' }, null))).code).toBe('TOOL_UNAVAILABLE');
  });

  it('never lands a byte outside while another process swaps a folder for a link to outside (TOCTOU)', async () => {
    // A real process flips root/sub between the real folder and a symbolic link to `outside`, as fast as it can.
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs'); const [sub, parked, out] = process.argv.slice(1);
         process.stdout.write('ready\\n');
         for (;;) { try { fs.renameSync(sub, parked); fs.symlinkSync(out, sub); fs.unlinkSync(sub); fs.renameSync(parked, sub); } catch {} }`,
        path.join(root, 'sub'),
        path.join(root, 'parked'),
        outside,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise((resolve) => swapper.stdout.once('data', resolve));
      const outcomes = new Map<string, number>();
      for (let i = 0; i < 300; i++) {
        try {
          await call('core.fileWrite', { path: `sub/w${i}.txt`, content: 'PWNED' });
          outcomes.set('ok', (outcomes.get('ok') ?? 0) + 1);
        } catch (e) {
          const code = (e as { code: string }).code;
          outcomes.set(code, (outcomes.get(code) ?? 0) + 1);
        }
      }
      // Only refusals the tools give on purpose; never a write through the link.
      expect(
        [...outcomes.keys()].every((k) => ['ok', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'INVALID_ARGS'].includes(k)),
        JSON.stringify([...outcomes]),
      ).toBe(true);
    } finally {
      swapper.kill('SIGKILL');
      await new Promise((resolve) => swapper.once('exit', resolve));
    }
    await outsideUntouched();
  });
});

describe('core.fileEdit', () => {
  it('replaces a string that occurs once, and every occurrence with replaceAll', async () => {
    const once = await call('core.fileEdit', { path: 'a.txt', oldString: 'gamma', newString: 'GAMMA' });
    expectMatchesOutputSchema(fileEditFunction, once);
    expect(once).toMatchObject({ path: 'a.txt', replacements: 1, lines: [3] });
    expect(await fsp.readFile(path.join(root, 'a.txt'), 'utf8')).toBe('alpha\nbeta\nGAMMA\nbeta\n');
    const all = await call('core.fileEdit', { path: 'a.txt', oldString: 'beta\n', newString: '', replaceAll: true });
    expect(all).toMatchObject({ replacements: 2, lines: [2, 4] });
    expect(await fsp.readFile(path.join(root, 'a.txt'), 'utf8')).toBe('alpha\nGAMMA\n');
    expect(all['sha256']).toBe(sha('alpha\nGAMMA\n'));
  });

  it('refuses an ambiguous match, saying where it occurs, and changes nothing', async () => {
    const err = await coreErrorOf(() => call('core.fileEdit', { path: 'a.txt', oldString: 'beta', newString: 'B' }));
    expect(err.code).toBe('INVALID_ARGS');
    expect(err.message).toBe(
      "oldString occurs 2 times in 'a.txt' (lines 2, 4); include more of the surrounding text so it occurs once, or pass replaceAll: true",
    );
    expect(err.details).toMatchObject({ occurrences: 2, lines: [2, 4] });
    expect(await fsp.readFile(path.join(root, 'a.txt'), 'utf8')).toBe('alpha\nbeta\ngamma\nbeta\n');
  });

  it('refuses a missing string, a no-op, a binary file, a missing file and a link', async () => {
    expect((await coreErrorOf(() => call('core.fileEdit', { path: 'a.txt', oldString: 'delta', newString: 'x' }))).message).toContain('was not found');
    expect((await coreErrorOf(() => call('core.fileEdit', { path: 'a.txt', oldString: 'beta', newString: 'beta' }))).message).toContain('the same');
    await fsp.writeFile(path.join(root, 'bin'), Buffer.from([0x61, 0, 0x62]));
    expect((await coreErrorOf(() => call('core.fileEdit', { path: 'bin', oldString: 'a', newString: 'b' }))).message).toContain('not UTF-8 text');
    expect((await coreErrorOf(() => call('core.fileEdit', { path: 'none.txt', oldString: 'a', newString: 'b' }))).code).toBe('NOT_FOUND');
    const link = await coreErrorOf(() => call('core.fileEdit', { path: 'out-file', oldString: 'SECRET', newString: 'PWNED' }));
    expect(link.code).toBe('FORBIDDEN');
    expect(link.message).not.toContain('SECRET');
    await outsideUntouched();
  });

  it('keeps CRLF line endings and multi-byte text as they are', async () => {
    await fsp.writeFile(path.join(root, 'crlf.txt'), 'un\r\ndeux – ☃\r\ntrois\r\n');
    await call('core.fileEdit', { path: 'crlf.txt', oldString: 'deux – ☃', newString: 'zwei' });
    expect(await fsp.readFile(path.join(root, 'crlf.txt'), 'utf8')).toBe('un\r\nzwei\r\ntrois\r\n');
  });
});

describe('core.fileDelete', () => {
  it('is privileged and deletes a file, an empty folder, and a full one only with recursive', async () => {
    expect(fileDeleteFunction.safety).toBe('privileged');
    expect(fileWriteFunction.safety).toBe('sideEffecting');
    expect(fileEditFunction.safety).toBe('sideEffecting');
    expect(await call('core.fileDelete', { path: 'a.txt' })).toEqual({ path: 'a.txt', deleted: 'file' });
    await expect(fsp.access(path.join(root, 'a.txt'))).rejects.toThrow();
    await fsp.writeFile(path.join(root, 'sub', 'k.txt'), 'k');
    await fsp.symlink(outside, path.join(root, 'sub', 'link-out'));
    const full = await coreErrorOf(() => call('core.fileDelete', { path: 'sub' }));
    expect(full.code).toBe('CONFLICT');
    expect(full.message).toContain('not empty; pass recursive: true');
    expect(await call('core.fileDelete', { path: 'sub', recursive: true })).toEqual({ path: 'sub', deleted: 'folder' });
    await expect(fsp.access(path.join(root, 'sub'))).rejects.toThrow();
    await outsideUntouched(); // the link inside was removed, not followed
  });

  it.each([
    ['out-dir', 'is a symbolic link'],
    ['out-file', 'is a symbolic link'],
    ['out-dir/secret.txt', "'out-dir' is a symbolic link"],
    ['.', 'the workspace root itself'],
    ['../outside/secret.txt', "'..' is not accepted"],
  ])('refuses to delete %j', async (hostile, message) => {
    const err = await coreErrorOf(() => call('core.fileDelete', { path: hostile, recursive: true }));
    expect(err.code === 'FORBIDDEN' || err.code === 'INVALID_ARGS').toBe(true);
    expect(err.message).toContain(message);
    await outsideUntouched();
    expect(await fsp.readdir(root)).toContain('a.txt');
  });
});
