/** Availability says what a run would meet: file tools without a workspace, every tool under the kill switch. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { tempDir } from '../../../helpers/store.js';

const CORE = '0190a000-0000-7000-8000-00000000c0e0';
let h: TestHost;
beforeAll(async () => {
  h = await startHost();
});
afterAll(async () => {
  await h.close();
});

const tool = (slug: string) => h.api('GET', `/tools/bundles/${CORE}/tools/${slug}/version/v1`);

describe('truthful availability', () => {
  it('file tools are unavailable without a workspace root, saying how to set one, and available with it', async () => {
    for (const slug of ['read-file', 'list-dir', 'file-search', 'glob', 'file-write', 'file-edit', 'file-delete']) {
      const t = await tool(slug);
      expect(t.body.availability).toEqual({ ok: false, reason: expect.stringMatching(/workspace/i) });
    }
    expect((await tool('calc')).body.availability).toEqual({ ok: true });
    const run = await h.api('POST', `/tools/bundles/${CORE}/tools/list-dir/version/v1/invoke`, { args: {} });
    expect(run.body.error.code).toBe('TOOL_UNAVAILABLE');
    await h.api('PATCH', '/tools/config', { workspaceRoot: await tempDir('tw-ws-') });
    expect((await tool('list-dir')).body.availability).toEqual({ ok: true });
  });

  it('web-search is unavailable until config.webSearch names a backend; shell and webSearch settings are checked at PATCH', async () => {
    expect((await tool('web-search')).body.availability).toEqual({ ok: false, reason: expect.stringContaining('no search backend is set') });
    const set = await h.api('PATCH', '/tools/config', { webSearch: { provider: 'searxng', url: 'http://127.0.0.1:8888' } });
    expect(set.status).toBe(200);
    expect(set.body.webSearch).toEqual({ provider: 'searxng', url: 'http://127.0.0.1:8888' });
    expect((await tool('web-search')).body.availability).toEqual({ ok: true });
    expect((await h.api('PATCH', '/tools/config', { webSearch: { provider: 'bing' } })).status).toBe(400);
    const badCommand = await h.api('PATCH', '/tools/config', { shell: { allowedCommands: ['/bin/sh'] } });
    expect(badCommand.status).toBe(400);
    expect(JSON.stringify(badCommand.body.error)).toContain('patch.shell.allowedCommands[0]');
    expect((await h.api('PATCH', '/tools/config', { webSearch: null })).body.webSearch).toBeNull();
    expect((await tool('web-search')).body.availability.ok).toBe(false);
  });

  it('every tool says it cannot run while the kill switch is on, and lists agree', async () => {
    await h.api('PATCH', '/tools/config', { toolsEnabled: false });
    expect((await tool('calc')).body.availability).toEqual({ ok: false, reason: expect.stringMatching(/switched off/) });
    const list = await h.api('GET', `/tools/tools?bundleIDs=${CORE}`);
    expect((list.body.items as { availability: { ok: boolean } }[]).every((t) => !t.availability.ok)).toBe(true);
    await h.api('PATCH', '/tools/config', { toolsEnabled: true });
    expect((await tool('calc')).body.availability).toEqual({ ok: true });
  });
});
