import { appendFile, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import type { HistoryEntry } from '../../../../shared/types.js';
import { HistoryStore } from '../../../../electron/core/invoke/history.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tw-history-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function entry(toolID: string, n: number, extra: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    invocationID: `inv-${n}`,
    toolID,
    startedAt: new Date(Date.UTC(2026, 5, 1, 9, 0, n)).toISOString(),
    durationMs: n,
    status: 'ok',
    args: { n },
    result: { doubled: n * 2 },
    ...extra,
  };
}

async function lines(file: string): Promise<string[]> {
  return (await readFile(file, 'utf8')).split('\n').filter((l) => l.length > 0);
}

describe('HistoryStore', () => {
  it('appends one JSON line per entry and lists newest first, up to the limit', async () => {
    const store = new HistoryStore(join(dir, 'history'));
    const tool = uuidv7();
    for (let i = 0; i < 5; i++) await store.append(tool, entry(tool, i));
    const file = join(dir, 'history', `${tool}.jsonl`);
    expect(await lines(file)).toHaveLength(5);
    expect(JSON.parse((await lines(file))[0]!)).toEqual(entry(tool, 0));
    expect((await store.list(tool)).map((e) => e.invocationID)).toEqual(['inv-4', 'inv-3', 'inv-2', 'inv-1', 'inv-0']);
    expect((await store.list(tool, 2)).map((e) => e.invocationID)).toEqual(['inv-4', 'inv-3']);
  });

  it('keeps the order of appends that nobody waited for, and list() sees them', async () => {
    const store = new HistoryStore(dir);
    const tool = uuidv7();
    for (let i = 0; i < 50; i++) void store.append(tool, entry(tool, i));
    const listed = await store.list(tool, 100);
    expect(listed.map((e) => e.durationMs)).toEqual(Array.from({ length: 50 }, (_, i) => 49 - i));
  });

  it('writes an entry on a later turn of the event loop, after work queued there before it (the audit record beside it)', async () => {
    const store = new HistoryStore(join(dir, 'history'));
    const tool = uuidv7();
    const file = join(dir, 'history', `${tool}.jsonl`);
    await store.append(tool, entry(tool, 1)); // the lock is held and the file open from here on
    let linesSeenByEarlierWork = -1;
    setImmediate(() => {
      linesSeenByEarlierWork = readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
    });
    await store.append(tool, entry(tool, 2));
    expect(linesSeenByEarlierWork).toBe(1);
    expect(await lines(file)).toHaveLength(2);
    await store.flush();
  });

  it('an unknown tool has an empty history; a hostile tool ID is refused', async () => {
    const store = new HistoryStore(dir);
    expect(await store.list(uuidv7())).toEqual([]);
    for (const bad of ['../../etc/passwd', 'a/b', '', '.hidden', 'x'.repeat(200)]) {
      await expect(store.list(bad)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      expect(() => store.append(bad, entry(bad, 1))).toThrow(/invalid tool ID/);
    }
  });

  it('tolerates a torn last line (a crash mid-append) and the next append does not join it', async () => {
    const store = new HistoryStore(dir);
    const tool = uuidv7();
    await store.append(tool, entry(tool, 1));
    await store.append(tool, entry(tool, 2));
    const file = join(dir, `${tool}.jsonl`);
    const torn = JSON.stringify(entry(tool, 3)).slice(0, 40);
    await appendFile(file, torn);
    expect((await store.list(tool)).map((e) => e.invocationID)).toEqual(['inv-2', 'inv-1']);

    // A fresh store (the restarted app) appends after the torn line.
    const restarted = new HistoryStore(dir);
    await restarted.append(tool, entry(tool, 4));
    expect((await restarted.list(tool)).map((e) => e.invocationID)).toEqual(['inv-4', 'inv-2', 'inv-1']);
    const raw = await readFile(file, 'utf8');
    expect(raw).toContain(torn + '\n' + JSON.stringify(entry(tool, 4)));
  });

  it('skips lines that are JSON but not history entries, and garbage', async () => {
    const store = new HistoryStore(dir);
    const tool = uuidv7();
    await writeFile(join(dir, `${tool}.jsonl`), ['{"hello":1}', 'not json', '', JSON.stringify(entry(tool, 7)), '[1,2]', '"x"'].join('\n') + '\n');
    expect((await store.list(tool)).map((e) => e.invocationID)).toEqual(['inv-7']);
  });

  it('stays bounded: compacts to the newest maxEntries once the file passes twice that', async () => {
    const store = new HistoryStore(dir, { maxEntries: 5 });
    const tool = uuidv7();
    const file = join(dir, `${tool}.jsonl`);
    let most = 0;
    for (let i = 0; i < 37; i++) {
      await store.append(tool, entry(tool, i));
      most = Math.max(most, (await lines(file)).length);
    }
    expect(most).toBeLessThanOrEqual(10);
    expect((await store.list(tool, 100)).map((e) => e.durationMs)).toEqual(Array.from({ length: (await lines(file)).length }, (_, i) => 36 - i));
    expect((await store.list(tool, 5)).map((e) => e.durationMs)).toEqual([36, 35, 34, 33, 32]);
    // No temp files are left behind, nor the lock once flushed (a train of appends holds it).
    expect((await readdir(dir)).filter((n) => !n.endsWith('.lock')).sort()).toEqual([`${tool}.jsonl`]);
    await store.flush();
    expect((await readdir(dir)).sort()).toEqual([`${tool}.jsonl`]);
  });

  it("lets go of a tool's lock once a train of appends ends, so another process can append", async () => {
    const tool = uuidv7();
    const first = new HistoryStore(dir);
    for (let i = 0; i < 5; i++) await first.append(tool, entry(tool, i));
    // Held across the train, then let go without a flush.
    await vi.waitFor(async () => expect(await readdir(dir)).not.toContain(`.${tool}.lock`), { timeout: 5000, interval: 10 });
    const second = new HistoryStore(dir);
    await second.append(tool, entry(tool, 5));
    // The first store's kept file was closed with the lock: it appends after the other's entry.
    await first.append(tool, entry(tool, 6));
    await Promise.all([first.flush(), second.flush()]);
    expect((await first.list(tool, 100)).map((e) => e.durationMs)).toEqual([6, 5, 4, 3, 2, 1, 0]);
    expect(await readdir(dir)).toEqual([`${tool}.jsonl`]);
  });

  it('counts the lines already on disk when a new process starts appending', async () => {
    const tool = uuidv7();
    const first = new HistoryStore(dir, { maxEntries: 5 });
    for (let i = 0; i < 9; i++) await first.append(tool, entry(tool, i));
    const second = new HistoryStore(dir, { maxEntries: 5 });
    await second.append(tool, entry(tool, 9));
    await second.append(tool, entry(tool, 10)); // 11 lines > 2 × 5: compacted
    expect(await lines(join(dir, `${tool}.jsonl`))).toHaveLength(5);
  });

  it('clips large args and results so that each entry stays small', async () => {
    const store = new HistoryStore(dir, { maxFieldBytes: 1024 });
    const tool = uuidv7();
    const big = { text: 'ü'.repeat(10_000) };
    await store.append(tool, entry(tool, 1, { args: big, result: big, error: { code: 'INTERNAL', message: 'e'.repeat(10_000) } }));
    const [e] = await store.list(tool);
    const originalBytes = Buffer.byteLength(JSON.stringify(big));
    expect(typeof e!.args).toBe('string');
    expect(e!.args as string).toMatch(new RegExp(`… \\[truncated: original ${originalBytes} bytes\\]$`));
    expect(Buffer.byteLength(e!.args as string)).toBeLessThanOrEqual(1024);
    expect(Buffer.byteLength(e!.result as string)).toBeLessThanOrEqual(1024);
    expect(Buffer.byteLength(e!.error!.message)).toBeLessThanOrEqual(2048);
    expect((await stat(join(dir, `${tool}.jsonl`))).size).toBeLessThan(5 * 1024);
  });

  it('reads entries that span many read chunks, newest first', async () => {
    const store = new HistoryStore(dir, { maxEntries: 1000, maxFieldBytes: 16 * 1024 });
    const tool = uuidv7();
    // ~7 KB per line, 60 lines: several 64 KB chunks, with lines crossing chunk borders.
    for (let i = 0; i < 60; i++) void store.append(tool, entry(tool, i, { result: { pad: `${i}:`.padEnd(7000, 'x') } }));
    const all = await store.list(tool, 1000);
    expect(all.map((e) => e.durationMs)).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
    expect(all.every((e) => (e.result as { pad: string }).pad.startsWith(`${e.durationMs}:`))).toBe(true);
    expect((await store.list(tool, 3)).map((e) => e.durationMs)).toEqual([59, 58, 57]);
  });

  it('recreates its folder when it was removed while the app ran', async () => {
    const store = new HistoryStore(join(dir, 'history'));
    const tool = uuidv7();
    await store.append(tool, entry(tool, 1));
    await rm(join(dir, 'history'), { recursive: true, force: true });
    await store.append(tool, entry(tool, 2));
    expect((await store.list(tool)).map((e) => e.invocationID)).toEqual(['inv-2']);
  });

  it("remove() deletes a tool's history", async () => {
    const store = new HistoryStore(dir);
    const tool = uuidv7();
    const other = uuidv7();
    await store.append(tool, entry(tool, 1));
    await store.append(other, entry(other, 1));
    await store.remove(tool);
    expect(await store.list(tool)).toEqual([]);
    expect(await store.list(other)).toHaveLength(1);
    await store.append(tool, entry(tool, 2));
    expect((await store.list(tool)).map((e) => e.invocationID)).toEqual(['inv-2']);
  });

  it('loses no entry to a rewrite when two stores append to the same tool at once (shared lock)', async () => {
    // A race, so it is run several times on fresh tools; without the lock a hole shows up.
    for (let round = 0; round < 8; round++) {
      const tool = uuidv7();
      // Small bound: both stores rewrite the file while the other appends.
      const a = new HistoryStore(dir, { maxEntries: 20 });
      const b = new HistoryStore(dir, { maxEntries: 20 });
      const writer = async (store: HistoryStore, name: string) => {
        for (let i = 0; i < 100; i++) await store.append(tool, entry(tool, i, { invocationID: `${name}-${i}` }));
      };
      await Promise.all([writer(a, 'a'), writer(b, 'b')]);
      const ids = (await a.list(tool, 1000)).map((e) => e.invocationID);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBeGreaterThanOrEqual(20);
      // What is kept of each writer is an unbroken run up to its last entry (empty when the
      // other writer's last 20 all came later): a rewrite that raced an append leaves a hole.
      for (const w of ['a', 'b']) {
        const kept = ids
          .filter((id) => id.startsWith(`${w}-`))
          .map((id) => Number(id.slice(2)))
          .reverse();
        expect(kept, `writer ${w}, round ${round}`).toEqual(Array.from({ length: kept.length }, (_, i) => 100 - kept.length + i));
      }
    }
  });
});
