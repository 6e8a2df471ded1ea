/**
 * No answer without its audit record, on every transport of one host (REST, REST streamed, MCP's
 * plain 2026 path and the SDK's, a 2025 session, IPC's dispatch; a change; an approval): the
 * record is on disk when the answer arrives. And a log that cannot be written refuses calls,
 * changes and approvals with AUDIT_UNAVAILABLE naming the cause, runs nothing unrecorded, and
 * works again once the folder does; `when-possible` lets work go on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmod, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { argsDigest } from '../../../../electron/core/audit/record.js';
import { verifyAudit } from '../../../../electron/core/audit/verify.js';
import { auditRecordsSetting } from '../../../../electron/core/audit/durability.js';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { httpTool } from '../../../helpers/store.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-http.js';
import { auditRecordsNow, CORE_BUNDLE, mcpCalc, restCalc, restCall } from '../../../helpers/serve-process.js';
import { APP_CALLER } from '../../../../shared/caller.js';

const onDisk = (h: TestHost, args: unknown) => auditRecordsNow(h.dataDir).some((r) => r.kind === 'call' && r.argsDigest === argsDigest(args));

describe('every transport answers a call only once its record is on disk', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startHost();
    await h.core.config.patch({ limits: { maxCallsPerMinute: 100000, maxOutputBytes: 16384 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('REST, REST streamed, MCP plain 2026, MCP through the SDK, a 2025 session and IPC', async () => {
    const seen: Record<string, boolean> = {};
    expect((await restCalc(h, '1 + 1')).status).toBe(200);
    seen['REST'] = onDisk(h, { expression: '1 + 1' });

    const streamed = await fetch(`${h.url}/tools/bundles/${CORE_BUNDLE}/tools/calc/version/v1/invoke?stream=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ args: { expression: '1 + 2' } }),
    });
    expect(await streamed.text()).toContain('event: result');
    seen['REST streamed'] = onDisk(h, { expression: '1 + 2' });

    expect((await mcpCalc(h, '1 + 3')).result?.isError).not.toBe(true);
    seen['MCP 2026 plain'] = onDisk(h, { expression: '1 + 3' });
    expect((await mcpCalc(h, '1 + 4', { viaSdk: true })).result?.isError).not.toBe(true);
    seen['MCP 2026 SDK'] = onDisk(h, { expression: '1 + 4' });

    const client = new Client({ name: 'durable-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.token}` } } }));
    const legacy = (await client.callTool({ name: 'calc', arguments: { expression: '1 + 5' } })) as CallToolResult;
    expect(legacy.isError).not.toBe(true);
    seen['MCP 2025 session'] = onDisk(h, { expression: '1 + 5' });
    await client.close();

    const ipc = await h.core.dispatch(
      'tools.invoke',
      { bundleID: CORE_BUNDLE, slug: 'calc', version: 'v1', args: { expression: '1 + 6' } },
      { caller: APP_CALLER },
    );
    expect(ipc.ok).toBe(true);
    seen['IPC'] = onDisk(h, { expression: '1 + 6' });

    expect(seen).toEqual({ REST: true, 'REST streamed': true, 'MCP 2026 plain': true, 'MCP 2026 SDK': true, 'MCP 2025 session': true, IPC: true });
  });

  it('a change and an approval', async () => {
    const bundleID = uuidv7();
    expect((await restCall(h, 'PUT', `/tools/bundles/${bundleID}`, { slug: 'answered-after-record' })).status).toBe(201);
    expect(auditRecordsNow(h.dataDir).some((r) => r.kind === 'change' && r.path === `bundles/${bundleID}/bundle.json`)).toBe(true);

    const approvalID = await h.core.approvals.open({
      tool: { toolID: uuidv7(), bundleID, bundleSlug: 'answered-after-record', slug: 'wipe', version: 'v1', displayName: 'Wipe' },
      args: {},
      argsDigest: argsDigest({}),
      caller: 'mcp:durable-test',
      timeoutMs: 60_000,
    });
    expect((await restCall(h, 'POST', `/tools/approvals/${approvalID}`, { decision: 'deny' })).status).toBe(200);
    expect(auditRecordsNow(h.dataDir).some((r) => r.kind === 'approval' && r.approvalID === approvalID)).toBe(true);
  });
});

/**
 * Makes `<data>/audit` refuse writes the way a real folder does: permissions for a user, a
 * read-only file system for root (whom permissions do not stop), or where mounting is not allowed
 * a file in the folder's place.
 */
async function breakAuditFolder(h: TestHost): Promise<{ cause: RegExp; restore(): Promise<void> }> {
  // A write under way (config.patch's record is not waited for outside an operation) would leave its lock behind the mount.
  await h.core.audit.flush();
  const dir = join(h.dataDir, 'audit');
  if (process.getuid?.() !== 0) {
    await chmod(dir, 0o555);
    return { cause: /permission denied \(EACCES\)/, restore: () => chmod(dir, 0o755) };
  }
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    return { cause: /the file system is read-only \(EROFS\)/, restore: async () => void execFileSync('umount', [dir]) };
  } catch {
    const aside = `${dir}.aside`;
    await rename(dir, aside);
    await writeFile(dir, 'not a folder');
    return {
      cause: /a file stands where its folder should be \(ENOTDIR\)/,
      restore: async () => {
        await rm(dir);
        await rename(aside, dir);
      },
    };
  }
}

describe('a log that cannot be written', () => {
  let h: TestHost;
  let server: LoopbackServer;
  let bundleID: string;
  const invoke = (city: string) => restCall(h, 'POST', `/tools/bundles/${bundleID}/tools/side-effect/version/v1/invoke`, { args: { city } });

  beforeAll(async () => {
    server = await startLoopbackServer();
    server.route('/hit', (_req, res) => sendJson(res, 200, { ok: true }));
    h = await startHost();
    await h.core.config.patch({ allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true, limits: { maxCallsPerMinute: 100000, maxOutputBytes: 16384 } });
    bundleID = uuidv7();
    await h.core.bundles.put(bundleID, { slug: 'audited' });
    await h.core.tools.create({ bundleID, slug: 'side-effect', version: 'v1' }, httpTool(server.url('/hit')));
  });
  afterAll(async () => {
    await h?.close();
    await server?.close();
  });

  it('refuses calls, changes and approvals with the cause (REST, MCP, IPC), runs nothing unrecorded, and works again once it can write', async () => {
    expect((await invoke('before')).status).toBe(200);
    const broken = await breakAuditFolder(h);
    let restored = false;
    try {
      // The call in flight when the log fails has run: its answer is withheld, its record kept.
      const inFlight = await invoke('in-flight');
      expect(inFlight.status).toBe(503);
      expect(inFlight.body.error.code).toBe('AUDIT_UNAVAILABLE');
      expect(inFlight.body.error.message).toMatch(/^tool side-effect v1 ran, but its audit record could not be written, so its answer is withheld: /);
      const hits = server.requests.length;

      const refused = await invoke('refused');
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('AUDIT_UNAVAILABLE');
      expect(refused.body.error.message).toMatch(broken.cause);
      expect(refused.body.error.message).toMatch(
        /the audit log \(<data>\/audit\) cannot be written: .* Calls, changes and approvals are refused until it can be written again/,
      );

      const mcp = await mcpCalc(h, '2 + 2');
      expect(mcp.result?.isError).toBe(true);
      expect(JSON.stringify(mcp.result?.content)).toMatch(broken.cause);

      const ipc = await h.core.dispatch(
        'tools.invoke',
        { bundleID: CORE_BUNDLE, slug: 'calc', version: 'v1', args: { expression: '2 + 3' } },
        { caller: APP_CALLER },
      );
      expect(ipc.ok ? 'ran' : ipc.error.code).toBe('AUDIT_UNAVAILABLE');

      const other = uuidv7();
      const put = await restCall(h, 'PUT', `/tools/bundles/${other}`, { slug: 'not-while-unrecorded' });
      expect(put.status).toBe(503);
      expect(put.body.error.message).toMatch(broken.cause);
      expect((await restCall(h, 'GET', `/tools/bundles/${other}`)).status).toBe(404);
      const patched = await restCall(h, 'PATCH', '/tools/config', { toolsEnabled: false });
      expect(patched.body.error?.code).toBe('AUDIT_UNAVAILABLE');
      expect(h.core.config.get().toolsEnabled).toBe(true);

      const approvalID = await h.core.approvals.open({
        tool: { toolID: uuidv7(), bundleID, bundleSlug: 'audited', slug: 'side-effect', version: 'v1', displayName: 'Side effect' },
        args: {},
        argsDigest: argsDigest({}),
        caller: 'mcp:durable-test',
        timeoutMs: 60_000,
      });
      const decided = await restCall(h, 'POST', `/tools/approvals/${approvalID}`, { decision: 'approve' });
      expect(decided.body.error?.code).toBe('AUDIT_UNAVAILABLE');
      expect(await h.core.approvals.state(approvalID)).toBe('pending');

      // Reading goes on: the app can still show what is wrong.
      expect((await restCall(h, 'GET', '/tools/bundles')).status).toBe(200);
      expect(server.requests.length).toBe(hits);

      await broken.restore();
      restored = true;
      // A refused caller tries the log again (at most once a second): work resumes by itself.
      await expect.poll(async () => (await invoke('after')).status, { timeout: 10_000, interval: 300 }).toBe(200);
      const records = auditRecordsNow(h.dataDir);
      for (const city of ['before', 'in-flight', 'after'])
        expect(
          records.some((r) => r.kind === 'call' && r.argsDigest === argsDigest({ city })),
          city,
        ).toBe(true);
      const verified = await verifyAudit(join(h.dataDir, 'audit'));
      expect(verified.ok, verified.summary).toBe(true);
    } finally {
      if (!restored) await broken.restore();
    }
  });

  it('"when-possible" (config auditRecords) runs calls while the log cannot be written, and writes their records once it can', async () => {
    await h.core.config.patch({ auditRecords: 'when-possible' });
    const broken = await breakAuditFolder(h);
    let restored = false;
    try {
      for (const city of ['unrecorded-1', 'unrecorded-2']) expect((await invoke(city)).status).toBe(200);
      await broken.restore();
      restored = true;
      await h.core.audit.flush();
      const records = auditRecordsNow(h.dataDir);
      for (const city of ['unrecorded-1', 'unrecorded-2'])
        expect(
          records.some((r) => r.kind === 'call' && r.argsDigest === argsDigest({ city })),
          city,
        ).toBe(true);
    } finally {
      if (!restored) await broken.restore();
      await h.core.config.patch({ auditRecords: 'required' });
    }
  });
});

describe('the auditRecords setting', () => {
  it('TOOLWRIGHT_AUDIT_RECORDS wins over config, and a wrong value is refused at start', () => {
    expect(auditRecordsSetting(() => undefined, {})()).toBe('required');
    expect(auditRecordsSetting(() => 'when-possible', {})()).toBe('when-possible');
    expect(auditRecordsSetting(() => 'when-possible', { TOOLWRIGHT_AUDIT_RECORDS: 'required' })()).toBe('required');
    expect(() => auditRecordsSetting(() => undefined, { TOOLWRIGHT_AUDIT_RECORDS: 'sometimes' })).toThrow(/set it to required or when-possible/);
  });
});
