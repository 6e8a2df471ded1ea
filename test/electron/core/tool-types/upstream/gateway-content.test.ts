/**
 * An upstream result's content besides text (images, embedded resources, links, MCP Apps) is kept
 * in the answer beside the value — for the tester, and passed on to agents — through a real host,
 * the file-tools fixture and the reference server `@modelcontextprotocol/server-everything`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { v7 as uuidv7 } from 'uuid';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHost, type TestHost } from '../../../../helpers/host.js';

const FIXTURE = join(import.meta.dirname, '../../../../fixtures/mcp/file-tools-server.mjs');
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

let h: TestHost;

async function upstreamBundle(slug: string, args: string[], enable: string[]): Promise<string> {
  const id = uuidv7();
  await h.api('PUT', `/tools/bundles/${id}`, { slug, source: { kind: 'mcp', transport: 'stdio', command: process.execPath, args } });
  const sync = await h.api('POST', `/tools/bundles/${id}/sync`);
  expect(sync.status, JSON.stringify(sync.body)).toBe(200);
  for (const name of enable) {
    const added = sync.body.added.find((a: { name: string }) => a.name === name);
    await h.api('PATCH', `/tools/bundles/${id}/tools/${added.slug}/version/v1`, { isEnabled: true });
  }
  return id;
}

beforeAll(async () => {
  h = await startHost();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('content besides text in an upstream result', () => {
  it('keeps images, resources, links and apps beside the text value, and passes them on to agents', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tw-content-'));
    const toolsFile = join(dir, 'tools.json');
    await writeFile(toolsFile, JSON.stringify({ tools: [{ name: 'media', description: 'Pictures', inputSchema: { type: 'object', properties: {} } }] }));
    const id = await upstreamBundle('media-files', [FIXTURE, toolsFile], ['media']);
    const r = await h.api('POST', `/tools/bundles/${id}/tools/media/version/v1/invoke`, { args: {} });
    expect(r.body, JSON.stringify(r.body).slice(0, 500)).toMatchObject({ ok: true, value: 'a picture and some files' });
    expect(r.body.content.map((c: { type: string }) => c.type)).toEqual(['image', 'image', 'resource', 'resource', 'resource_link', 'resource']);
    expect(r.body.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png', data: expect.stringMatching(/^iVBOR/) });
    expect(r.body.content[5]).toMatchObject({ resource: { uri: 'ui://notes/viewer' } });

    const agent = new Client({ name: 'agent', version: '1' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${h.url}/mcp?bundles=media-files`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }),
    );
    const viaMcp = await agent.callTool({ name: 'media', arguments: {} });
    expect((viaMcp.content as { type: string }[]).map((c) => c.type)).toEqual(['text', 'image', 'image', 'resource', 'resource', 'resource_link', 'resource']);
    await agent.close();
  }, 60_000);

  it('keeps the image of server-everything’s get-tiny-image', async () => {
    const id = await upstreamBundle('everything', [EVERYTHING, 'stdio'], ['get-tiny-image']);
    const slug = (await h.api('GET', `/tools/tools?bundleIDs=${id}&includeDisabled=true`)).body.items.find(
      (t: { impl: { tool: string } }) => t.impl.tool === 'get-tiny-image',
    ).slug;
    const r = await h.api('POST', `/tools/bundles/${id}/tools/${slug}/version/v1/invoke`, { args: {} });
    expect(r.body.ok, JSON.stringify(r.body).slice(0, 500)).toBe(true);
    expect(r.body.content.find((c: { type: string }) => c.type === 'image')).toMatchObject({ mimeType: 'image/png', data: expect.any(String) });
  }, 60_000);
});
