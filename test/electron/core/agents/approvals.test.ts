import { describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ApprovalStore } from '../../../../electron/core/agents/approvals.js';
import { tempDir } from '../../../helpers/store.js';

const tool = { bundleID: 'b', toolID: 't', bundleSlug: 'ops', slug: 'wipe', version: 'v1', displayName: 'Wipe' };

async function pending(store: ApprovalStore) {
  for (let i = 0; i < 100; i++) {
    const items = await store.list();
    if (items.length) return items;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('nothing pending');
}

describe('approvals (files any process can ask and answer)', () => {
  it('a request waits for one answer; a second answer, from anyone, is a conflict', async () => {
    const dir = join(await tempDir(), 'approvals');
    const asker = new ApprovalStore(dir);
    const windowA = new ApprovalStore(dir);
    const windowB = new ApprovalStore(dir);
    const asked = asker.ask({ tool, args: { all: true }, argsDigest: 'd', caller: 'mcp:agent', timeoutMs: 10_000 });
    const [item] = await pending(windowA);
    expect(item).toMatchObject({ tool, args: { all: true }, caller: 'mcp:agent' });
    expect(Date.parse(item!.expiresAt) - Date.parse(item!.createdAt)).toBe(10_000);
    const answers = await Promise.allSettled([windowA.decide(item!.approvalID, 'approve'), windowB.decide(item!.approvalID, 'deny')]);
    const won = answers.filter((a) => a.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const lost = answers.find((a) => a.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason.code).toMatch(/CONFLICT|NOT_FOUND/);
    const decided = (won[0] as PromiseFulfilledResult<{ decision: string }>).value.decision;
    expect((await asked).outcome).toBe(decided);
    expect((await readdir(dir)).filter((n) => n.endsWith('.json'))).toEqual([]);
    await expect(windowA.decide(item!.approvalID, 'approve')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('expires as deny, reports progress while it waits, and can be cancelled', async () => {
    const dir = join(await tempDir(), 'approvals');
    const store = new ApprovalStore(dir);
    const waits: number[] = [];
    const expired = await store.ask({ tool, args: {}, argsDigest: 'd', caller: 'cli', timeoutMs: 1200, onWait: (left) => waits.push(left) });
    expect(expired.outcome).toBe('expired');
    expect(waits.length).toBeGreaterThanOrEqual(1);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect((await store.ask({ tool, args: {}, argsDigest: 'd', caller: 'cli', timeoutMs: 10_000, signal: controller.signal })).outcome).toBe('cancelled');
    await expect(store.decide('../../etc/passwd', 'approve')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
