/**
 * The gateway's screens, their pure parts: a pasted command line or URL becomes a source, secret
 * values are recognised and replaced by placeholders, a tool's upstream state is read from what
 * the core says of it, and the server's live events reach its query.
 */
import { describe, expect, it } from 'vitest';
import { parseServerLine, looksSecret, placeholderOf, secretNameFor, sourceOf } from '../../../renderer/src/tool-types/upstream/commandLine.js';
import { upstreamMarkOf, sideBySide } from '../../../renderer/src/tool-types/upstream/upstreamMark.js';
import { keysForEvent } from '../../../renderer/src/api/events.js';
import type { ToolView } from '../../../shared/types.js';

describe('a pasted command line or URL', () => {
  it('splits a command line into command and args', () => {
    expect(parseServerLine('npx -y @modelcontextprotocol/server-memory')).toEqual({
      ok: true,
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory'],
      env: {},
    });
  });

  it('keeps quoted arguments whole, as a shell would', () => {
    const r = parseServerLine(`node "/path with spaces/server.js" --name 'my server' --say "it\\"s" a\\ b`);
    expect(r).toMatchObject({ ok: true, command: 'node', args: ['/path with spaces/server.js', '--name', 'my server', '--say', 'it"s', 'a b'] });
  });

  it('takes leading NAME=value assignments as environment variables', () => {
    expect(parseServerLine('GITHUB_TOKEN=ghp_x DEBUG=1 npx -y server-github')).toMatchObject({
      ok: true,
      command: 'npx',
      args: ['-y', 'server-github'],
      env: { GITHUB_TOKEN: 'ghp_x', DEBUG: '1' },
    });
  });

  it('reads a URL as a Streamable HTTP server', () => {
    expect(parseServerLine('  https://mcp.example.com/mcp ')).toEqual({ ok: true, transport: 'http', url: 'https://mcp.example.com/mcp' });
  });

  it('says what is wrong with a line it cannot read', () => {
    expect(parseServerLine('')).toMatchObject({ ok: false, error: expect.stringMatching(/Paste a command line/) });
    expect(parseServerLine('node "unclosed')).toMatchObject({ ok: false, error: expect.stringMatching(/quote .* not closed/) });
    expect(parseServerLine('http://exa mple.com')).toMatchObject({ ok: false, error: expect.stringMatching(/not a valid URL/) });
    expect(parseServerLine('FOO=1')).toMatchObject({ ok: false, error: expect.stringMatching(/no command/) });
  });

  it('recognises secret names and makes placeholders', () => {
    expect(looksSecret('GITHUB_TOKEN')).toBe(true);
    expect(looksSecret('Authorization')).toBe(true);
    expect(looksSecret('OPENAI_API_KEY')).toBe(true);
    expect(looksSecret('DEBUG')).toBe(false);
    expect(placeholderOf('${GH}')).toBe('GH');
    expect(placeholderOf('Bearer ${GH}')).toBeUndefined();
    expect(secretNameFor('memory', 'x-api-key')).toBe('MEMORY_X_API_KEY');
  });

  it('builds the source the core takes, leaving out empty rows', () => {
    const parsed = parseServerLine('npx -y server');
    expect(
      sourceOf(parsed, [
        { name: 'TOKEN', value: '${TOKEN}' },
        { name: '', value: '' },
      ]),
    ).toEqual({ kind: 'mcp', transport: 'stdio', command: 'npx', args: ['-y', 'server'], env: { TOKEN: '${TOKEN}' } });
    expect(sourceOf(parseServerLine('https://h/mcp'), [{ name: 'Authorization', value: 'Bearer ${T}' }])).toEqual({
      kind: 'mcp',
      transport: 'http',
      url: 'https://h/mcp',
      headers: { Authorization: 'Bearer ${T}' },
    });
  });
});

function mcpTool(over: Partial<ToolView>): ToolView {
  return {
    toolID: 't',
    bundleID: 'b',
    slug: 'echo',
    version: 'v1',
    type: 'mcp',
    isEnabled: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    modifiedAt: '2026-01-02T00:00:00.000Z',
    availability: { ok: true },
    metrics: { callCount: 0, errorCount: 0, lastCalledAt: null },
    impl: { tool: 'echo', definitionHash: `sha256:${'0'.repeat(64)}` },
    ...over,
  } as ToolView;
}

describe("an upstream tool's mark", () => {
  it('is its stored review state: new, changed or gone; none once accepted', () => {
    expect(upstreamMarkOf(mcpTool({ review: { state: 'new' } }))).toBe('new');
    expect(upstreamMarkOf(mcpTool({ review: { state: 'changed' }, availability: { ok: false, reason: 'x' } }))).toBe('changed');
    expect(upstreamMarkOf(mcpTool({ review: { state: 'gone' } }))).toBe('gone');
    expect(upstreamMarkOf(mcpTool({ review: { state: 'accepted', reviewedAt: '2026-01-03T00:00:00.000Z' } }))).toBeNull();
    expect(upstreamMarkOf(mcpTool({ type: 'function' } as Partial<ToolView>))).toBeNull();
  });

  it('is never guessed from the switch or the times: an accepted tool switched off and never edited stays unmarked', () => {
    const untouched = { isEnabled: false, modifiedAt: '2026-01-01T00:00:00.000Z' };
    expect(upstreamMarkOf(mcpTool({ ...untouched, review: { state: 'accepted' } }))).toBeNull();
    expect(upstreamMarkOf(mcpTool({ isEnabled: true, review: { state: 'new' } }))).toBe('new');
  });
});

describe('the side-by-side diff', () => {
  it('pairs removed and added lines on one row and keeps equal lines on both sides', () => {
    const rows = sideBySide('a\nb\nc', 'a\nB\nc\nd');
    expect(rows).toEqual([
      { left: 'a', right: 'a', kind: 'same' },
      { left: 'b', right: 'B', kind: 'changed' },
      { left: 'c', right: 'c', kind: 'same' },
      { left: null, right: 'd', kind: 'added' },
    ]);
  });
});

describe('live updates of a server', () => {
  it("makes the bundle's server status stale when its server changes", () => {
    const k = keysForEvent({ type: 'upstream.changed', bundleID: 'b1' }).map((x) => JSON.stringify(x));
    expect(k).toContain('["servers","b1"]');
  });
});

describe('the bundle slug suggested for a server', () => {
  it('comes from the package or script the command starts, or the server name', async () => {
    const { suggestedSlug } = await import('../../../renderer/src/tool-types/upstream/commandLine.js');
    expect(suggestedSlug(parseServerLine('npx -y @modelcontextprotocol/server-memory@2025.1.1'))).toBe('server-memory');
    expect(suggestedSlug(parseServerLine("node ./file-tools-server.mjs '/tmp/tools with space.json'"))).toBe('file-tools-server');
    expect(suggestedSlug(parseServerLine('https://mcp.example.com/mcp'))).toBe('mcp');
    expect(suggestedSlug(parseServerLine('npx x'), 'GitHub MCP')).toBe('github-mcp');
  });
});
