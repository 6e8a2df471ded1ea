/** `toolwright profiles …` from the command line, a fresh CLI process per command on one data folder. */
import { beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { createCore } from '../../../electron/core/app-core.js';
import { tempDir } from '../../helpers/store.js';
import { runToolwright } from '../../helpers/procs.js';

let dataDir: string;

const tw = (args: string[]) => runToolwright(dataDir, args);

beforeAll(async () => {
  dataDir = await tempDir('tw-cli-profiles-');
  const core = await createCore({ dataDir, docker: false });
  const ops = uuidv7();
  const misc = uuidv7();
  await core.dispatch('bundles.put', { bundleID: ops, bundle: { slug: 'ops' } });
  await core.dispatch('bundles.put', { bundleID: misc, bundle: { slug: 'misc' } });
  const tool = { type: 'function', impl: { function: 'core.uuid' }, argSchema: { type: 'object', properties: {} } };
  for (const slug of ['deploy', 'status']) await core.dispatch('tools.put', { bundleID: ops, slug, version: 'v1', tool });
  await core.dispatch('tools.put', { bundleID: misc, slug: 'extra', version: 'v1', tool });
  await core.close();
}, 60_000);

describe('toolwright profiles', () => {
  it('adds, lists, shows, makes and revokes a token, and removes a profile', async () => {
    const added = await tw(['profiles', 'add', 'oncall', '--bundle', 'ops', '--include', 'misc/extra', '--exclude', 'ops/deploy', '--mode', 'search']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('added profile oncall (search): 2 tool(s)');
    const list = await tw(['profiles']);
    expect(list.stdout).toMatch(/oncall\s+search\s+2/);
    const shown = JSON.parse((await tw(['--json', 'profiles', 'show', 'oncall'])).stdout) as { tools: { name: string }[] };
    expect(shown.tools.map((t) => t.name).sort()).toEqual(['extra', 'status']);
    const token = await tw(['--json', 'profiles', 'token', 'oncall', '--label', 'pager']);
    expect(token.code, token.stderr).toBe(0);
    const created = JSON.parse(token.stdout) as { tokenID: string; token: string; label: string };
    expect(created.label).toBe('pager');
    expect(created.token.length).toBeGreaterThan(32);
    const revoked = await tw(['profiles', 'revoke', 'oncall', created.tokenID]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const taken = await tw(['profiles', 'add', 'oncall', '--bundle', 'ops']);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toMatch(/CONFLICT.*oncall/);
    expect((await tw(['profiles', 'remove', 'oncall'])).code).toBe(0);
    const gone = await tw(['profiles', 'show', 'oncall']);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toMatch(/no profile 'oncall'/);
  }, 120_000);
});

describe('toolwright doctor --profile', () => {
  it('checks one profile: mode, tools, missing references, both context costs, and its client configuration over stdio and HTTP', async () => {
    expect((await tw(['profiles', 'add', 'checked', '--bundle', 'ops', '--include', 'misc/extra', '--mode', 'search'])).code).toBe(0);
    const text = await tw(['doctor', '--profile', 'checked']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/profile checked \(search\): 3 tool\(s\)/);
    expect(text.stdout).toMatch(/every tool listed ≈ [\d,]+ tokens/);
    expect(text.stdout).toContain('"--profile",\n        "checked"');
    expect(text.stdout).toContain('http://127.0.0.1:7420/mcp/p/checked');
    expect(text.stdout).toContain('Bearer <token>');
    const json = await tw(['--json', 'doctor', '--profile', 'checked', '--url', 'https://tools.example.com']);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as {
      profile: {
        slug: string;
        mode: string;
        toolCount: number;
        missing: { bundles: string[]; tools: string[] };
        contextTokens: { listed: number; search: number; pending: number };
        warnings: string[];
        mcpConfig: { stdio: { mcpServers: Record<string, { args: string[] }> }; http: { mcpServers: Record<string, { url: string }> } };
      };
    };
    expect(report.profile).toMatchObject({ slug: 'checked', mode: 'search', toolCount: 3, missing: { bundles: [], tools: [] }, warnings: [] });
    expect(report.profile.contextTokens.pending).toBe(0);
    expect(report.profile.contextTokens.listed).toBeGreaterThan(100);
    expect(report.profile.contextTokens.search).toBeGreaterThan(100);
    expect(report.profile.mcpConfig.stdio.mcpServers['checked']!.args.slice(-3)).toEqual(['mcp', '--profile', 'checked']);
    expect(report.profile.mcpConfig.http.mcpServers['checked']!.url).toBe('https://tools.example.com/mcp/p/checked');
  }, 120_000);

  it('names the known profiles when the slug is not one of them', async () => {
    expect((await tw(['profiles', 'add', 'known', '--bundle', 'ops'])).code).toBe(0);
    const r = await tw(['doctor', '--profile', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no profile 'nope'; known profiles: (.+, )?known\b/);
  }, 60_000);
});
