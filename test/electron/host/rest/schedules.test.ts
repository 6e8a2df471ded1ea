/**
 * Schedules over REST on a real loopback host: saving them with a tool (400 for a bad cron or
 * zone), GET /tools/schedules in docs/contracts.md's item shape, switching one on and off, Run now and
 * the latest output, and refusals that say why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';

let h: TestHost;
let bundleID: string;
const CALC = {
  type: 'function',
  impl: { function: 'core.calc' },
  argSchema: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
};
const toolPath = (slug: string) => `/tools/bundles/${bundleID}/tools/${slug}/version/v1`;

beforeAll(async () => {
  h = await startHost();
  bundleID = uuidv7();
  expect((await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'jobs' })).status).toBe(201);
});
afterAll(() => h.close());

describe('schedules over REST', () => {
  it('a bad cron or zone is a 400 at save, naming the field', async () => {
    const res = await h.api('PUT', toolPath('bad'), { ...CALC, schedules: [{ cron: '0 25 * * *', timezone: 'Nowhere/City', args: { expression: '1' } }] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
    expect(res.body.error.details.issues.map((i: { field: string }) => i.field)).toEqual(['schedules[0].cron', 'schedules[0].timezone']);
    expect(res.body.error.message).toMatch(/hour/);
  });

  it('lists schedules with exactly the contract fields; PATCH switches one; Run now runs it and its output is the latest', async () => {
    const created = await h.api('PUT', toolPath('daily'), {
      ...CALC,
      schedules: [{ cron: '0 9 * * 1-5', timezone: 'Europe/Paris', args: { expression: '2*21' } }],
    });
    expect(created.status).toBe(201);
    const { scheduleID } = created.body.schedules[0];
    const toolID = created.body.toolID;

    const list = await h.api('GET', '/tools/schedules');
    expect(list.status).toBe(200);
    const item = list.body.items.find((i: { scheduleID: string }) => i.scheduleID === scheduleID);
    expect(Object.keys(item).sort()).toEqual(['bundleID', 'cron', 'isEnabled', 'lastRun', 'nextRunAt', 'scheduleID', 'timezone', 'toolID']);
    expect(item).toMatchObject({ toolID, bundleID, cron: '0 9 * * 1-5', timezone: 'Europe/Paris', isEnabled: true, lastRun: null });
    // 09:00 in Paris on a weekday: 07:00Z or 08:00Z.
    expect(item.nextRunAt).toMatch(/T0[78]:00:00\.000Z$/);
    expect([1, 2, 3, 4, 5]).toContain(new Date(item.nextRunAt).getUTCDay());
    expect((await h.api('GET', `/tools/schedules?toolID=${toolID}`)).body.items).toHaveLength(1);

    expect((await h.api('GET', `/tools/schedules/${scheduleID}/latest`)).status).toBe(404);

    const off = await h.api('PATCH', `/tools/schedules/${scheduleID}`, { isEnabled: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ scheduleID, isEnabled: false, nextRunAt: null });
    expect((await h.api('GET', toolPath('daily'))).body.schedules[0].isEnabled).toBe(false);
    expect((await h.api('PATCH', `/tools/schedules/${scheduleID}`, { isEnabled: true, cron: '* * * * *' })).status).toBe(400);

    const run = await h.api('POST', `/tools/schedules/${scheduleID}/run`, {});
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ ok: true, value: { value: 42 }, invocationID: expect.any(String) });
    const latest = await h.api('GET', `/tools/schedules/${scheduleID}/latest`);
    expect(latest.body).toMatchObject({ scheduleID, toolID, bundleID, invocationID: run.body.invocationID, fireAt: null, status: 'ok', value: { value: 42 } });
    const again = (await h.api('GET', '/tools/schedules')).body.items.find((i: { scheduleID: string }) => i.scheduleID === scheduleID);
    expect(again.lastRun).toEqual({ invocationID: run.body.invocationID, startedAt: expect.any(String), status: 'ok' });
    const history = await h.api('GET', `${toolPath('daily')}/history`);
    expect(history.body.items[0]).toMatchObject({ invocationID: run.body.invocationID, trigger: 'schedule', scheduleID, status: 'ok' });
  });

  it('Run now passes every gate: the kill switch answers 403 and the refusal is the last run', async () => {
    const created = await h.api('PUT', toolPath('gated'), { ...CALC, schedules: [{ cron: '0 9 * * *', args: { expression: '1' } }] });
    const { scheduleID } = created.body.schedules[0];
    await h.api('PATCH', '/tools/config', { toolsEnabled: false });
    try {
      const run = await h.api('POST', `/tools/schedules/${scheduleID}/run`, {});
      expect(run.status).toBe(403);
      expect(run.body.error.code).toBe('TOOLS_DISABLED');
      const item = (await h.api('GET', '/tools/schedules')).body.items.find((i: { scheduleID: string }) => i.scheduleID === scheduleID);
      expect(item.lastRun.status).toBe('refused');
    } finally {
      await h.api('PATCH', '/tools/config', { toolsEnabled: true });
    }
  });

  it('a privileged tool: switching its schedule on needs the approval (400 saying how); Run now needs confirm', async () => {
    const created = await h.api('PUT', toolPath('wipe'), {
      ...CALC,
      safety: 'privileged',
      schedules: [{ cron: '0 3 * * *', args: { expression: '1' }, isEnabled: false }],
    });
    expect(created.status).toBe(201);
    const { scheduleID } = created.body.schedules[0];
    const on = await h.api('PATCH', `/tools/schedules/${scheduleID}`, { isEnabled: true });
    expect(on.status).toBe(400);
    expect(on.body.error.details.issues[0]).toEqual({ field: 'schedules[0].approval', message: expect.stringMatching(/privileged.*"approval": \{\}/) });
    const refused = await h.api('POST', `/tools/schedules/${scheduleID}/run`, {});
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('CONFIRMATION_REQUIRED');
    const confirmed = await h.api('POST', `/tools/schedules/${scheduleID}/run`, { confirm: true });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.ok).toBe(true);
  });

  it('unknown schedules are 404, malformed IDs 400', async () => {
    expect((await h.api('GET', `/tools/schedules/${uuidv7()}/latest`)).status).toBe(404);
    expect((await h.api('PATCH', `/tools/schedules/${uuidv7()}`, { isEnabled: false })).status).toBe(404);
    expect((await h.api('POST', `/tools/schedules/${uuidv7()}/run`, {})).status).toBe(404);
    expect((await h.api('POST', '/tools/schedules/not-an-id/run', {})).status).toBe(400);
  });
});
