import { afterEach, describe, expect, it } from 'vitest';
import { readFile, writeFile, readdir, mkdir, stat, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { v7 as uuidv7, v4 as uuidv4 } from 'uuid';
import { TOOL_KEY_ORDER } from '../../../../shared/schemas.js';
import { expectCode, functionTool, httpTool, makeBuiltinDir, openTestStore, type TestStore } from '../../../helpers/store.js';

let current: TestStore | undefined;
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
});

const T = () => current!;
async function withBundle(slug = 'weather', isEnabled = true) {
  current ??= await openTestStore();
  const bundleID = uuidv7();
  await current.bundles.put(bundleID, { slug, displayName: slug, isEnabled, description: '' });
  return bundleID;
}

describe('bundles', () => {
  it('creates, replaces (createdAt immutable, modifiedAt moves) and writes pretty JSON in a stable key order', async () => {
    current = await openTestStore();
    const id = uuidv7();
    const first = await T().bundles.put(id, { slug: 'weather', displayName: 'Weather', isEnabled: true, description: 'd' });
    expect(first.created).toBe(true);
    expect(first.bundle).toMatchObject({ bundleID: id, slug: 'weather', isBuiltIn: false, toolCount: 0, schemaVersion: '1' });
    await new Promise((r) => setTimeout(r, 5));
    const second = await T().bundles.put(id, { slug: 'weather2', displayName: 'Weather 2', description: 'x' });
    expect(second.created).toBe(false);
    expect(second.bundle.createdAt).toBe(first.bundle.createdAt);
    expect(second.bundle.modifiedAt > first.bundle.modifiedAt).toBe(true);
    expect(second.bundle.isEnabled).toBe(true); // left out on replace: kept
    const text = await readFile(join(T().dataDir, 'bundles', id, 'bundle.json'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text).toContain('\n  "bundleID"');
    expect(Object.keys(JSON.parse(text))).toEqual([
      'schemaVersion',
      'bundleID',
      'slug',
      'displayName',
      'description',
      'isEnabled',
      'isBuiltIn',
      'createdAt',
      'modifiedAt',
    ]);
  });

  it('refuses a bad slug with the field and the reason', async () => {
    current = await openTestStore();
    const e = await expectCode(T().bundles.put(uuidv7(), { slug: 'bad slug' }), 'INVALID_INPUT');
    expect(e.message).toContain('whitespace');
    expect((e.details as { issues: { field: string }[] }).issues[0]!.field).toBe('slug');
  });

  it('soft-deletes (hidden from lists, restorable) and refuses writes inside with BUNDLE_DELETED', async () => {
    const id = await withBundle();
    await T().tools.create({ bundleID: id, slug: 'now', version: 'v1' }, functionTool());
    const deleted = await T().bundles.softDelete(id);
    expect(deleted.softDeletedAt).toBeTruthy();
    expect(
      T()
        .bundles.list({})
        .items.map((b) => b.bundleID),
    ).not.toContain(id);
    expect(
      T()
        .bundles.list({ deleted: 'only' })
        .items.map((b) => b.bundleID),
    ).toEqual([id]);
    await expectCode(T().tools.create({ bundleID: id, slug: 'x', version: 'v1' }, functionTool()), 'BUNDLE_DELETED');
    await expectCode(T().tools.setEnabled({ bundleID: id, slug: 'now', version: 'v1' }, false), 'BUNDLE_DELETED');
    await expectCode(T().bundles.patch(id, false), 'BUNDLE_DELETED');
    await expectCode(T().bundles.put(id, { slug: 'again' }), 'BUNDLE_DELETED');
    const restored = await T().bundles.restore(id);
    expect(restored.softDeletedAt).toBeUndefined();
    expect(
      T()
        .bundles.list({})
        .items.map((b) => b.bundleID),
    ).toContain(id);
    const onDisk = JSON.parse(await readFile(join(T().dataDir, 'bundles', id, 'bundle.json'), 'utf8'));
    expect('softDeletedAt' in onDisk).toBe(false);
  });

  it('refuses tool writes inside a disabled bundle with BUNDLE_DISABLED, and lists it only with includeDisabled', async () => {
    const id = await withBundle('off', true);
    await T().tools.create({ bundleID: id, slug: 'a', version: '1' }, functionTool());
    await T().bundles.patch(id, false);
    const e = await expectCode(T().tools.create({ bundleID: id, slug: 'b', version: '1' }, functionTool()), 'BUNDLE_DISABLED');
    expect(e.message).toMatch(/switch it on/);
    await expectCode(T().tools.setEnabled({ bundleID: id, slug: 'a', version: '1' }, false), 'BUNDLE_DISABLED');
    expect(
      T()
        .bundles.list({})
        .items.find((b) => b.bundleID === id),
    ).toBeUndefined();
    expect(
      T()
        .bundles.list({ includeDisabled: true })
        .items.find((b) => b.bundleID === id)?.isEnabled,
    ).toBe(false);
    expect(T().tools.list({}).items).toHaveLength(0);
    expect(T().tools.list({ includeDisabled: true }).items).toHaveLength(1);
  });
});

describe('tools', () => {
  it('creates with a UUIDv7, NFC slug, defaults, stable key order; a second PUT of the pair is a CONFLICT that leaves the file byte-for-byte', async () => {
    const id = await withBundle();
    const nfd = 'me\u0301te\u0301o';
    const tool = await T().tools.create({ bundleID: id, slug: nfd, version: 'v1' }, functionTool({ tags: ['a', ' a ', 'b'] }));
    expect(tool.slug).toBe('météo');
    expect(tool.toolID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(tool.tags).toEqual(['a', 'b']);
    expect(tool.safety).toBe('readOnly');
    expect(tool.createdAt).toBe(tool.modifiedAt);
    const path = join(T().dataDir, 'bundles', id, 'tools', tool.toolID, 'tool.json');
    const before = await readFile(path);
    // Every field in its place; `schedules` is written only by a tool that has some, `review` only by an upstream tool.
    expect(Object.keys(JSON.parse(before.toString()))).toEqual(TOOL_KEY_ORDER.filter((k) => !['review', 'guard', 'schedules', 'extensions'].includes(k)));
    // Same pair typed precomposed: the same slug after NFC.
    const e = await expectCode(T().tools.create({ bundleID: id, slug: 'météo', version: 'v1' }, functionTool({ displayName: 'other' })), 'CONFLICT');
    expect(e.message).toContain('already exists');
    expect((await readFile(path)).equals(before)).toBe(true);
    // Slugs are case-sensitive: another case is another tool.
    await T().tools.create({ bundleID: id, slug: 'Météo', version: 'v1' }, functionTool());
    // Same slug, other version: fine.
    await T().tools.create({ bundleID: id, slug: 'météo', version: 'v2' }, functionTool());
    expect(T().tools.list({}).items).toHaveLength(3);
  });

  it('keeps pairs unique per bundle, not across bundles', async () => {
    const a = await withBundle('a');
    const b = await withBundle('b');
    await T().tools.create({ bundleID: a, slug: 'x', version: '1' }, functionTool());
    await T().tools.create({ bundleID: b, slug: 'x', version: '1' }, functionTool());
    expect(T().tools.list({}).items).toHaveLength(2);
  });

  it('refuses a body whose slug contradicts the path', async () => {
    const id = await withBundle();
    const e = await expectCode(T().tools.create({ bundleID: id, slug: 'x', version: '1' }, functionTool({ slug: 'y' })), 'INVALID_INPUT');
    expect(e.message).toContain('differs from the slug in the path');
  });

  it('PATCH isEnabled rewrites only that (not a structural change: modifiedAt and createdAt stay)', async () => {
    const id = await withBundle();
    const created = await T().tools.create({ bundleID: id, slug: 'x', version: '1' }, functionTool());
    await new Promise((r) => setTimeout(r, 5));
    const off = await T().tools.setEnabled({ bundleID: id, slug: 'x', version: '1' }, false);
    expect(off.isEnabled).toBe(false);
    expect(off.createdAt).toBe(created.createdAt);
    expect(off.modifiedAt).toBe(created.modifiedAt);
    expect(off.etag).not.toBe(created.etag);
    const { isEnabled: _a, availability: _c, metrics: _d, etag: _i, ...rest } = off;
    const { isEnabled: _e, availability: _g, metrics: _h, etag: _j, ...restBefore } = created;
    expect(rest).toEqual(restBefore);
  });

  it('edits with optimistic concurrency and renames the pair without losing uniqueness', async () => {
    const id = await withBundle();
    const a = await T().tools.create({ bundleID: id, slug: 'a', version: '1' }, functionTool());
    await T().tools.create({ bundleID: id, slug: 'b', version: '1' }, functionTool());
    await expectCode(
      T().tools.update({ bundleID: id, slug: 'a', version: '1' }, functionTool({ description: 'new' }), '2000-01-01T00:00:00.000Z'),
      'MODIFIED_ELSEWHERE',
    );
    await expectCode(T().tools.update({ bundleID: id, slug: 'a', version: '1' }, functionTool({ slug: 'b' }), a.modifiedAt), 'CONFLICT');
    const renamed = await T().tools.update({ bundleID: id, slug: 'a', version: '1' }, functionTool({ slug: 'c', description: 'new' }), a.modifiedAt);
    expect(renamed).toMatchObject({ slug: 'c', toolID: a.toolID, createdAt: a.createdAt, description: 'new' });
    // The old pair is free again, the new one taken.
    await T().tools.create({ bundleID: id, slug: 'a', version: '1' }, functionTool());
    await expectCode(T().tools.create({ bundleID: id, slug: 'c', version: '1' }, functionTool()), 'CONFLICT');
  });

  it('hard-deletes: the folder is gone and the pair can be reused', async () => {
    const id = await withBundle();
    const a = await T().tools.create({ bundleID: id, slug: 'a', version: '1' }, functionTool());
    await T().tools.delete({ bundleID: id, slug: 'a', version: '1' });
    await expectCode(T().tools.get({ bundleID: id, slug: 'a', version: '1' }), 'NOT_FOUND');
    expect((await readdir(join(T().dataDir, 'bundles', id, 'tools'))).filter((n) => !n.startsWith('.'))).toEqual([]);
    const again = await T().tools.create({ bundleID: id, slug: 'a', version: '1' }, functionTool());
    expect(again.toolID).not.toBe(a.toolID);
  });

  it('validates http tools: scheme, literal allowed host, placeholders that are neither args nor secret names, CR/LF', async () => {
    const id = await withBundle();
    const ref = { bundleID: id, slug: 'h', version: '1' };
    let e = await expectCode(T().tools.create(ref, httpTool('ftp://api.example.com/x')), 'INVALID_INPUT');
    expect(e.message).toContain('impl.urlTemplate');
    expect(e.message).toContain('http://');
    e = await expectCode(T().tools.create(ref, httpTool('https://api.example.com/w?q=${city}')), 'INVALID_INPUT');
    expect(e.message).toContain("host 'api.example.com' is not in config.allowedHosts");
    await T().config.patch({ allowedHosts: ['*.example.com'] });
    e = await expectCode(T().tools.create(ref, httpTool('https://${host}/x')), 'INVALID_INPUT');
    expect(e.message).toContain('written literally');
    e = await expectCode(T().tools.create(ref, httpTool('https://user:pw@api.example.com/x')), 'INVALID_INPUT');
    expect(e.message).toContain('credentials');
    e = await expectCode(T().tools.create(ref, httpTool('https://api.example.com/w?q=${citty}')), 'INVALID_INPUT');
    expect(e.message).toContain('${citty} is neither an argSchema property nor a secret name');
    e = await expectCode(
      T().tools.create(
        ref,
        httpTool('https://api.example.com/w', { impl: { method: 'GET', urlTemplate: 'https://api.example.com/w', headers: { 'X-A': 'a\r\nInjected: 1' } } }),
      ),
      'INVALID_INPUT',
    );
    expect(e.message).toContain('must not contain CR, LF or NUL');
    // A secret that is not set yet is fine: saved, and reported as unavailable by the runner.
    const ok = await T().tools.create(ref, httpTool('https://api.example.com/w?q=${city}&key=${WEATHER_API_KEY}'));
    expect(ok.safety).toBe('readOnly');
    await expectCode(T().tools.create({ ...ref, slug: 'root' }, httpTool('https://example.com/')), 'INVALID_INPUT'); // *.example.com excludes the apex
  });

  it('refuses schemas that do not compile and impls of the wrong shape, naming each field', async () => {
    const id = await withBundle();
    const ref = { bundleID: id, slug: 's', version: '1' };
    const e = await expectCode(
      T().tools.create(ref, functionTool({ argSchema: { type: 'object', properties: { n: { type: 'nunber' } } }, outputSchema: { minimum: 'x' } as never })),
      'INVALID_INPUT',
    );
    const fields = (e.details as { issues: { field: string }[] }).issues.map((i) => i.field);
    expect(fields).toEqual(expect.arrayContaining(['argSchema', 'outputSchema']));
    const e2 = await expectCode(T().tools.create(ref, { type: 'container', impl: { image: 'x', build: '.' } }), 'INVALID_INPUT');
    expect(e2.message).toContain('exactly one of');
    const e3 = await expectCode(T().tools.create(ref, { type: 'http', impl: { method: 'GET' } }), 'INVALID_INPUT');
    expect(e3.message).toContain("missing required field 'urlTemplate'");
  });

  it("reads a tool.json with type 'go' as a function tool and never rewrites it", async () => {
    const id = await withBundle();
    const tool = await T().tools.create({ bundleID: id, slug: 'g', version: '1' }, functionTool());
    const path = join(T().dataDir, 'bundles', id, 'tools', tool.toolID, 'tool.json');
    const raw = (await readFile(path, 'utf8')).replace('"type": "function"', '"type": "go"');
    await writeFile(path, raw);
    const t2 = await T().reopen();
    const view = await t2.tools.get({ bundleID: id, slug: 'g', version: '1' });
    expect(view.type).toBe('function');
    expect(await readFile(path, 'utf8')).toBe(raw);
  });
});

describe('malformed files on disk', () => {
  it('loads the rest, reports each bad file with path and reason, and never overwrites it', async () => {
    const id = await withBundle();
    const good = await T().tools.create({ bundleID: id, slug: 'good', version: '1' }, functionTool());
    const bad1 = await T().tools.create({ bundleID: id, slug: 'trunc', version: '1' }, functionTool());
    const bad2 = await T().tools.create({ bundleID: id, slug: 'schema', version: '1' }, functionTool());
    const p1 = join(T().dataDir, 'bundles', id, 'tools', bad1.toolID, 'tool.json');
    const p2 = join(T().dataDir, 'bundles', id, 'tools', bad2.toolID, 'tool.json');
    const text1 = (await readFile(p1, 'utf8')).slice(0, 40);
    await writeFile(p1, text1);
    const obj = JSON.parse(await readFile(p2, 'utf8'));
    obj.safety = 'dangerous';
    const text2 = JSON.stringify(obj);
    await writeFile(p2, text2);
    const badBundle = uuidv4();
    await mkdir(join(T().dataDir, 'bundles', 'not-a-uuid'), { recursive: true });
    const otherBundle = uuidv7();
    await mkdir(join(T().dataDir, 'bundles', otherBundle), { recursive: true });
    await writeFile(join(T().dataDir, 'bundles', otherBundle, 'bundle.json'), '{"schemaVersion":"1"');

    const t2 = await T().reopen();
    expect(t2.tools.list({}).items.map((x) => x.toolID)).toEqual([good.toolID]);
    const problems = t2.store.problems();
    const byPath = new Map(problems.map((p) => [p.path, p.reason]));
    expect(byPath.get(p1)).toMatch(/not valid JSON/);
    expect(byPath.get(p2)).toMatch(/safety/);
    expect([...byPath.keys()].some((p) => p.endsWith('not-a-uuid'))).toBe(true);
    expect(byPath.get(join(T().dataDir, 'bundles', otherBundle, 'bundle.json'))).toMatch(/not valid JSON/);
    expect(badBundle).toBeTruthy();
    // A write to the bad tool is refused rather than overwriting the person's file.
    await expectCode(t2.tools.setEnabled({ bundleID: id, slug: 'trunc', version: '1' }, false), 'NOT_FOUND');
    expect(await readFile(p1, 'utf8')).toBe(text1);
    expect(await readFile(p2, 'utf8')).toBe(text2);
  });

  it('reports two files claiming one <slug,version> and keeps the older', async () => {
    const id = await withBundle();
    const a = await T().tools.create({ bundleID: id, slug: 'dup', version: '1' }, functionTool());
    const copyID = uuidv7();
    const src = JSON.parse(await readFile(join(T().dataDir, 'bundles', id, 'tools', a.toolID, 'tool.json'), 'utf8'));
    await mkdir(join(T().dataDir, 'bundles', id, 'tools', copyID));
    const copyPath = join(T().dataDir, 'bundles', id, 'tools', copyID, 'tool.json');
    await writeFile(copyPath, JSON.stringify({ ...src, toolID: copyID, createdAt: '2099-01-01T00:00:00.000Z' }));
    const t2 = await T().reopen();
    expect((await t2.tools.get({ bundleID: id, slug: 'dup', version: '1' })).toolID).toBe(a.toolID);
    expect(t2.store.problems().find((p) => p.path === copyPath)?.reason).toMatch(/duplicate/);
  });

  it('a malformed config.json is reported, the app runs on defaults, and saving settings is refused', async () => {
    current = await openTestStore();
    await writeFile(join(T().dataDir, 'config.json'), '{ nope');
    const t2 = await T().reopen();
    expect(t2.config.get().toolsEnabled).toBe(true);
    expect(t2.store.problems().some((p) => p.kind === 'config')).toBe(true);
    await expectCode(t2.config.patch({ toolsEnabled: false }), 'CONFLICT');
    expect(await readFile(join(T().dataDir, 'config.json'), 'utf8')).toBe('{ nope');
  });
});

describe('built-ins', () => {
  it('are served read-only: only the enabled flag changes, and it lives in the data directory', async () => {
    const b = await makeBuiltinDir();
    current = await openTestStore({ builtinDir: b.dir });
    const bundle = await T().bundles.get(b.bundleID);
    expect(bundle.isBuiltIn).toBe(true);
    const ref = { bundleID: b.bundleID, slug: 'echo', version: 'v1' };
    expect((await T().tools.get(ref)).isBuiltIn).toBe(true);
    await expectCode(T().bundles.put(b.bundleID, { slug: 'mine' }), 'BUILTIN_READONLY');
    await expectCode(T().bundles.softDelete(b.bundleID), 'BUILTIN_READONLY');
    await expectCode(T().tools.create({ ...ref, slug: 'new' }, functionTool()), 'BUILTIN_READONLY');
    await expectCode(T().tools.update(ref, functionTool()), 'BUILTIN_READONLY');
    await expectCode(T().tools.delete(ref), 'BUILTIN_READONLY');
    const shipped = await readFile(join(b.dir, b.bundleID, 'tools', b.toolID, 'tool.json'), 'utf8');
    expect((await T().tools.setEnabled(ref, false)).isEnabled).toBe(false);
    expect((await T().bundles.patch(b.bundleID, false)).isEnabled).toBe(false);
    expect(await readFile(join(b.dir, b.bundleID, 'tools', b.toolID, 'tool.json'), 'utf8')).toBe(shipped);
    const state = JSON.parse(await readFile(join(T().dataDir, 'builtin-state.json'), 'utf8'));
    expect(state).toEqual({ bundles: { [b.bundleID]: false }, tools: { [b.toolID]: false } });
    const t2 = await T().reopen();
    expect((await t2.bundles.get(b.bundleID)).isEnabled).toBe(false);
    expect((await t2.tools.get(ref)).isEnabled).toBe(false);
  });
});

describe('reaper', () => {
  it('removes a soft-deleted bundle after 2 days, and only when it holds no tools', async () => {
    let now = new Date('2026-03-01T00:00:00.000Z');
    current = await openTestStore({ clock: () => now });
    const empty = uuidv7();
    const full = uuidv7();
    await T().bundles.put(empty, { slug: 'empty' });
    await T().bundles.put(full, { slug: 'full' });
    await T().tools.create({ bundleID: full, slug: 'x', version: '1' }, functionTool());
    await T().bundles.softDelete(empty);
    await T().bundles.softDelete(full);
    now = new Date('2026-03-02T23:59:00.000Z');
    expect(await T().store.reap()).toEqual([]);
    now = new Date('2026-03-03T00:00:01.000Z');
    expect(await T().store.reap()).toEqual([empty]);
    await expect(stat(join(T().dataDir, 'bundles', empty))).rejects.toThrow();
    expect((await stat(join(T().dataDir, 'bundles', full))).isDirectory()).toBe(true);
    // Emptying the trashed bundle lets the next pass take it.
    await T().tools.delete({ bundleID: full, slug: 'x', version: '1' });
    expect(await T().store.reap()).toEqual([full]);
    // A restored bundle is never reaped.
    const kept = uuidv7();
    await T().bundles.put(kept, { slug: 'kept' });
    await T().bundles.softDelete(kept);
    await T().bundles.restore(kept);
    now = new Date('2026-04-01T00:00:00.000Z');
    expect(await T().store.reap()).toEqual([]);
  });
});

describe('another process acted since memory was filled (no watcher)', () => {
  it('a DELETE, PATCH or edit of a pair never lands on the tool that another process renamed away from it', async () => {
    const id = await withBundle();
    const ref = { bundleID: id, slug: 'calc', version: 'v1' };
    const created = await T().tools.create(ref, functionTool());
    // Other processes, their memory filled before the rename.
    const [forDelete, forPatch, stale] = [await T().reopen(), await T().reopen(), await T().reopen()];
    await T().tools.update(ref, functionTool({ version: 'v2' }));
    await expectCode(forDelete.tools.delete(ref), 'NOT_FOUND');
    await expectCode(forPatch.tools.setEnabled(ref, false), 'NOT_FOUND');
    await expectCode(stale.tools.update(ref, functionTool({ description: 'lost edit' })), 'NOT_FOUND');
    const onDisk = JSON.parse(await readFile(join(T().dataDir, 'bundles', id, 'tools', created.toolID, 'tool.json'), 'utf8'));
    expect(onDisk).toMatchObject({ slug: 'calc', version: 'v2', isEnabled: true, description: created.description });
    // The stale process has caught up with the rename.
    expect((await stale.tools.get({ ...ref, version: 'v2' })).toolID).toBe(created.toolID);
  });

  it('lets another process create the pair a rename freed, though its memory still shows the old holder', async () => {
    const id = await withBundle();
    const ref = { bundleID: id, slug: 'calc', version: 'v1' };
    const first = await T().tools.create(ref, functionTool());
    const stale = await T().reopen();
    await T().tools.update(ref, functionTool({ version: 'v2' }));
    const second = await stale.tools.create(ref, functionTool());
    expect(second.toolID).not.toBe(first.toolID);
    expect((await stale.tools.get({ ...ref, version: 'v2' })).toolID).toBe(first.toolID);
  });

  it('answers NOT_FOUND, not an internal error, for writes into a bundle folder removed elsewhere', async () => {
    const id = await withBundle();
    await T().tools.create({ bundleID: id, slug: 'x', version: '1' }, functionTool());
    await rm(join(T().dataDir, 'bundles', id), { recursive: true });
    await expectCode(T().tools.create({ bundleID: id, slug: 'y', version: '1' }, functionTool()), 'NOT_FOUND');
    await expectCode(T().bundles.patch(id, false), 'NOT_FOUND');
    expect(T().store.state.bundles.has(id)).toBe(false);
  });

  it('follows a tool folder moved to another bundle, whichever bundle syncs first', async () => {
    for (const order of ['new-first', 'old-first'] as const) {
      const a = await withBundle('a');
      const b = await withBundle('b');
      const t = await T().tools.create({ bundleID: a, slug: 'mover', version: '1' }, functionTool());
      const from = join(T().dataDir, 'bundles', a, 'tools', t.toolID);
      const to = join(T().dataDir, 'bundles', b, 'tools', t.toolID);
      await rename(from, to);
      const file = JSON.parse(await readFile(join(to, 'tool.json'), 'utf8'));
      await writeFile(join(to, 'tool.json'), JSON.stringify({ ...file, bundleID: b }, null, 2));
      const syncs = [() => T().store.syncTool(b, t.toolID), () => T().store.syncTool(a, t.toolID)];
      if (order === 'old-first') syncs.reverse();
      for (const sync of syncs) await sync();
      expect(T().store.state.tools.get(t.toolID)?.file.bundleID, order).toBe(b);
      expect(T().store.state.toolCount(a), order).toBe(0);
      expect(T().store.state.toolCount(b), order).toBe(1);
      expect(T().store.state.pairOwner(a, 'mover', '1'), order).toBeUndefined();
      await T().store.syncBundle(a); // a later sweep of the old bundle must not drop it
      expect((await T().tools.get({ bundleID: b, slug: 'mover', version: '1' })).toolID, order).toBe(t.toolID);
      expect((await T().bundles.get(a)).toolCount, order).toBe(0);
    }
  });

  it('drops from memory a tool whose file was edited to a pair another tool holds, and reports it', async () => {
    const id = await withBundle();
    await T().tools.create({ bundleID: id, slug: 'p', version: '1' }, functionTool());
    const q = await T().tools.create({ bundleID: id, slug: 'q', version: '1' }, functionTool());
    const path = join(T().dataDir, 'bundles', id, 'tools', q.toolID, 'tool.json');
    const file = JSON.parse(await readFile(path, 'utf8'));
    await writeFile(path, JSON.stringify({ ...file, slug: 'p' }, null, 2));
    await T().store.syncTool(id, q.toolID);
    expect(
      T()
        .store.problems()
        .find((p) => p.path === path)?.reason,
    ).toMatch(/duplicate/);
    await expectCode(T().tools.get({ bundleID: id, slug: 'q', version: '1' }), 'NOT_FOUND');
    // Nothing on disk holds <q,1> any more, so it can be created again.
    expect((await T().tools.create({ bundleID: id, slug: 'q', version: '1' }, functionTool())).toolID).not.toBe(q.toolID);
  });
});

describe('start-up recovery', () => {
  it('removes on the next start a claim temp file left by a writer killed while publishing', async () => {
    const id = await withBundle();
    await T().tools.create({ bundleID: id, slug: 'x', version: '1' }, functionTool());
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid!;
    const claimsDir = join(T().dataDir, 'bundles', id, '.claims');
    const stray = join(claimsDir, `.${'ab'.repeat(32)}.tmp-${deadPid}-0123abcd`);
    await writeFile(stray, 'half');
    const before = await readdir(claimsDir);
    await T().reopen();
    expect((await readdir(claimsDir)).sort()).toEqual(before.filter((n) => !n.includes('.tmp-')).sort());
  });
});

describe('built-in switches', () => {
  it('a malformed builtin-state.json refuses a built-in switch with CONFLICT, not an internal error', async () => {
    const b = await makeBuiltinDir();
    current = await openTestStore({ builtinDir: b.dir });
    await writeFile(join(T().dataDir, 'builtin-state.json'), '{ nope');
    await expectCode(T().bundles.patch(b.bundleID, false), 'CONFLICT');
    expect(await readFile(join(T().dataDir, 'builtin-state.json'), 'utf8')).toBe('{ nope');
  });
});
