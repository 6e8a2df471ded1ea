import { chmod, cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import tar from 'tar-stream';
import { contextTar, readBuildContext } from '../../../../../electron/core/tool-types/container/build-context.js';

const dirs: string[] = [];
async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tw-build-context-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  return dir;
}

afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tarNames(stream: NodeJS.ReadableStream): Promise<string[]> {
  const extract = tar.extract();
  const names: string[] = [];
  extract.on('entry', (header, body, next) => {
    names.push(`${header.type}:${header.name}`);
    body.on('end', next);
    body.resume();
  });
  const done = new Promise<void>((resolve) => extract.on('finish', () => resolve()));
  stream.pipe(extract as unknown as NodeJS.WritableStream);
  await done;
  return names;
}

describe('readBuildContext', () => {
  it('hashes the same files the same way wherever they live, and leaves tool.json out', async () => {
    const a = await folder({ Dockerfile: 'FROM scratch\n', 'src/run.sh': 'echo hi\n', 'tool.json': '{"a":1}' });
    const b = await mkdtemp(path.join(os.tmpdir(), 'tw-build-context-copy-'));
    dirs.push(b);
    await cp(a, b, { recursive: true });
    await writeFile(path.join(b, 'tool.json'), '{"different":"metadata"}');
    const [first, second] = await Promise.all([readBuildContext(a), readBuildContext(b)]);
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(second.hash).toBe(first.hash);
    expect(first.entries.map((e) => e.path)).toEqual(['Dockerfile', 'src', 'src/run.sh']);
  });

  it('changes the hash when a file, a name or the executable bit changes', async () => {
    const dir = await folder({ Dockerfile: 'FROM scratch\n', 'run.sh': 'echo 1\n' });
    const base = (await readBuildContext(dir)).hash;
    await chmod(path.join(dir, 'run.sh'), 0o755);
    const executable = (await readBuildContext(dir)).hash;
    await writeFile(path.join(dir, 'run.sh'), 'echo 2\n');
    const edited = (await readBuildContext(dir)).hash;
    expect(new Set([base, executable, edited]).size).toBe(3);
  });

  it('never follows symbolic links, in the listing or in the tar', async () => {
    const outside = await folder({ 'secret.txt': 'host secret' });
    const dir = await folder({ Dockerfile: 'FROM scratch\n' });
    await symlink(path.join(outside, 'secret.txt'), path.join(dir, 'to-file'));
    await symlink(outside, path.join(dir, 'to-dir'));
    await symlink('/etc/passwd', path.join(dir, 'to-etc'));
    const context = await readBuildContext(dir);
    expect(context.entries.map((e) => e.path)).toEqual(['Dockerfile']);
    expect(context.skipped).toEqual(['to-dir (symbolic link, not followed)', 'to-etc (symbolic link, not followed)', 'to-file (symbolic link, not followed)']);
    expect(await tarNames(contextTar(context))).toEqual(['file:Dockerfile']);
  });

  it('says clearly when the folder cannot be read', async () => {
    await expect(readBuildContext(path.join(os.tmpdir(), 'tw-no-such-folder-here'))).rejects.toMatchObject({
      code: 'TOOL_UNAVAILABLE',
      message: expect.stringContaining('cannot be read'),
    });
  });
});
