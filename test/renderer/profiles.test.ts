/** The Profiles screen's pure parts: live updates of profiles, and the client configuration it shares with Connect an agent. */
import { describe, expect, it } from 'vitest';
import { keysForEvent } from '../../renderer/src/api/events.js';
import { mcpClientConfig, profileLaunch } from '../../shared/agents/mcp-config.js';
import { draftOf, inputOf } from '../../renderer/src/features/profiles/profileInput.js';
import type { ProfileFile } from '../../shared/agents/profiles.js';

const launch = { command: '/usr/bin/node', args: ['/app/bin/toolwright.js', '--data-dir', '/data', 'mcp'] };

describe('live updates of profiles', () => {
  it('makes the profiles stale when one changes or is removed', () => {
    for (const type of ['profile.changed', 'profile.removed'] as const) {
      const k = keysForEvent({ type, profileID: 'p1' }).map((x) => JSON.stringify(x));
      expect(k).toContain('["profiles"]');
    }
  });
});

describe("a profile's client configuration", () => {
  it("starts this install's server on the profile over stdio", () => {
    expect(profileLaunch(launch, 'ops-agent')).toEqual({ command: '/usr/bin/node', args: [...launch.args, '--profile', 'ops-agent'] });
    expect(JSON.parse(mcpClientConfig('claude', { name: 'ops-agent', launch: profileLaunch(launch, 'ops-agent') }))).toEqual({
      mcpServers: { 'ops-agent': { command: '/usr/bin/node', args: [...launch.args, '--profile', 'ops-agent'] } },
    });
  });

  it("names the profile's address and the bearer over Streamable HTTP", () => {
    const http = mcpClientConfig('http', { name: 'ops-agent', launch, httpUrl: 'http://127.0.0.1:5/mcp/p/ops-agent', bearer: 'tok' });
    expect(JSON.parse(http)).toEqual({
      mcpServers: { 'ops-agent': { type: 'http', url: 'http://127.0.0.1:5/mcp/p/ops-agent', headers: { Authorization: 'Bearer tok' } } },
    });
  });

  it('keeps the stdio command line of Connect an agent', () => {
    expect(mcpClientConfig('command', { name: 'toolwright', launch: { command: 'node', args: ['/a b/cli.js', 'mcp'] } })).toBe('node "/a b/cli.js" mcp');
  });
});

describe("the profile form and a profile's required OAuth scope", () => {
  const stored: ProfileFile = {
    profileID: '0193c5a0-0000-7000-8000-000000000001',
    slug: 'ops',
    displayName: 'Ops',
    bundles: [],
    mode: 'all',
    requiredScope: 'team:ops',
    createdAt: '2026-01-01T00:00:00.000Z',
    modifiedAt: '2026-01-01T00:00:00.000Z',
  };

  it('keeps the scope through a save from the form, and sends an edited one', () => {
    expect(inputOf(draftOf(stored), stored).requiredScope).toBe('team:ops');
    expect(inputOf({ ...draftOf(stored), requiredScope: ' team:admins ' }, stored).requiredScope).toBe('team:admins');
    expect(inputOf({ ...draftOf(stored), requiredScope: '' }, stored)).not.toHaveProperty('requiredScope');
  });
});
