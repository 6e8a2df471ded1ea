/**
 * ETag and If-Match through the real REST host and real files: a hand edit (or a `git pull`)
 * that leaves `modifiedAt` alone still changes the tag, a stale save in either If-Match form is
 * refused with the file left byte for byte, and search and MCP's list_changed follow the content.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { v7 as uuidv7 } from 'uuid';
import { calcToolBody as fnTool, startHost, type TestHost } from '../../../helpers/host.js';

let h: TestHost;
let bundleID: string;
beforeAll(async () => {
  h = await startHost({ watch: true }); // hand edits arrive through the watcher, as in the app
  bundleID = uuidv7();
  expect((await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'tags' })).status).toBe(201);
});
afterAll(async () => {
  await h.close();
});

const toolPath = (slug: string) => `/tools/bundles/${bundleID}/tools/${slug}/version/1`;
const STRONG_TAG = /^"[A-Za-z0-9_-]{16,}"$/;

/** Rewrites a file by hand, the way an editor or git would: modifiedAt untouched. */
async function handEdit(path: string, change: (json: Record<string, unknown>) => void): Promise<string> {
  const json = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  change(json);
  const text = JSON.stringify(json, null, 4) + '\n';
  await writeFile(path, text);
  return text;
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('ETag', () => {
  it('every tool and bundle answer carries a strong ETag of the file on disk, and the body says it too', async () => {
    const put = await h.api('PUT', toolPath('answers'), fnTool());
    expect(put.status).toBe(201);
    expect(put.headers.get('etag')).toMatch(STRONG_TAG);
    const get = await h.api('GET', toolPath('answers'));
    expect(get.headers.get('etag')).toBe(put.headers.get('etag'));
    expect(`"${get.body.etag}"`).toBe(get.headers.get('etag'));
    const patched = await h.api('PATCH', toolPath('answers'), { isEnabled: false });
    expect(patched.headers.get('etag')).toMatch(STRONG_TAG);
    expect(patched.headers.get('etag')).not.toBe(get.headers.get('etag'));

    const bundle = await h.api('GET', `/tools/bundles/${bundleID}`);
    expect(bundle.headers.get('etag')).toMatch(STRONG_TAG);
    const bundlePut = await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'tags', description: 'with tags' });
    expect(bundlePut.headers.get('etag')).toMatch(STRONG_TAG);
    expect(bundlePut.headers.get('etag')).not.toBe(bundle.headers.get('etag'));
    const bundlePatch = await h.api('PATCH', `/tools/bundles/${bundleID}`, { isEnabled: true });
    expect(bundlePatch.headers.get('etag')).toBe(bundlePut.headers.get('etag')); // nothing changed
  });

  it('changes with the bytes of a hand edit that keeps modifiedAt', async () => {
    const put = await h.api('PUT', toolPath('bytes'), fnTool());
    const before = put.headers.get('etag')!;
    // Only the formatting changes: the content as JSON is the same, the bytes are not.
    await handEdit(h.core.store.paths.toolFile(bundleID, put.body.toolID), () => undefined);
    const after = await until(
      () => h.api('GET', toolPath('bytes')),
      (r) => r.headers.get('etag') !== before,
    );
    expect(after.headers.get('etag')).not.toBe(before);
    expect(after.body.modifiedAt).toBe(put.body.modifiedAt);
  });

  it('never answers 304: the tag names the file, the answer also holds availability, which moves without it', async () => {
    const put = await h.api('PUT', toolPath('avail'), fnTool());
    const tag = put.headers.get('etag')!;
    expect(put.body.availability.ok).toBe(true);
    await h.api('PATCH', '/tools/config', { toolsEnabled: false });
    try {
      // A browser revalidates its cached answer with If-None-Match; a 304 would keep "available".
      const again = await h.api('GET', toolPath('avail'), undefined, { 'if-none-match': tag });
      expect(again.status).toBe(200);
      expect(again.headers.get('etag')).toBe(tag);
      expect(again.body.availability.ok).toBe(false);
    } finally {
      await h.api('PATCH', '/tools/config', { toolsEnabled: true });
    }
  });

  it('refuses a stale save after a hand edit, in both If-Match forms, and leaves the file byte for byte', async () => {
    const put = await h.api('PUT', toolPath('guarded'), fnTool());
    const oldTag = put.headers.get('etag')!;
    const file = h.core.store.paths.toolFile(bundleID, put.body.toolID);
    const edited = await handEdit(file, (json) => (json['description'] = 'written by hand'));
    // Both forms at once, before the watcher has seen the edit, and again after it has.
    for (const wait of [false, true]) {
      if (wait)
        await until(
          () => h.api('GET', toolPath('guarded')),
          (r) => r.body.description === 'written by hand',
        );
      const byTag = await h.api('PUT', toolPath('guarded'), fnTool({ description: 'stale save' }), { 'if-match': oldTag });
      expect(byTag.status, JSON.stringify(byTag.body)).toBe(412);
      expect(byTag.body.error.code).toBe('MODIFIED_ELSEWHERE');
      expect(byTag.body.error.message).toMatch(/changed .*since .*read/);
      const byTime = await h.api('PUT', toolPath('guarded'), fnTool({ description: 'stale save' }), { 'if-match': `"${put.body.modifiedAt}"` });
      expect(byTime.status, JSON.stringify(byTime.body)).toBe(412);
      expect(byTime.body.error.code).toBe('MODIFIED_ELSEWHERE');
      expect(await readFile(file, 'utf8')).toBe(edited);
    }
    // With the tag of what is on disk now, the save goes through.
    const fresh = await h.api('GET', toolPath('guarded'));
    const ok = await h.api('PUT', toolPath('guarded'), fnTool({ description: 'after reading it' }), { 'if-match': fresh.headers.get('etag')! });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.description).toBe('after reading it');
    // The modifiedAt form works again once the store wrote a new modifiedAt.
    const again = await h.api('PUT', toolPath('guarded'), fnTool({ description: 'by time' }), { 'if-match': `"${ok.body.modifiedAt}"` });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });

  it('honours If-Match on PATCH of a tool and on PUT and PATCH of a bundle', async () => {
    const put = await h.api('PUT', toolPath('switch'), fnTool());
    const stale = '"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"';
    expect((await h.api('PATCH', toolPath('switch'), { isEnabled: false }, { 'if-match': stale })).status).toBe(412);
    expect((await h.api('GET', toolPath('switch'))).body.isEnabled).toBe(true);
    expect((await h.api('PATCH', toolPath('switch'), { isEnabled: false }, { 'if-match': put.headers.get('etag')! })).status).toBe(200);

    const b = await h.api('GET', `/tools/bundles/${bundleID}`);
    expect((await h.api('PATCH', `/tools/bundles/${bundleID}`, { isEnabled: false }, { 'if-match': stale })).status).toBe(412);
    expect((await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'tags', description: 'x' }, { 'if-match': stale })).status).toBe(412);
    expect((await h.api('GET', `/tools/bundles/${bundleID}`)).headers.get('etag')).toBe(b.headers.get('etag'));
    const ok = await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'tags', description: 'x' }, { 'if-match': b.headers.get('etag')! });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('a hand edit of a description that keeps modifiedAt reaches search and MCP list_changed', async () => {
    const put = await h.api('PUT', toolPath('quiet'), fnTool({ description: 'arithmetic' }));
    const client = new Client({ name: 'etag-agent', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }));
    try {
      await client.listTools();
      await new Promise((r) => setTimeout(r, 300)); // the GET stream opens after initialisation
      const changed = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no notifications/tools/list_changed')), 8000);
        client.setNotificationHandler('notifications/tools/list_changed', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      await handEdit(h.core.store.paths.toolFile(bundleID, put.body.toolID), (json) => (json['description'] = 'xylophonist tuning'));
      await changed;
      const listed = (await client.listTools()).tools.find((t) => t.description === 'xylophonist tuning');
      expect(listed).toBeDefined();
      const hits = await h.api('GET', '/tools/tools/search?q=xylophonist');
      expect(hits.body.items.map((t: { toolID: string }) => t.toolID)).toEqual([put.body.toolID]);
    } finally {
      await client.close();
    }
  }, 30_000);
});
