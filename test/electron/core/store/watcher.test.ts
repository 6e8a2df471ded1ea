import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFile, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import type { StoreEvent } from '../../../../shared/operations.js';
import { watchStore, type StoreWatcher } from '../../../../electron/core/store/watcher.js';
import { functionTool, openTestStore, type TestStore } from '../../../helpers/store.js';

let app: TestStore; // the running app
let other: TestStore; // another process's view of the same folder
let watcher: StoreWatcher;
const events: StoreEvent[] = [];

async function until(cond: () => boolean, what: string, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  app = await openTestStore();
  other = await openTestStore({ dataDir: app.dataDir });
  app.store.on('event', (e) => events.push(e));
  watcher = watchStore(app.store, { config: async () => void (await app.config.reload()) });
  await watcher.ready;
});
afterAll(async () => {
  await watcher.close();
  await app.cleanup();
});

describe('changes made outside the app', () => {
  it('arrive without restart, as events: a new bundle and tool, a hand edit, a deletion, a corrupted file, config', async () => {
    const bundleID = uuidv7();
    await other.bundles.put(bundleID, { slug: 'elsewhere' });
    await until(() => app.store.state.bundles.has(bundleID), 'the bundle');
    expect(events.some((e) => e.type === 'bundle.changed' && e.bundleID === bundleID)).toBe(true);

    const tool = await other.tools.create({ bundleID, slug: 'remote', version: '1' }, functionTool());
    await until(() => app.store.state.tools.has(tool.toolID), 'the tool');
    expect(events.some((e) => e.type === 'tool.changed' && e.toolID === tool.toolID)).toBe(true);

    // An editor changes the description in place.
    const path = join(app.dataDir, 'bundles', bundleID, 'tools', tool.toolID, 'tool.json');
    const obj = JSON.parse(await readFile(path, 'utf8'));
    obj.description = 'edited by hand';
    await writeFile(path, JSON.stringify(obj, null, 2));
    await until(() => app.store.state.tools.get(tool.toolID)?.file.description === 'edited by hand', 'the hand edit');

    // A broken edit: reported, the tool leaves the list, the file stays as it is.
    await writeFile(path, '{"broken":');
    await until(() => app.store.problems().some((p) => p.path === path), 'the problem report');
    expect(app.store.state.tools.has(tool.toolID)).toBe(false);
    expect(await readFile(path, 'utf8')).toBe('{"broken":');
    // Fixed again: back, problem gone.
    await writeFile(path, JSON.stringify(obj, null, 2));
    await until(() => app.store.state.tools.has(tool.toolID) && !app.store.problems().some((p) => p.path === path), 'the fix');

    // git rm of the tool folder.
    await rm(join(app.dataDir, 'bundles', bundleID, 'tools', tool.toolID), { recursive: true });
    await until(() => !app.store.state.tools.has(tool.toolID), 'the removal');
    expect(events.some((e) => e.type === 'tool.removed' && e.toolID === tool.toolID)).toBe(true);

    await other.config.patch({ toolsEnabled: false });
    await until(() => app.config.get().toolsEnabled === false, 'the config change');
  });
});

describe('the watcher itself', () => {
  it('survives a symlink loop in the data folder (chokidar reports ELOOP as an error event) and keeps syncing', async () => {
    // Either of these ends a real host process (an unhandled rejection too, by Node's default).
    const crashes: unknown[] = [];
    const onCrash = (e: unknown) => crashes.push(e);
    process.on('uncaughtException', onCrash);
    process.on('unhandledRejection', onCrash);
    try {
      await symlink(join(app.dataDir, 'bundles', 'loop'), join(app.dataDir, 'bundles', 'loop'));
      const bundleID = uuidv7();
      await other.bundles.put(bundleID, { slug: 'after-the-loop' });
      await until(() => app.store.state.bundles.has(bundleID), 'a change after the loop');
      await new Promise((r) => setTimeout(r, 300));
      expect(crashes).toEqual([]);
    } finally {
      process.off('uncaughtException', onCrash);
      process.off('unhandledRejection', onCrash);
      await rm(join(app.dataDir, 'bundles', 'loop'), { force: true });
    }
  });

  it('follows a tool folder moved to another bundle (git mv), leaving the old bundle empty', async () => {
    const a = uuidv7();
    const b = uuidv7();
    await other.bundles.put(a, { slug: 'from' });
    await other.bundles.put(b, { slug: 'to' });
    const tool = await other.tools.create({ bundleID: a, slug: 'mover', version: '1' }, functionTool());
    await until(() => app.store.state.tools.get(tool.toolID)?.file.bundleID === a, 'the tool in its first bundle');
    const to = join(app.dataDir, 'bundles', b, 'tools', tool.toolID);
    await rename(join(app.dataDir, 'bundles', a, 'tools', tool.toolID), to);
    const file = JSON.parse(await readFile(join(to, 'tool.json'), 'utf8'));
    await writeFile(join(to, 'tool.json'), JSON.stringify({ ...file, bundleID: b }, null, 2));
    await until(() => app.store.state.tools.get(tool.toolID)?.file.bundleID === b, 'the tool in its new bundle');
    await new Promise((r) => setTimeout(r, 400)); // let every debounced sync of both folders run
    expect(app.store.state.tools.get(tool.toolID)?.file.bundleID).toBe(b);
    expect(app.store.state.toolCount(a)).toBe(0);
    expect(app.store.state.toolCount(b)).toBe(1);
  });

  it('watches the folders its readers need (metrics, agents, approvals) and not those every call writes (audit, history, rate limits)', async () => {
    // Each change of a watched folder costs chokidar a stat and a re-read of the folder: on a
    // serving host the audit log's append alone made that a quarter of the main thread's work.
    const perCall = ['audit', 'history', 'invocations', 'rate-limits', 'tasks', 'search'].map((d) => join(app.dataDir, d));
    for (const d of perCall) {
      await mkdir(d, { recursive: true });
      await writeFile(join(d, 'written-per-call.jsonl'), '{}\n');
    }
    const read = ['metrics', 'agents', 'approvals'].map((d) => join(app.dataDir, d));
    await rm(join(app.dataDir, 'approvals'), { recursive: true, force: true });
    for (const d of read) await mkdir(d, { recursive: true });
    await until(() => read.every((d) => watcher.watchedFolders().includes(d)), 'the folders the readers need, watched');
    // A counters' flush takes a lock (a folder) in metrics/ once a second: no change to read either.
    const lock = join(app.dataDir, 'metrics', 'some-tool.lock');
    perCall.push(lock);
    await mkdir(lock);
    await appendFile(join(app.dataDir, 'audit', 'written-per-call.jsonl'), '{}\n');
    await new Promise((r) => setTimeout(r, 200));
    expect(watcher.watchedFolders().filter((d) => perCall.some((p) => d === p || d.startsWith(p + sep)))).toEqual([]);
  });
});
