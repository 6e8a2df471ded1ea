import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, symlink, writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { jsonErrorOffset, parseJsonText, readJsonIn } from '../../../../electron/core/fs/json-text.js';
import { etagOf } from '../../../../electron/core/fs/etag.js';
import { echoToolFile, openTestStore, tempDir, type TestStore } from '../../../helpers/store.js';
import { canonicalJson } from '../../../../shared/canonical.js';
import { TOOL_KEY_ORDER } from '../../../../shared/schemas.js';

let current: TestStore | undefined;
afterEach(async () => {
  await current?.cleanup();
  current = undefined;
});

const SECRET_LINE = 'root:x:0:0:SECRET-CONTENT:/root:/bin/bash';

describe('parseJsonText', () => {
  it('says where a syntax error is (line and column), never what the text holds', () => {
    const text = `{\n  "slug": "ok",\n  "x": ${SECRET_LINE}\n}`;
    const r = parseJsonText(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toBe('is not valid JSON (syntax error at line 3, column 8)');
    expect(r.reason).not.toContain('root');
  });

  it('places the fault of common breakages', () => {
    expect(jsonErrorOffset('{"a": 1,}')).toBe(8);
    expect(jsonErrorOffset('[1, 2')).toBe(5);
    expect(jsonErrorOffset('{"a": "x\ny"}')).toBeGreaterThan(0);
    expect(parseJsonText('   ').ok).toBe(false);
  });

  it('refuses a document nested deeper than the bound without recursing', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const r = parseJsonText(deep);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/nests deeper than 100 levels/);
    expect(parseJsonText('[[[1]]]')).toEqual({ ok: true, value: [[[1]]] });
  });
});

describe('readJsonIn', () => {
  it('does not follow a link that leaves the root, and follows one that stays inside', async () => {
    const root = await tempDir();
    const outside = await tempDir();
    await writeFile(join(outside, 'passwd'), SECRET_LINE);
    await writeFile(join(root, 'real.json'), '{"a":1}');
    await symlink(join(outside, 'passwd'), join(root, 'leak.json'));
    await symlink(join(root, 'real.json'), join(root, 'inner.json'));
    const leak = await readJsonIn(root, join(root, 'leak.json'));
    expect(leak).toEqual({ kind: 'bad', reason: expect.stringContaining('symbolic link to outside the data folder') });
    expect(JSON.stringify(leak)).not.toContain('SECRET');
    expect(await readJsonIn(root, join(root, 'inner.json'))).toEqual({ kind: 'ok', value: { a: 1 }, etag: etagOf('{"a":1}') });
    expect(await readJsonIn(root, join(root, 'none.json'))).toEqual({ kind: 'missing' });
  });
});

describe('the store never quotes a file it should not read', () => {
  async function toolPath(t: TestStore, bundleID: string, toolID: string) {
    const dir = join(t.dataDir, 'bundles', bundleID, 'tools', toolID);
    await mkdir(dir, { recursive: true });
    return join(dir, 'tool.json');
  }

  it('a tool.json linked to a file outside the data folder is a problem without content, at start and after a change', async () => {
    current = await openTestStore();
    const bundleID = uuidv7();
    await current.bundles.put(bundleID, { slug: 'b', displayName: 'B' });
    const outside = await tempDir();
    await writeFile(join(outside, 'passwd'), SECRET_LINE);
    const toolID = uuidv7();
    await symlink(join(outside, 'passwd'), await toolPath(current, bundleID, toolID));
    const reopened = await current.reopen();
    const problems = reopened.store.problems();
    expect(problems.map((p) => p.reason).join('\n')).toContain('symbolic link to outside the data folder');
    expect(JSON.stringify(problems)).not.toContain('SECRET');

    // A watcher-driven re-read says the same.
    await reopened.store.syncTool(bundleID, toolID);
    expect(JSON.stringify(reopened.store.problems())).not.toContain('SECRET');
    expect(reopened.store.problems().some((p) => p.reason.includes('symbolic link'))).toBe(true);
  });

  it('a tool.json with a broken line is reported by line and column, and a write over it is refused without quoting it', async () => {
    current = await openTestStore();
    const bundleID = uuidv7();
    await current.bundles.put(bundleID, { slug: 'b', displayName: 'B' });
    const toolID = uuidv7();
    const good = canonicalJson({ ...echoToolFile(bundleID, toolID) } as unknown as Record<string, unknown>, TOOL_KEY_ORDER);
    const path = await toolPath(current, bundleID, toolID);
    await writeFile(path, good.replace('"slug"', `${SECRET_LINE}, "slug"`));
    await current.store.syncTool(bundleID, toolID);
    const reasons = current.store.problems().map((p) => p.reason);
    expect(reasons.join('\n')).toMatch(/tool\.json is not valid JSON \(syntax error at line \d+, column \d+\)/);
    expect(reasons.join('\n')).not.toContain('SECRET');
    const before = await readFile(path, 'utf8');
    const e = await current.tools.setEnabled({ bundleID, slug: 'echo', version: 'v1' }, false).catch((x: unknown) => x);
    expect(String((e as Error).message)).not.toContain('SECRET');
    expect(await readFile(path, 'utf8')).toBe(before);
  });
});
