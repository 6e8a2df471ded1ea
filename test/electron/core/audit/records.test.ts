/** What the audit log records of a real core: calls, changes, and never a secret, an argument or a result. */
import { afterAll, describe, expect, it } from 'vitest';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { createCore } from '../../../../electron/core/app-core.js';
import { argsDigest } from '../../../../electron/core/audit/record.js';
import { verifyAudit } from '../../../../electron/core/audit/verify.js';
import type { AuditRecord } from '../../../../shared/audit.js';
import { httpTool, tempDir } from '../../../helpers/store.js';
import { sendJson, startLoopbackServer } from '../../../helpers/loopback-http.js';
import { CLI_CALLER } from '../../../../shared/caller.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

const SECRET_VALUE = 'sk-live-9f8e7d6c5b4a39281706f5e4d3c2b1a0';

describe('audit records of a running core', () => {
  it('records the call (digest only) and every change, and no secret value reaches any audit file', async () => {
    const dataDir = await tempDir('tw-audit-core-');
    const server = await startLoopbackServer();
    cleanups.push(
      () => server.close(),
      () => rm(dataDir, { recursive: true, force: true }),
    );
    server.route('/echo', (req, res) => sendJson(res, 200, { key: req.headers['x-key'], city: 'Paris-the-result' }));
    const core = await createCore({ dataDir, docker: false, actor: 'cli' });
    await core.config.patch({ allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true });
    await core.secrets.set('API_KEY', SECRET_VALUE);
    const bundleID = uuidv7();
    await core.bundles.put(bundleID, { slug: 'weather' });
    const tool = await core.tools.create(
      { bundleID, slug: 'echo', version: 'v1' },
      httpTool(server.url('/echo'), { impl: { method: 'GET', urlTemplate: server.url('/echo'), headers: { 'X-Key': '${API_KEY}' } } }),
    );
    const result = await core.invocations.invoke(
      { bundleID, slug: 'echo', version: 'v1' },
      { args: { city: 'Reykjavik-the-argument' }, caller: { transport: 'mcp', name: 'claude' } },
    );
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(server.requests[0]!.headers['x-key']).toBe(SECRET_VALUE);
    await core.tools.setEnabled({ bundleID, slug: 'echo', version: 'v1' }, false);
    await expect(core.invocations.invoke({ bundleID, slug: 'echo', version: 'v1' }, { args: { city: 'Oslo' }, caller: CLI_CALLER })).rejects.toMatchObject({
      code: 'TOOL_DISABLED',
    });
    await core.tools.delete({ bundleID, slug: 'echo', version: 'v1' });
    await core.close();

    const dir = join(dataDir, 'audit');
    let everything = '';
    for (const name of await readdir(dir)) everything += await readFile(join(dir, name), 'utf8').catch(() => '');
    expect(everything).not.toContain(SECRET_VALUE);
    expect(everything).not.toContain('Reykjavik-the-argument');
    expect(everything).not.toContain('Paris-the-result');

    const records = everything
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditRecord);
    const call = records.find((r) => r.kind === 'call');
    expect(call).toMatchObject({
      kind: 'call',
      toolID: tool.toolID,
      slug: 'echo',
      version: 'v1',
      bundleID,
      caller: 'mcp:claude',
      transport: 'mcp',
      argsDigest: argsDigest({ city: 'Reykjavik-the-argument' }),
      status: 'ok',
      pid: process.pid,
    });
    const changes = records.flatMap((r) => (r.kind === 'change' ? [`${r.op} ${r.path} ${r.actor}`] : []));
    expect(changes).toEqual([
      'create config.json cli',
      'create secrets.json cli',
      `create bundles/${bundleID}/bundle.json cli`,
      `create bundles/${bundleID}/tools/${tool.toolID}/tool.json cli`,
      `update bundles/${bundleID}/tools/${tool.toolID}/tool.json cli`,
      `delete bundles/${bundleID}/tools/${tool.toolID}/tool.json cli`,
    ]);
    const refused = records.filter((r) => r.kind === 'call' && r.status === 'error');
    expect(refused).toMatchObject([{ caller: 'cli', transport: 'cli', errorCode: 'TOOL_DISABLED', argsDigest: argsDigest({ city: 'Oslo' }) }]);
    const secretsChange = records.find((r) => r.kind === 'change' && r.path === 'secrets.json');
    expect(secretsChange).toMatchObject({ after: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((await verifyAudit(dir)).ok).toBe(true);
  });
});
