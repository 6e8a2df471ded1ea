import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ApprovalStore, type CallBinding } from '../../../../electron/core/agents/approvals.js';
import { argsDigest } from '../../../../electron/core/audit/record.js';
import type { AuditRecordBody } from '../../../../shared/audit.js';
import { tempDir } from '../../../helpers/store.js';

const tool = { bundleID: 'b', toolID: 't', bundleSlug: 'ops', slug: 'wipe', version: 'v1', displayName: 'Wipe' };
const call: CallBinding = { toolID: 't', version: 'v1', argsDigest: argsDigest({ count: 1 }), caller: 'mcp:alice' };

async function approved(ttlSeconds = 600) {
  let now = Date.parse('2026-11-25T10:00:00Z');
  const records: AuditRecordBody[] = [];
  const store = new ApprovalStore(join(await tempDir(), 'approvals'), {
    clock: () => new Date(now),
    ttlSeconds: () => ttlSeconds,
    audit: { append: async (r) => void records.push(r), ready: async () => undefined },
  });
  const approvalID = await store.open({ tool, args: { count: 1 }, argsDigest: call.argsDigest, caller: call.caller, timeoutMs: 120_000 });
  await store.decide(approvalID, 'approve', undefined, { transport: 'rest', name: 'rest' });
  return { store, approvalID, records, later: (ms: number) => (now += ms) };
}

describe('an approval runs the one call it was given for', () => {
  it('refuses other arguments, another caller, another version, and leaves the approval for its own call', async () => {
    const { store, approvalID } = await approved();
    await expect(store.settle(approvalID, undefined, { ...call, argsDigest: argsDigest({ count: 2 }) })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/another call \(other arguments\)/),
    });
    await expect(store.settle(approvalID, undefined, { ...call, caller: 'mcp:mallory' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/another caller \(mcp:alice\)/),
    });
    await expect(store.settle(approvalID, undefined, { ...call, version: 'v2' })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await store.settle(approvalID, undefined, call)).toBe('approve');
  });

  it('runs once: a second settle finds nothing', async () => {
    const { store, approvalID } = await approved();
    expect(await store.settle(approvalID, undefined, call)).toBe('approve');
    await expect(store.settle(approvalID, undefined, call)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a yes older than approvalTtlSeconds has expired and runs nothing', async () => {
    const { store, approvalID, later } = await approved(30);
    later(31_000);
    expect(await store.settle(approvalID, undefined, call)).toBe('expired');
  });

  it('each decision is an audit record: who, which call, its digest and caller', async () => {
    const { store, approvalID, records } = await approved();
    expect(records).toEqual([
      {
        kind: 'approval',
        approvalID,
        decision: 'approve',
        decidedBy: 'rest',
        toolID: 't',
        slug: 'wipe',
        version: 'v1',
        argsDigest: call.argsDigest,
        caller: 'mcp:alice',
      },
    ]);
    const second = await store.open({ tool, args: {}, argsDigest: argsDigest({}), caller: 'mcp:bob', timeoutMs: 120_000 });
    expect(await store.settle(second, 'deny', { ...call, argsDigest: argsDigest({}), caller: 'mcp:bob' })).toBe('deny');
    expect(records[1]).toMatchObject({ kind: 'approval', decision: 'deny', decidedBy: 'agent', caller: 'mcp:bob' });
    void approvalID;
  });
});
