/**
 * search_tools and describe_tools at a search-mode profile are answered before the SDK
 * (plain-search.ts), with the SDK's bytes; a search an agent follows by a call teaches the tool
 * the search's words (learning from use), which the next search ranks by and the app shows.
 * A request naming a log level is one the fast path leaves to the SDK: how these tests get the
 * SDK's answer to compare with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';

const VERSION = '2026-07-28';
let h: TestHost;
const tools = [
  ['send-note', 'Send a note', 'Posts a note to the team board.'],
  ['list-notes', 'List notes', 'Lists the notes of the team board.'],
  ['archive-widget', 'Archive a widget', 'Moves a widget to the archive.'],
] as const;

beforeAll(async () => {
  h = await startHost();
  const bundleID = uuidv7();
  await h.core.bundles.put(bundleID, { slug: 'board', displayName: 'Board' });
  for (const [slug, displayName, description] of tools)
    await h.core.tools.create(
      { bundleID, slug, version: 'v1' },
      { type: 'function', displayName, description, impl: { function: 'core.uuid' }, argSchema: { type: 'object', properties: {} } },
    );
  await h.core.profiles.put(uuidv7(), { slug: 'finder', bundles: [bundleID], mode: 'search' });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

async function call(name: string, args: unknown, opts: { id?: number; sdk?: boolean; client?: string } = {}) {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientInfo': { name: opts.client ?? 'raw-caller', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
    ...(opts.sdk ? { 'io.modelcontextprotocol/logLevel': 'error' } : {}),
  };
  const res = await fetch(`${h.url}/mcp/p/finder`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${h.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: opts.id ?? 1, method: 'tools/call', params: { name, arguments: args, _meta: meta } }),
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

const matches = (text: string) =>
  (JSON.parse(text) as { result: { structuredContent: { matches: { name: string }[] } } }).result.structuredContent.matches.map((m) => m.name);

describe('search mode on the fast path', () => {
  it("answers search_tools and describe_tools with the SDK's bytes, refusals included", async () => {
    const cases: [string, unknown][] = [
      ['search_tools', { query: 'post a note', limit: 2 }],
      ['search_tools', { query: 'the and of' }],
      ['search_tools', { query: 'x', limit: 0 }],
      ['describe_tools', { names: ['send-note', 'nowhere'] }],
      ['describe_tools', { names: [] }],
    ];
    for (const [name, args] of cases) {
      const fast = await call(name, args, { id: 7 });
      const sdk = await call(name, args, { id: 7, sdk: true });
      expect(fast.status, fast.text).toBe(200);
      expect(fast.type).toBe(sdk.type);
      expect(fast.text).toBe(sdk.text);
    }
    expect(matches((await call('search_tools', { query: 'post a note' })).text)[0]).toBe('send-note');
  });

  it('learns from use: a search followed by a call teaches the called tool its words, shown per tool and resettable', async () => {
    const widget = [...h.core.store.reader.tools()].find((t) => t.file.slug === 'archive-widget')!.file.toolID;
    expect(matches((await call('search_tools', { query: 'tidy the gizmo' }, { client: 'learner' })).text)).toEqual([]);
    // The agent found it another way and called it: its earlier words were an attempt at the same task.
    await call('search_tools', { query: 'archive widget' }, { client: 'learner' });
    const called = await call('call_tool', { name: 'archive-widget', arguments: {} }, { client: 'learner' });
    expect(called.status, called.text).toBe(200);
    expect(matches((await call('search_tools', { query: 'tidy the gizmo' })).text)[0]).toBe('archive-widget');
    expect(h.core.search.learning.view(widget)).toMatchObject({ searches: [{ query: 'archive widget' }, { query: 'tidy the gizmo' }] });
    await h.core.search.learning.reset(widget);
    expect(matches((await call('search_tools', { query: 'tidy the gizmo' })).text)).toEqual([]);
  });

  it('learns nothing with the setting off', async () => {
    await h.core.config.patch({ toolSearch: { learnFromUse: false } });
    try {
      await call('search_tools', { query: 'polish the sprocket' }, { client: 'quiet' });
      await call('call_tool', { name: 'archive-widget', arguments: {} }, { client: 'quiet' });
      expect(matches((await call('search_tools', { query: 'polish the sprocket' })).text)).toEqual([]);
    } finally {
      await h.core.config.patch({ toolSearch: { learnFromUse: true } });
    }
  });
});
