/**
 * Cards as MCP Apps and tool icons, with the SDK's 2.x client in both eras over the headless
 * host's /mcp: a tool with a card names its ui:// app in tools/list (both _meta keys), the app is
 * listed and read as text/html;profile=mcp-app with a CSP of no outside domains, a call carries
 * the sanitised card for the app beside the embedded text/html resource, and a ui:// address the
 * connection may not see (switched off, another bundle, made up) is not found.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type CallToolResult, type Tool } from '@modelcontextprotocol/client';
import { EXTENSION_ID } from '@modelcontextprotocol/ext-apps/server';
import { v7 as uuidv7 } from 'uuid';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { glob } from 'node:fs/promises';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { tempDir } from '../../../helpers/store.js';

const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };
const APP_MIME = 'text/html;profile=mcp-app';
// A 1×1 PNG.
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const BUNDLE_ICON = 'https://icons.example/bundle.svg';

let h: TestHost;
let dataDir: string;
const ids: Record<string, string> = {};
const calc = { type: 'function', impl: { function: 'core.calc' }, argSchema: { type: 'object', properties: { expression: { type: 'string' } } } };

beforeAll(async () => {
  dataDir = await tempDir('tw-apps-');
  h = await startHost({ dataDir });
  const bundleID = uuidv7();
  expect((await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'cards', displayName: 'Cards' })).status).toBeLessThan(300);
  const put = async (bundle: string, slug: string, body: Record<string, unknown>) => {
    const r = await h.api('PUT', `/tools/bundles/${bundle}/tools/${slug}/version/v1`, { ...calc, displayName: slug, ...body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    ids[slug] = r.body.toolID;
  };
  await put(bundleID, 'sum', { card: { enabled: true, title: 'Sum', accentColor: '#0a7' }, extensions: { chalie: { icon: PNG } } });
  await put(bundleID, 'bare', { card: { enabled: false } });
  await put(bundleID, 'glyph', { card: { enabled: false }, extensions: { chalie: { icon: 'fa-cloud-sun' } } });
  await put(bundleID, 'off', { isEnabled: false, card: { enabled: true } });
  const other = uuidv7();
  await h.api('PUT', `/tools/bundles/${other}`, { slug: 'elsewhere' });
  await put(other, 'far', { card: { enabled: true } });
  // A bundle's icon is written by hand (bundle.json's x-icon); the host reads it when it starts.
  await h.close();
  for await (const file of glob('**/bundle.json', { cwd: dataDir })) {
    const path = join(dataDir, file);
    const bundle = JSON.parse(await readFile(path, 'utf8'));
    if (bundle.slug === 'cards') await writeFile(path, JSON.stringify({ ...bundle, 'x-icon': BUNDLE_ICON }, null, 2));
  }
  h = await startHost({ dataDir });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const uri = (slug: string) => `ui://toolwright/${ids[slug]}/card`;
const bySlug = (tools: Tool[], slug: string) => tools.find((t) => t._meta?.['dev.toolwright/slug'] === slug);

describe.each([
  ['2025-11-25', {}],
  ['2026-07-28', MODERN],
])('cards as MCP Apps, %s', (version, options) => {
  let client: Client;
  let scoped: Client;
  const connect = async (name: string, query = '') => {
    const c = new Client({ name, version: '1' }, { capabilities: {}, ...options });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp${query}`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }));
    return c;
  };
  beforeAll(async () => {
    client = await connect(`apps-${version}`);
    scoped = await connect(`apps-scoped-${version}`, '?bundles=cards');
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    await scoped?.close();
  });

  it('advertises the Apps extension and names the app of a tool with a card in tools/list, with both _meta keys', async () => {
    expect(client.getServerCapabilities()?.extensions?.[EXTENSION_ID]).toEqual({ mimeTypes: [APP_MIME] });
    const tools = (await client.listTools()).tools;
    expect(bySlug(tools, 'sum')?._meta).toMatchObject({ ui: { resourceUri: uri('sum') }, 'ui/resourceUri': uri('sum') });
    expect(bySlug(tools, 'bare')?._meta?.['ui']).toBeUndefined();
    expect(bySlug(tools, 'bare')?._meta?.['ui/resourceUri']).toBeUndefined();
  });

  it("gives a tool its own icon, else its bundle's; a Font Awesome name is no image", async () => {
    const tools = (await client.listTools()).tools;
    expect(bySlug(tools, 'sum')?.icons).toEqual([{ src: PNG, mimeType: 'image/png' }]);
    expect(bySlug(tools, 'bare')?.icons).toEqual([{ src: BUNDLE_ICON }]);
    expect(bySlug(tools, 'glyph')?.icons).toEqual([{ src: BUNDLE_ICON }]);
    expect(bySlug(tools, 'far')?.icons).toBeUndefined();
  });

  it('lists the ui:// apps of the visible tools only, and reads one as an mcp-app with no outside domains', async () => {
    const listed = (await client.listResources()).resources.filter((r) => r.uri.startsWith('ui://'));
    expect(listed.map((r) => r.uri)).toEqual(expect.arrayContaining([uri('sum'), uri('far')]));
    expect(listed.map((r) => r.uri)).not.toContain(uri('off'));
    expect(listed.map((r) => r.uri)).not.toContain(uri('bare'));
    expect(listed.every((r) => r.mimeType === APP_MIME)).toBe(true);
    // Exactly the apps tools/list points at (the built-in functions have cards too).
    const pointed = (await client.listTools()).tools.map((t) => (t._meta?.['ui'] as { resourceUri?: string } | undefined)?.resourceUri).filter(Boolean);
    expect(listed.map((r) => r.uri).sort()).toEqual(pointed.sort());
    expect((await scoped.listResources()).resources.filter((r) => r.uri.startsWith('ui://')).map((r) => r.uri)).toEqual([uri('sum')]);

    const [content] = (await client.readResource({ uri: uri('sum') })).contents;
    expect(content).toMatchObject({
      uri: uri('sum'),
      mimeType: APP_MIME,
      _meta: { ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [] } } },
    });
    const html = (content as { text: string }).text;
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-[A-Za-z0-9+/=]+'/,
    );
    expect(html).toContain('ui/initialize');
    expect(html).toContain('ui/notifications/tool-result');
    expect(html).toContain('#0a7'); // the card's accent colour
  });

  it('refuses a ui:// app the connection may not see: switched off, another bundle, made up', async () => {
    await expect(client.readResource({ uri: uri('off') })).rejects.toThrow(/Resource not found: ui:\/\/toolwright\/.*\/card/);
    await expect(scoped.readResource({ uri: uri('far') })).rejects.toThrow(/Resource not found/);
    await expect(client.readResource({ uri: uri('bare') })).rejects.toThrow(/Resource not found/); // no card
    await expect(client.readResource({ uri: `ui://toolwright/${uuidv7()}/card` })).rejects.toThrow(/Resource not found/);
    await expect(client.readResource({ uri: 'ui://toolwright/../../etc/passwd' })).rejects.toThrow(/Resource not found/);
  });

  it('a call carries the sanitised card for the app in _meta and keeps the embedded text/html resource', async () => {
    const name = bySlug((await client.listTools()).tools, 'sum')!.name;
    const r = (await client.callTool({ name, arguments: { expression: '6*7' } })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    const card = r._meta?.['dev.toolwright/card'] as { title?: string; html?: string };
    expect(card.html).toContain('6*7 = 42');
    expect(r.content.find((c) => c.type === 'resource')).toMatchObject({ resource: { mimeType: 'text/html', text: card.html } });
  });
});
