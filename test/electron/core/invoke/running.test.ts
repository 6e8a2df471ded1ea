/**
 * The registry of running invocations under <data>/invocations/: a request reaches the owner and
 * is acknowledged, files go when the run ends, and files of a dead process are stale (a cancel
 * answers false and they are swept). Across real processes: test/electron/cli/cli-stream.test.ts
 * and test/electron/host/mcp/mcp-stream.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { RunningInvocations } from '../../../../electron/core/invoke/running.js';
import { tempDir } from '../../../helpers/store.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

const entry = (invocationID: string) => ({ invocationID, toolID: 't', bundleID: 'b', slug: 's', version: 'v1', startedAt: new Date().toISOString() });

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('RunningInvocations', () => {
  it('delivers a cancel request to the owner, which acknowledges it; the files go with the run', async () => {
    const dir = join(await tempDir('tw-running-'), 'invocations');
    dirs.push(dir);
    const owner = new RunningInvocations(dir);
    const asker = new RunningInvocations(dir);
    let cancelled = 0;
    const end = owner.register(entry('run-1'), () => cancelled++);
    await until(async () => (await readdir(dir).catch(() => [] as string[])).includes('run-1.json'));
    expect(await asker.requestCancel('run-1')).toBe(true);
    expect(cancelled).toBe(1);
    expect(await readdir(dir)).toEqual(['run-1.json']);
    end();
    await until(async () => (await readdir(dir)).length === 0);
    expect(await readdir(dir)).toEqual([]);
    expect(await asker.requestCancel('run-1')).toBe(false);
    expect(await asker.requestCancel('../etc/passwd')).toBe(false);
    owner.close();
  });

  it('treats the files of a process that is gone as stale: no cancel, swept', async () => {
    const dir = join(await tempDir('tw-running-'), 'invocations');
    dirs.push(dir);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'old.json'), JSON.stringify({ ...entry('old'), pid: dead }));
    await writeFile(join(dir, 'gone.json'), JSON.stringify({ ...entry('gone'), pid: dead }));
    await writeFile(join(dir, 'orphan.cancel'), '{}');
    const registry = new RunningInvocations(dir);
    expect(await registry.requestCancel('old')).toBe(false);
    expect((await readdir(dir)).sort()).toEqual(['gone.json', 'orphan.cancel']);
    await registry.sweep();
    expect(await readdir(dir)).toEqual([]);
  });
});
