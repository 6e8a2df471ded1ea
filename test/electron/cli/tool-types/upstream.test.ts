/**
 * Upstream MCP servers from the command line, a fresh CLI process per command on one data
 * folder: `add-server` probes a real server (the test's file-tools server) before creating its
 * bundle and prints its tools, `servers` lists it, `sync --dry-run` reports, and `import` brings
 * in a claude_desktop_config.json with its secret moved into the secrets store.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../../../helpers/store.js';
import { runToolwright } from '../../../helpers/procs.js';
import { listTree } from '../../../helpers/transfer.js';

const SERVER = join(import.meta.dirname, '../../../fixtures/mcp/file-tools-server.mjs');
const CONFIG = join(import.meta.dirname, '../../../fixtures/mcp/configs/claude_desktop_config.json');
let dataDir: string;
let toolsFile: string;

const tw = (args: string[]) => runToolwright(dataDir, args);

beforeAll(async () => {
  dataDir = await tempDir('tw-cli-servers-');
  const dir = await tempDir('tw-cli-servers-tools-');
  toolsFile = join(dir, 'tools.json');
  await writeFile(
    toolsFile,
    JSON.stringify({
      tools: [
        {
          name: 'echo',
          description: 'Repeats',
          inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
          annotations: { readOnlyHint: true },
        },
        { name: 'get_forecast', description: 'Forecast', inputSchema: { type: 'object', properties: {} } },
      ],
    }),
  );
});

describe('toolwright add-server, servers, sync', () => {
  it('add-server probes, creates the bundle, syncs and prints the tools; a secret --env goes to the secrets store', async () => {
    const added = await tw(['add-server', 'files', '--name', 'File tools', '--env', 'FILES_TOKEN=cliSecretValue42', '--', process.execPath, SERVER, toolsFile]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('added files (file-tools 1.0.0): 2 tool(s)');
    expect(added.stdout).toContain('+ files/get-forecast  (get_forecast)');
    expect(added.stdout).toContain('secrets stored: FILES_FILES_TOKEN');
    const bundles = JSON.parse((await tw(['--json', 'servers'])).stdout) as { slug: string; source: { env: Record<string, string> } }[];
    expect(bundles).toHaveLength(1);
    expect(bundles[0]!.source.env).toEqual({ FILES_TOKEN: '${FILES_FILES_TOKEN}' });
    const table = await tw(['servers']);
    expect(table.stdout).toMatch(/^BUNDLE\s+STATE\s+ON\/TOOLS\s+REVIEW\s+SYNCED\s+SERVER/);
    expect(table.stdout).toMatch(/files\s+stopped\s+0\/2\s+2 new\s/);
    const again = await tw(['add-server', 'files', '--', process.execPath, SERVER, toolsFile]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("a bundle 'files' exists already");
  }, 90_000);

  it('sync --dry-run reports a new upstream tool without creating it; sync then adds it switched off', async () => {
    const tools = JSON.parse(await readFile(toolsFile, 'utf8'));
    tools.tools.push({ name: 'ping', description: 'Pong', inputSchema: { type: 'object', properties: {} } });
    await writeFile(toolsFile, JSON.stringify(tools));
    const dry = await tw(['sync', 'files', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would sync files (file-tools 1.0.0): 1 new, 0 changed, 0 gone, 2 unchanged');
    expect((await tw(['--json', 'ls', '--bundle', 'files'])).stdout).not.toContain('"ping"');
    const real = await tw(['sync', 'files']);
    expect(real.stdout).toContain('+ ping  (new, switched off)');
  }, 90_000);

  it('servers BUNDLE lists its tools with their review state; switching one never changes it; --needs-review leaves accepted ones out', async () => {
    expect((await tw(['enable', 'files/echo'])).code).toBe(0);
    const listed = await tw(['servers', 'files']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^TOOL\s+UPSTREAM NAME\s+REVIEW\s+ENABLED\s+AVAILABILITY/);
    expect(listed.stdout).toMatch(/files\/echo@v1\s+echo\s+new\s+on\s+available/);
    expect(listed.stdout).toMatch(/files\/get-forecast@v1\s+get_forecast\s+new\s+off/);
    // A person accepts echo: then it is accepted, and stays so switched off.
    const accepted = await tw(['accept', 'files/echo']);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain('files/echo: marked reviewed');
    expect((await tw(['disable', 'files/echo'])).code).toBe(0);
    const json = JSON.parse((await tw(['--json', 'servers', 'files'])).stdout) as { slug: string; review: { state: string } }[];
    expect(Object.fromEntries(json.map((t) => [t.slug, t.review.state]))).toEqual({ echo: 'accepted', 'get-forecast': 'new', ping: 'new' });
    const needs = await tw(['servers', 'files', '--needs-review']);
    expect(needs.stdout).not.toContain('files/echo');
    expect(needs.stdout).toContain('files/ping@v1');
    expect((await tw(['servers'])).stdout).toMatch(/files\s+stopped\s+0\/3\s+2 new\s/);
  }, 120_000);

  it('add-server of a command that does not exist fails clearly and creates nothing', async () => {
    const before = await listTree(join(dataDir, 'bundles'));
    const res = await tw(['add-server', 'ghost', '--', '/nonexistent/mcp-server']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/toolwright: \w+: .*nonexistent/);
    expect(await listTree(join(dataDir, 'bundles'))).toEqual(before);
  }, 90_000);

  it('import of a claude_desktop_config.json creates the servers and says what to fix; the secret is in no file', async () => {
    const config = join(await tempDir('tw-cli-config-'), 'claude_desktop_config.json');
    await writeFile(
      config,
      (await readFile(CONFIG, 'utf8')).replaceAll('{{NODE}}', process.execPath).replaceAll('{{SERVER}}', SERVER).replaceAll('{{TOOLS}}', toolsFile),
    );
    const dry = await tw(['import', config, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would import 2 MCP server(s) of 7');
    const res = await tw(['import', config]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('+ file-tools  (file tools)  stdio');
    expect(res.stdout).toContain('secrets stored: FILE_TOOLS_GITHUB_TOKEN');
    expect(res.stdout).toContain('synced: 3 tool(s)');
    expect(res.stdout).toContain('- legacy-sse: not imported: uses the SSE transport');
    for (const rel of await listTree(dataDir)) {
      if (rel.endsWith('/')) continue;
      const bytes = await readFile(join(dataDir, rel));
      expect(bytes.includes('ghp_claudeSecretValue123') || bytes.includes('cliSecretValue42'), rel).toBe(false);
    }
  }, 90_000);
});
