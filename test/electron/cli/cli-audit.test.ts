/** `toolwright audit verify|export` in real processes, and GET /tools/audit's filters over REST. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startHost, type TestHost } from '../../helpers/host.js';
import { runToolwright } from '../../helpers/procs.js';
import type { AuditRecord } from '../../../shared/audit.js';

const CORE = '0190a000-0000-7000-8000-00000000c0e0';
const CALC = `/tools/bundles/${CORE}/tools/calc/version/v1`;

let h: TestHost;

const tw = (args: string[]) => runToolwright(h.dataDir, args);

beforeAll(async () => {
  h = await startHost();
});
afterAll(async () => {
  await h?.close();
});

describe('the audit log through the CLI and REST', () => {
  it('records calls of REST and the CLI, filters them over REST, verifies (exit 0) and exports JSON Lines', async () => {
    expect((await h.api('POST', `${CALC}/invoke`, { args: { expression: '6*7' } })).status).toBe(200);
    const run = await tw(['run', 'core/calc', '--args', '{"expression":"1+1"}']);
    expect(run.code, run.stderr).toBe(0);

    const calls = (await h.api('GET', '/tools/audit?kind=call&tool=calc')).body.items as AuditRecord[];
    expect(calls.map((r) => r.kind === 'call' && r.transport)).toEqual(['cli', 'rest']);
    const cliOnly = (await h.api('GET', '/tools/audit?kind=call&caller=cli')).body.items as AuditRecord[];
    expect(cliOnly).toHaveLength(1);
    const future = (await h.api('GET', `/tools/audit?since=${encodeURIComponent('2100-01-01T00:00:00Z')}`)).body.items;
    expect(future).toEqual([]);
    const bad = await h.api('GET', '/tools/audit?kind=calls');
    expect(bad.status).toBe(400);
    const paged = await h.api('GET', '/tools/audit?kind=call&pageSize=1');
    expect(paged.body.nextPageToken).toEqual(expect.any(String));

    const verified = await tw(['audit', 'verify']);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/^\d+ records? in 1 file, chain intact, from \S+ to \S+; head [0-9a-f]{64}\n$/);
    const rest = await h.api('GET', '/tools/audit/verify');
    expect(rest.body).toMatchObject({ ok: true, files: 1 });

    const exported = await tw(['audit', 'export', '--since', '1h', '--kind', 'call']);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = exported.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditRecord);
    expect(lines.map((r) => r.kind === 'call' && r.transport)).toEqual(['rest', 'cli']);
    const badSince = await tw(['audit', 'export', '--since', 'yesterday']);
    expect(badSince.code).toBe(2);
    expect(badSince.stderr).toMatch(/neither an ISO time .* nor a duration/);
  }, 60_000);

  it('exits 1 and names the file and line of an edited record', async () => {
    await h.core.audit.flush();
    const file = join(h.dataDir, 'audit', 'audit-000001.jsonl');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"status":"ok"', '"status":"error"'));
    const verified = await tw(['audit', 'verify']);
    expect(verified.code).toBe(1);
    expect(verified.stdout).toMatch(/^audit log broken: audit-000001\.jsonl line \d+: the record's hash does not match its content — it was edited\n$/);
  }, 60_000);
});
