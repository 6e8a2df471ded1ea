/**
 * The `toolwright` command as a user runs it: a separate process per command on a data folder,
 * checking output, exit codes (0 ok, 1 the tool failed, 2 bad usage or input, 3 refused by a
 * gate) and that a secret's value never needs to be on the command line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFile, stat } from 'node:fs/promises';
import { tempDir } from '../../helpers/store.js';
import { runToolwright } from '../../helpers/procs.js';

const BIN = join(import.meta.dirname, '../../../bin/toolwright.js');
let dataDir: string;

/** The CLI's compiled bundle, or with `entry` [BIN] the command as installed (bin/toolwright.js through tsx). */
const tw = (args: string[], input?: string, entry?: string[]) => runToolwright(dataDir, args, { input, entry });

beforeAll(async () => {
  dataDir = await tempDir('tw-cli-');
});
afterAll(async () => undefined);

// Each call is a fresh process of the compiled CLI (procs.ts: toolwrightArgs).
describe('toolwright CLI', () => {
  it('ls prints a table, and --json the items of GET /tools/tools', async () => {
    const human = await tw(['ls'], undefined, [BIN]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^TOOL\s+TYPE\s+SAFETY/);
    expect(human.stdout).toContain('core/calc@v1');
    const json = await tw(['--json', 'ls']);
    const items = JSON.parse(json.stdout) as { slug: string; availability: unknown }[];
    expect(items.find((i) => i.slug === 'calc')).toMatchObject({ slug: 'calc', availability: { ok: true } });
  }, 90_000);

  it('run types --arg by the argSchema, reads --args or stdin, and exits 0 / 2 / 3', async () => {
    const ok = await tw(['--json', 'run', 'core/calc', '--arg', 'expression=6*7']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, value: { value: 42 } });
    const fromStdin = await tw(['run', 'calc'], '{"expression": "2^8"}');
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stdout).toContain('"value": 256');
    const typed = await tw(['--json', 'run', 'core/text-stats', '--arg', 'text=a b c']);
    expect(JSON.parse(typed.stdout).value.words).toBe(3);
    const badArgs = await tw(['run', 'calc', '--args', '{"nope": 1}']);
    expect(badArgs.code).toBe(2);
    expect(badArgs.stderr).toContain('INVALID_ARGS');
    const unknown = await tw(['run', 'core/nothing']);
    expect(unknown.code).toBe(2);
    const usage = await tw(['frobnicate']);
    expect(usage.code).toBe(2);
    expect((await tw(['disable', 'core/calc'])).code).toBe(0);
    const refused = await tw(['run', 'calc', '--arg', 'expression=1']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/disabled/);
    expect((await tw(['enable', 'core/calc'])).code).toBe(0);
  }, 180_000);

  it('secrets set reads the value from stdin, never from argv, and ls masks it', async () => {
    const set = await tw(['secrets', 'set', 'API_TOKEN'], 's3cr3t-value\n');
    expect(set.code).toBe(0);
    const ls = await tw(['secrets', 'ls']);
    expect(ls.stdout).toContain('API_TOKEN');
    expect(ls.stdout).not.toContain('s3cr3t-value');
    const extra = await tw(['secrets', 'set', 'API_TOKEN', 's3cr3t-value']);
    expect(extra.code).toBe(2); // no value on the command line
  }, 90_000);

  it('export writes a ZIP that import reads back; doctor prints the MCP configuration', async () => {
    const file = join(dataDir, '..', `cli-export-${Date.now()}.zip`);
    const exported = await tw(['export', 'core', '-o', file]);
    expect(exported.code).toBe(0);
    expect((await stat(file)).size).toBeGreaterThan(100);
    expect((await readFile(file)).subarray(0, 2).toString('latin1')).toBe('PK');
    const imported = await tw(['--json', 'import', file, '--dry-run']);
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ dryRun: true });
    const doctor = await tw(['--json', 'doctor']);
    const report = JSON.parse(doctor.stdout);
    expect(report.mcpConfig.mcpServers.toolwright.args).toEqual([expect.stringMatching(/bin\/toolwright\.js$/), '--data-dir', report.system.dataDir, 'mcp']);
  }, 120_000);
});
