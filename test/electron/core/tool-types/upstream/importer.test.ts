/**
 * The MCP configurations people already have, imported over REST into one bundle per server:
 * real files (test/fixtures/mcp/configs) naming a real server of the test's own
 * (file-tools-server.mjs) started and synced after the import, secrets moved into the secrets
 * store (the whole data folder is searched for their values), dry runs that write nothing, and
 * hostile or broken input refused with nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHost, type TestHost } from '../../../../helpers/host.js';
import { listTree, rawZip } from '../../../../helpers/transfer.js';

const CONFIGS = join(import.meta.dirname, '../../../../fixtures/mcp/configs');
const SERVER = join(import.meta.dirname, '../../../../fixtures/mcp/file-tools-server.mjs');
const TOOLS = {
  tools: [
    {
      name: 'echo',
      description: 'Repeats what it is given',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    },
    { name: 'fail', description: 'Always refuses', inputSchema: { type: 'object', properties: {} } },
  ],
};
const SECRET_VALUES = ['ghp_claudeSecretValue123', 'remoteSecretValue456', 'vscodeSecretValue789', 'registrySecretValue321'];

let h: TestHost;
let dir: string;
let toolsFile: string;

/** A fixture with the test's paths filled in. */
async function fixture(name: string): Promise<string> {
  const text = await readFile(join(CONFIGS, name), 'utf8');
  return text.replaceAll('{{NODE}}', process.execPath).replaceAll('{{SERVER}}', SERVER).replaceAll('{{TOOLS}}', toolsFile);
}

const importMcp = (body: Record<string, unknown>) => h.api('POST', '/tools/bundles/import/mcp', body);

/** Every file under the data folder that holds the text, in any encoding a file could keep it in plainly. */
async function filesHolding(root: string, text: string): Promise<string[]> {
  const hits: string[] = [];
  for (const rel of await listTree(root)) {
    if (rel.endsWith('/')) continue;
    const bytes = await readFile(join(root, rel));
    if (bytes.includes(text) || bytes.includes(Buffer.from(text).toString('base64'))) hits.push(rel);
  }
  return hits;
}

function mcpb(manifest: string, extra: { name: string; data: Buffer; mode?: number }[] = []): Buffer {
  return rawZip([{ name: 'manifest.json', data: Buffer.from(manifest) }, { name: 'server/tools.json', data: Buffer.from(JSON.stringify(TOOLS)) }, ...extra]);
}

beforeAll(async () => {
  h = await startHost();
  dir = await mkdtemp(join(tmpdir(), 'tw-mcp-import-'));
  toolsFile = join(dir, 'tools.json');
  await writeFile(toolsFile, JSON.stringify(TOOLS));
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('importing MCP client configurations', () => {
  it('a dry run of a claude_desktop_config.json reports every server and writes nothing', async () => {
    const before = await listTree(h.dataDir);
    const res = await importMcp({ content: await fixture('claude_desktop_config.json'), dryRun: true });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.dryRun).toBe(true);
    expect(res.body.mcpFormat).toBe('mcpServers');
    expect(res.body.created).toEqual([]);
    const byName = Object.fromEntries(res.body.mcpServers.map((s: { name: string }) => [s.name, s]));
    expect(byName['file tools']).toMatchObject({ status: 'created', slug: 'file-tools', transport: 'stdio', secretsStored: ['FILE_TOOLS_GITHUB_TOKEN'] });
    expect(await listTree(h.dataDir)).toEqual(before);
    expect((await h.api('GET', '/tools/secrets')).body.items).toEqual([]);
  });

  it('creates one bundle per server, moves secrets into the store, syncs what starts and says why the rest was not imported', async () => {
    const res = await importMcp({ content: await fixture('claude_desktop_config.json') });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const byName = Object.fromEntries(res.body.mcpServers.map((s: { name: string }) => [s.name, s]));
    expect(byName['file tools']).toMatchObject({
      status: 'created',
      slug: 'file-tools',
      secretsStored: ['FILE_TOOLS_GITHUB_TOKEN'],
      secretsNeeded: [],
      sync: { status: 'synced', tools: ['echo', 'fail'] },
    });
    expect(byName['remote-notes']).toMatchObject({ status: 'created', transport: 'http', secretsStored: ['REMOTE_NOTES_AUTHORIZATION'] });
    expect(byName['remote-notes'].sync.status).toBe('failed');
    expect(byName['legacy-sse']).toMatchObject({ status: 'skipped', reason: expect.stringContaining('SSE') });
    expect(byName['../escape'].reason).toContain('path separator');
    expect(byName['bell?name'].reason).toContain('control characters');
    expect(byName['no-command'].reason).toContain('neither a "command"');
    expect(byName['workspace'].reason).toContain('${workspaceFolder}');
    expect(res.body.created).toHaveLength(2);
    expect(res.body.toolCount).toBe(2);

    const filesID = byName['file tools'].bundleID;
    const bundle = JSON.parse(await readFile(join(h.dataDir, 'bundles', filesID, 'bundle.json'), 'utf8'));
    expect(bundle.source.env).toEqual({ GITHUB_TOKEN: '${FILE_TOOLS_GITHUB_TOKEN}', LOG_LEVEL: 'debug' });
    const remote = JSON.parse(await readFile(join(h.dataDir, 'bundles', byName['remote-notes'].bundleID, 'bundle.json'), 'utf8'));
    expect(remote.source.headers).toEqual({ Authorization: '${REMOTE_NOTES_AUTHORIZATION}', 'X-Team': 'blue' });
    const secrets = (await h.api('GET', '/tools/secrets')).body.items.map((s: { name: string }) => s.name);
    expect(secrets).toEqual(expect.arrayContaining(['FILE_TOOLS_GITHUB_TOKEN', 'REMOTE_NOTES_AUTHORIZATION']));
    // The synced tools arrive switched off and run through the secret-filled source.
    const tools = (await h.api('GET', `/tools/tools?bundleIDs=${filesID}&includeDisabled=true`)).body.items;
    expect(tools.map((t: { slug: string; isEnabled: boolean }) => [t.slug, t.isEnabled])).toEqual([
      ['echo', false],
      ['fail', false],
    ]);

    // Importing the same file again makes new, unique slugs rather than touching the first ones.
    const again = await importMcp({ content: await fixture('claude_desktop_config.json'), sync: false });
    expect(again.body.mcpServers.find((s: { name: string }) => s.name === 'file tools')).toMatchObject({
      slug: 'file-tools-2',
      secretsStored: ['FILE_TOOLS_2_GITHUB_TOKEN'],
    });
  }, 60_000);

  it('a VS Code mcp.json: password inputs are secrets to set, other inputs their defaults', async () => {
    const res = await importMcp({ content: await fixture('vscode-mcp.json') });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.mcpFormat).toBe('vscode');
    const byName = Object.fromEntries(res.body.mcpServers.map((s: { name: string }) => [s.name, s]));
    expect(byName['github']).toMatchObject({
      status: 'created',
      secretsStored: [],
      secretsNeeded: [{ name: 'GITHUB_GITHUB_PAT', description: 'GitHub Personal Access Token' }],
      sync: { status: 'not-run', error: expect.stringContaining('set GITHUB_GITHUB_PAT first') },
    });
    const github = JSON.parse(await readFile(join(h.dataDir, 'bundles', byName['github'].bundleID, 'bundle.json'), 'utf8'));
    expect(github.source.headers).toEqual({ Authorization: 'Bearer ${GITHUB_GITHUB_PAT}' });
    expect(byName['files'].slug).toBe('files');
    expect(byName['files']).toMatchObject({ secretsStored: ['FILES_API_KEY'], sync: { status: 'synced' } });
    const files = JSON.parse(await readFile(join(h.dataDir, 'bundles', byName['files'].bundleID, 'bundle.json'), 'utf8'));
    expect(files.source.env).toEqual({ REGION: 'eu-west-1', API_KEY: '${FILES_API_KEY}' });
    expect(byName['undefined-input'].reason).toContain('${input:nope}');
  }, 60_000);

  it('a registry server.json: its npm package through npx, secrets to set; a remote when there is no npm package', async () => {
    const res = await importMcp({ content: await fixture('registry-server.json') });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [weather] = res.body.mcpServers;
    expect(weather).toMatchObject({
      name: 'io.github.example/weather',
      slug: 'weather',
      transport: 'stdio',
      secretsNeeded: [{ name: 'WEATHER_WEATHER_API_KEY', description: 'Your weather API key' }],
      sync: { status: 'not-run' },
    });
    const bundle = JSON.parse(await readFile(join(h.dataDir, 'bundles', weather.bundleID, 'bundle.json'), 'utf8'));
    expect(bundle.source).toMatchObject({
      command: 'npx',
      args: ['-y', '@example/weather-mcp@1.4.2', '--units', 'metric'],
      env: { WEATHER_API_KEY: '${WEATHER_WEATHER_API_KEY}', WEATHER_REGION: 'eu' },
    });
    expect(bundle.displayName).toBe('Weather');

    const remote = await importMcp({ content: await fixture('registry-remote.json'), sync: false });
    expect(remote.body.mcpServers[0]).toMatchObject({ slug: 'notes', transport: 'http', secretsStored: ['NOTES_X_API_KEY'] });
    const notes = JSON.parse(await readFile(join(h.dataDir, 'bundles', remote.body.mcpServers[0].bundleID, 'bundle.json'), 'utf8'));
    expect(notes.source).toMatchObject({ url: 'https://notes.example.com/mcp', headers: { 'X-API-Key': '${NOTES_X_API_KEY}' } });

    const ociOnly = await importMcp({ content: JSON.stringify({ name: 'x/only-oci', packages: [{ registryType: 'oci', identifier: 'x' }] }), dryRun: true });
    expect(ociOnly.body.mcpServers[0]).toMatchObject({ status: 'skipped', reason: expect.stringContaining('no npm package') });
  }, 60_000);

  it('an .mcpb is unpacked under the data folder; ${__dirname} names it, a sensitive user_config is a secret to set', async () => {
    const zip = mcpb(await fixture('manifest.json'));
    const before = await listTree(h.dataDir);
    const dry = await importMcp({ content: zip.toString('base64'), encoding: 'base64', dryRun: true });
    expect(dry.status, JSON.stringify(dry.body)).toBe(201);
    expect(await listTree(h.dataDir)).toEqual(before);

    const res = await importMcp({ content: zip.toString('base64'), encoding: 'base64' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [item] = res.body.mcpServers;
    expect(item).toMatchObject({
      status: 'created',
      slug: 'packaged-files',
      secretsNeeded: [{ name: 'PACKAGED_FILES_NOTES_TOKEN', description: 'Token for the notes service' }],
      sync: { status: 'not-run' },
    });
    const folder = join(h.dataDir, 'mcp-packages', item.bundleID);
    expect((await readdir(join(folder, 'server'))).sort()).toEqual(['tools.json']);
    const bundle = JSON.parse(await readFile(join(h.dataDir, 'bundles', item.bundleID, 'bundle.json'), 'utf8'));
    expect(bundle.displayName).toBe('Packaged file tools');
    expect(bundle.source.args).toEqual([SERVER, join(folder, 'server/tools.json')]);
    expect(bundle.source.env).toEqual({ NOTES_TOKEN: '${PACKAGED_FILES_NOTES_TOKEN}', UNITS: 'metric' });

    // Once the person sets the secret, the server starts from the unpacked folder.
    expect((await h.api('PUT', '/tools/secrets/PACKAGED_FILES_NOTES_TOKEN', { value: 'set-later' })).status).toBeLessThan(300);
    const sync = await h.api('POST', `/tools/bundles/${item.bundleID}/sync`);
    expect(sync.status, JSON.stringify(sync.body)).toBe(200);
    expect(sync.body.added.map((a: { name: string }) => a.name)).toEqual(['echo', 'fail']);
  }, 60_000);

  it('no secret value from any imported file is in any file under the data folder', async () => {
    for (const value of SECRET_VALUES) expect(await filesHolding(h.dataDir, value), value).toEqual([]);
  });
});

describe('bad MCP configurations are refused whole, writing nothing', () => {
  const cases: [string, Record<string, unknown>, number, RegExp][] = [
    ['not JSON', { content: '{"mcpServers": {' }, 400, /not JSON/],
    ['a list', { content: '[1, 2]' }, 400, /not an object/],
    ['mcpServers as a list', { content: '{"mcpServers": []}' }, 400, /"mcpServers" must be an object/],
    ['no servers at all', { content: '{"openapi": "3.0.0"}' }, 400, /has no MCP servers/],
    ['a huge file', { content: JSON.stringify({ mcpServers: {}, pad: 'x'.repeat(5 * 1024 * 1024) }) }, 413, /at most 4 MB|at most 4\.0 MiB|at most/],
    [
      'an .mcpb with a path that climbs out',
      { content: mcpb('{}', [{ name: '../evil.js', data: Buffer.from('x') }]).toString('base64'), encoding: 'base64' },
      400,
      /'\.\.'/,
    ],
    [
      'an .mcpb with a symbolic link',
      { content: mcpb('{}', [{ name: 'server/link', data: Buffer.from('/etc/passwd'), mode: 0o120777 }]).toString('base64'), encoding: 'base64' },
      400,
      /symbolic link/,
    ],
    [
      'an .mcpb without a manifest',
      { content: rawZip([{ name: 'server/index.js', data: Buffer.from('x') }]).toString('base64'), encoding: 'base64' },
      400,
      /no manifest\.json/,
    ],
  ];
  for (const [what, body, status, message] of cases) {
    it(what, async () => {
      const before = await listTree(h.dataDir);
      const res = await importMcp(body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error.message).toMatch(message);
      expect(await listTree(h.dataDir)).toEqual(before);
    });
  }

  it('a config with 100 servers is fine; one with more than a thousand is refused', async () => {
    const hundred = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`srv ${i}`, { command: 'node', args: [`s${i}.js`] }]));
    const res = await importMcp({ content: JSON.stringify({ mcpServers: hundred }), sync: false });
    expect(res.status).toBe(201);
    expect(res.body.created).toHaveLength(100);
    expect(new Set(res.body.created.map((b: { slug: string }) => b.slug)).size).toBe(100);
    const tooMany = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`s${i}`, { command: 'node' }]));
    const before = await listTree(h.dataDir);
    const refused = await importMcp({ content: JSON.stringify({ mcpServers: tooMany }) });
    expect(refused.status).toBe(413);
    expect(refused.body.error.message).toContain('1001 servers');
    expect(await listTree(h.dataDir)).toEqual(before);
  }, 60_000);
});
