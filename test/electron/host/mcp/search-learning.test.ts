/**
 * search_tools over MCP at a search-mode profile, against a real host with raw 2026 requests and
 * the SDK's 2025 client (a session). Learning from use (issue 34, lever 2): a search that an agent
 * follows by a call of a tool teaches that tool the search's words, in the core's agent surface
 * (the transport only frames it), so the next search finds it by them; the app's REST operations
 * show a tool's "found by these searches" and forget it; the setting off learns nothing. The
 * relevance floor (issue 35 point 10): weak guesses are left out and the agent is told plainly
 * that no tool fits; the floor is a setting. The fast path (issue 34, lever 5): a plain 2026
 * search_tools or describe_tools is answered before the SDK, with the SDK's bytes (a request
 * naming a log level is one the fast path leaves to the SDK: how the test gets its answer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { plainModernCall } from '../../../../electron/host/mcp/fast-path/plain-call.js';
import type { AgentSurfaceView } from '../../../../shared/agents/surface.js';

const VERSION = '2026-07-28';
let h: TestHost;
const toolIDs: Record<string, string> = {};
const tools = [
  ['send-note', 'Send a note', 'Posts a note to the team board.'],
  ['list-notes', 'List notes', 'Lists the notes of the team board.'],
  ['archive-widget', 'Archive a widget', 'Moves a widget to the archive.'],
  ['rotate-sprocket', 'Rotate a sprocket', 'Turns a sprocket by some degrees.'],
] as const;

beforeAll(async () => {
  h = await startHost();
  const bundleID = uuidv7();
  expect((await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'board' })).status).toBe(201);
  for (const [slug, displayName, description] of tools) {
    const r = await h.api('PUT', `/tools/bundles/${bundleID}/tools/${slug}/version/v1`, {
      type: 'function',
      displayName,
      description,
      impl: { function: 'core.uuid' },
      argSchema: { type: 'object', properties: {} },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    toolIDs[slug] = r.body.toolID;
  }
  expect((await h.api('PUT', `/tools/profiles/${uuidv7()}`, { slug: 'finder', bundles: [bundleID], mode: 'search' })).status).toBe(201);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

async function modernCall(url: string, token: string, name: string, args: unknown, opts: { id?: number; sdk?: boolean; client?: string } = {}) {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientInfo': { name: opts.client ?? 'raw-caller', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
    // A log level is something the fast path leaves to the SDK: how a test gets the SDK's answer.
    ...(opts.sdk ? { 'io.modelcontextprotocol/logLevel': 'error' } : {}),
  };
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
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

const call = (name: string, args: unknown, opts: { client?: string } = {}) => modernCall(`${h.url}/mcp/p/finder`, h.token, name, args, opts);
const matches = (text: string) =>
  (JSON.parse(text) as { result: { structuredContent: { matches: { name: string }[] } } }).result.structuredContent.matches.map((m) => m.name);

describe('learning from use over MCP', () => {
  it('a search followed by a call teaches the called tool its words; shown per tool over REST, and forgotten on reset', async () => {
    expect(matches((await call('search_tools', { query: 'tidy the gizmo' }, { client: 'learner' })).text)).toEqual([]);
    // The agent tried other words and called what they found: its first words were an attempt at the same task.
    expect(matches((await call('search_tools', { query: 'archive widget' }, { client: 'learner' })).text)[0]).toBe('archive-widget');
    const called = await call('call_tool', { name: 'archive-widget', arguments: {} }, { client: 'learner' });
    expect(called.status, called.text).toBe(200);
    expect(JSON.parse(called.text).result.isError).toBeFalsy();
    // Another agent now finds it by the words that failed the first.
    expect(matches((await call('search_tools', { query: 'tidy the gizmo' }, { client: 'someone-else' })).text)[0]).toBe('archive-widget');
    const shown = await h.api('GET', `/tools/search-learning/${toolIDs['archive-widget']}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ learnFromUse: true, searches: [{ query: 'archive widget' }, { query: 'tidy the gizmo' }] });
    expect(shown.body.words.find((w: { word: string }) => w.word === 'gizmo')).toEqual({ word: 'gizmo', strength: 0.5, teachers: 1 });
    const reset = await h.api('DELETE', `/tools/search-learning?toolID=${toolIDs['archive-widget']}`);
    expect(reset.body).toEqual({ reset: 1 });
    expect(matches((await call('search_tools', { query: 'tidy the gizmo' })).text)).toEqual([]);
  });

  it('learns within a 2025 session as well', async () => {
    const c = new Client({ name: 'session-agent', version: '1' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp/p/finder`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }));
    try {
      await c.callTool({ name: 'search_tools', arguments: { query: 'spin the cog' } });
      await c.callTool({ name: 'search_tools', arguments: { query: 'rotate sprocket' } });
      await c.callTool({ name: 'call_tool', arguments: { name: 'rotate-sprocket', arguments: {} } });
      const again = await c.callTool({ name: 'search_tools', arguments: { query: 'spin the cog' } });
      expect((again.structuredContent as { matches: { name: string }[] }).matches[0]?.name).toBe('rotate-sprocket');
    } finally {
      await c.close();
    }
  });

  it('learns nothing with the setting off', async () => {
    expect((await h.api('PATCH', '/tools/config', { toolSearch: { learnFromUse: false } })).status).toBe(200);
    try {
      await call('search_tools', { query: 'polish the thingamajig' }, { client: 'quiet' });
      await call('search_tools', { query: 'send note' }, { client: 'quiet' });
      await call('call_tool', { name: 'send-note', arguments: {} }, { client: 'quiet' });
      expect(matches((await call('search_tools', { query: 'polish the thingamajig' })).text)).toEqual([]);
      expect((await h.api('GET', `/tools/search-learning/${toolIDs['send-note']}`)).body).toMatchObject({ learnFromUse: false, words: [] });
    } finally {
      await h.api('PATCH', '/tools/config', { toolSearch: { learnFromUse: true } });
    }
  });

  it('tells an agent plainly that no tool fits rather than handing it weak guesses; the floor is a setting', async () => {
    // Only "note" is a word of these tools: the rest of the task is something none of them does.
    const query = 'note the weather, the tides, the moon phases and the pollen count';
    const answer = JSON.parse((await call('search_tools', { query })).text).result;
    expect(answer.structuredContent).toEqual({
      matches: [],
      note: expect.stringMatching(/^No tool fits "note the weather.*relevance under 0\.15.*tell the user/),
    });
    expect(answer.content[0].text).toContain('No tool fits');
    // A task they do is well above it.
    const found = JSON.parse((await call('search_tools', { query: 'send a note to the team board' })).text).result.structuredContent;
    expect(found.matches[0]).toMatchObject({ name: 'send-note', relevance: expect.any(Number) });
    expect(found.matches[0].relevance).toBeGreaterThan(0.5);
    expect(found.note).toBeUndefined();
    // Floor 0: every match, the weak ones too.
    expect((await h.api('PATCH', '/tools/config', { toolSearch: { relevanceFloor: 0 } })).status).toBe(200);
    try {
      const all = matches((await call('search_tools', { query })).text);
      expect(all).toEqual(expect.arrayContaining(['send-note', 'list-notes']));
    } finally {
      await h.api('PATCH', '/tools/config', { toolSearch: {} });
    }
    expect((await h.api('PATCH', '/tools/config', { toolSearch: { relevanceFloor: 1.5 } })).status).toBe(400);
  });

  it("answers search_tools and describe_tools on the fast path, with the SDK's bytes; call_tool stays the SDK's", async () => {
    const view = (await h.core.dispatch('agents.surface', { audience: { profile: 'finder' } }, { caller: { transport: 'mcp', name: 'raw-caller' } })) as {
      ok: true;
      data: AgentSurfaceView;
    };
    const request = (name: string) =>
      ({
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': VERSION,
          'mcp-method': 'tools/call',
          'mcp-name': name,
        },
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name,
            arguments: {},
            _meta: {
              'io.modelcontextprotocol/protocolVersion': VERSION,
              'io.modelcontextprotocol/clientInfo': { name: 'raw-caller', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        },
      }) as never;
    expect(plainModernCall(request('search_tools'), view.data)).toMatchObject({ name: 'search_tools' });
    expect(plainModernCall(request('describe_tools'), view.data)).toMatchObject({ name: 'describe_tools' });
    expect(plainModernCall(request('call_tool'), view.data)).toBeUndefined();
    const cases: [string, unknown][] = [
      ['search_tools', { query: 'post a note', limit: 2 }],
      ['search_tools', { query: 'note the weather, the tides, the moon phases and the pollen count' }],
      ['search_tools', { query: 'the and of' }],
      ['search_tools', { query: 'x', limit: 0 }],
      ['describe_tools', { names: ['send-note', 'nowhere'] }],
      ['describe_tools', { names: [] }],
    ];
    for (const [name, args] of cases) {
      const fast = await modernCall(`${h.url}/mcp/p/finder`, h.token, name, args, { id: 7 });
      const sdk = await modernCall(`${h.url}/mcp/p/finder`, h.token, name, args, { id: 7, sdk: true });
      expect(fast.status, fast.text).toBe(200);
      expect(fast.type).toBe(sdk.type);
      expect(fast.text).toBe(sdk.text);
    }
  });
});
