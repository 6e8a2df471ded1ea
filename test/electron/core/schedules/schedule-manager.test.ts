/**
 * Managing schedules through the operations (issue 35 point 6), over REST on a real host: create,
 * search with filters and paging, edit in part, delete, the kept runs and a run's output read in
 * chunks; hostile input refused with the field named and nothing written. What an agent sees of
 * them over MCP is test/electron/host/mcp/schedule-tools.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { RunLog } from '../../../../electron/core/schedules/run-log.js';
import { KEPT_OUTPUT_CHARS, KEPT_RUNS_PER_SCHEDULE } from '../../../../shared/schedules/manage.js';
import { SCHEDULE_FUNCTIONS } from '../../../../electron/core/functions/schedules.js';
import type { FunctionContext } from '../../../../electron/core/functions/types.js';
import { pipelineCaller, SCHEDULE_CALLER } from '../../../../shared/caller.js';

let h: TestHost;
let bundleID: string;

const toolFile = async (slug: string) => (await h.api('GET', `/tools/bundles/${bundleID}/tools/${slug}/version/v1`)).body;
const create = (body: Record<string, unknown>) => h.api('POST', '/tools/schedules', body);
const future = () => new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString();

beforeAll(async () => {
  h = await startHost();
  bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'ops', displayName: 'Ops' });
  const fn = (displayName: string, extra: Record<string, unknown> = {}) => ({
    type: 'function',
    displayName,
    impl: { function: 'core.uuid' },
    argSchema: { type: 'object', properties: { count: { type: 'integer', minimum: 1, maximum: 100 } }, additionalProperties: false },
    ...extra,
  });
  expect((await h.api('PUT', `/tools/bundles/${bundleID}/tools/ids/version/v1`, fn('Make IDs'))).status).toBe(201);
  expect((await h.api('PUT', `/tools/bundles/${bundleID}/tools/wipe/version/v1`, fn('Wipe', { safety: 'privileged' }))).status).toBe(201);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('schedules.create over REST', () => {
  it('creates a schedule in its tool.json, owned by the caller, and answers it whole', async () => {
    const r = await create({ tool: 'ops/ids@v1', name: 'morning ids', cron: '0 9 * * 1-5', timezone: 'Europe/Lisbon', args: { count: 2 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      name: 'morning ids',
      tool: 'ops/ids@v1',
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Lisbon',
      cadence: 'cron',
      state: 'active',
      isEnabled: true,
      args: { count: 2 },
      createdBy: 'rest',
    });
    expect(r.body.nextRunAt).toBeTruthy();
    const stored = (await toolFile('ids')).schedules.find((s: { scheduleID: string }) => s.scheduleID === r.body.scheduleID);
    expect(stored).toEqual({
      scheduleID: r.body.scheduleID,
      name: 'morning ids',
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Lisbon',
      args: { count: 2 },
      isEnabled: true,
    });
    const owners = JSON.parse(await readFile(join(h.dataDir, 'scheduler', 'owners.json'), 'utf8'));
    expect(owners[r.body.scheduleID]).toMatchObject({ principal: 'owner', caller: 'rest' });
    // The list of every schedule shows its name too.
    expect(
      (await h.api('GET', `/tools/schedules?toolID=${r.body.toolID}`)).body.items.find((s: { scheduleID: string }) => s.scheduleID === r.body.scheduleID),
    ).toMatchObject({
      name: 'morning ids',
    });
  });

  it.each([
    ['a cron that cannot be read', { cron: '61 * * * *' }, 'cron'],
    ['a one-off in the past', { at: '2020-01-01T09:00:00Z' }, 'at'],
    ['a one-off without an offset', { at: '2030-01-01T09:00:00' }, 'at'],
    ['an interval under the minimum', { everySeconds: 5 }, 'everySeconds'],
    ['no cadence', {}, 'schedule'],
    ['two cadences', { cron: '* * * * *', everySeconds: 3600 }, 'schedule'],
    ['a zone that does not exist', { cron: '0 9 * * *', timezone: 'Mars/Olympus' }, 'timezone'],
    ['arguments its tool refuses', { everySeconds: 3600, args: { count: 1000 } }, 'args.count'],
  ])('refuses %s, naming the field, and writes nothing', async (_what, body, field) => {
    const before = await toolFile('ids');
    const r = await create({ tool: 'ops/ids@v1', ...body });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.error.code).toBe('INVALID_INPUT');
    expect(r.body.error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
    const after = await toolFile('ids');
    expect(after.schedules).toEqual(before.schedules);
  });

  it('refuses an unattended privileged schedule unless it is created paused, saying a person approves it', async () => {
    const r = await create({ tool: 'ops/wipe@v1', everySeconds: 3600 });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/privileged.*person approves/);
    const paused = await create({ tool: 'ops/wipe@v1', everySeconds: 3600, isEnabled: false });
    expect(paused.status).toBe(201);
    expect(paused.body).toMatchObject({ state: 'paused', tool: 'ops/wipe@v1' });
  });

  it('answers a tool that does not exist as 404, and a malformed body as 400', async () => {
    expect((await create({ tool: 'ops/nothing@v1', cron: '* * * * *' })).status).toBe(404);
    expect((await create({ tool: 'ops/ids@v1', cron: '* * * * *', owner: 'someone' })).status).toBe(400);
    expect((await create({ cron: '* * * * *' })).status).toBe(400);
  });
});

describe('schedules.search over REST', () => {
  let ids: string[];
  beforeAll(async () => {
    ids = [];
    for (const body of [
      { name: 'search alpha', cron: '30 6 * * *' },
      { name: 'search beta', at: future() },
      { name: 'search gamma', everySeconds: 7200, isEnabled: false },
      { name: 'search delta', everySeconds: 3600 },
    ]) {
      const r = await create({ tool: 'ops/ids@v1', ...body });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      ids.push(r.body.scheduleID);
    }
  });

  const search = async (query: string) => {
    const r = await h.api('GET', `/tools/schedules/search?${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as { items: { scheduleID: string; name?: string }[]; total: number; remaining: number; limit: number; offset: number };
  };

  it('filters by text, tool, state and cadence kind', async () => {
    expect((await search('text=SEARCH')).items.map((s) => s.name)).toEqual(['search delta', 'search gamma', 'search beta', 'search alpha']);
    expect((await search('text=search&cadence=interval')).items.map((s) => s.name)).toEqual(['search delta', 'search gamma']);
    expect((await search('text=search&state=paused')).items.map((s) => s.name)).toEqual(['search gamma']);
    expect((await search('text=search&cadence=once&state=active')).items.map((s) => s.name)).toEqual(['search beta']);
    expect((await search('tool=ops/wipe@v1')).items.every((s) => !s.name?.startsWith('search'))).toBe(true);
    expect((await search('text=no-such-words')).items).toEqual([]);
  });

  it('pages with limit (default 20, at most 50) and offset, saying what remains', async () => {
    const first = await search('text=search&limit=3');
    expect(first).toMatchObject({ total: 4, remaining: 1, limit: 3, offset: 0 });
    const second = await search('text=search&limit=3&offset=3');
    expect(second).toMatchObject({ total: 4, remaining: 0, offset: 3 });
    expect([...first.items, ...second.items].map((s) => s.scheduleID)).toEqual([...ids].reverse());
    expect((await search('')).limit).toBe(20);
    expect((await search('offset=1000')).items).toEqual([]);
  });

  it.each([
    ['limit=10000', 'limit'],
    ['limit=0', 'limit'],
    ['offset=-1', 'offset'],
    ['state=sleeping', 'state'],
    ['cadence=weekly', 'cadence'],
  ])('refuses %s', async (query, field) => {
    const r = await h.api('GET', `/tools/schedules/search?${query}`);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.error)).toContain(field);
  });
});

describe('schedules.edit and schedules.delete over REST', () => {
  it('patches in part: pause and resume, cadence, arguments, name; the rest stays', async () => {
    const made = (await create({ tool: 'ops/ids@v1', name: 'edit me', cron: '0 8 * * *', args: { count: 1 } })).body;
    const edit = (patch: Record<string, unknown>) => h.api('POST', `/tools/schedules/${made.scheduleID}/edit`, patch);
    expect((await edit({ isEnabled: false })).body).toMatchObject({ state: 'paused', cron: '0 8 * * *', name: 'edit me', args: { count: 1 } });
    expect((await edit({ isEnabled: true })).body).toMatchObject({ state: 'active', nextRunAt: expect.any(String) });
    const interval = (await edit({ everySeconds: 900 })).body;
    expect(interval).toMatchObject({ cadence: 'interval', everySeconds: 900, cron: null, cadenceText: 'every 15 minutes', name: 'edit me' });
    expect((await edit({ args: { count: 3 }, name: 'renamed' })).body).toMatchObject({ args: { count: 3 }, name: 'renamed', everySeconds: 900 });
    expect((await edit({ name: null })).body.name).toBeUndefined();
    const stored = (await toolFile('ids')).schedules.find((s: { scheduleID: string }) => s.scheduleID === made.scheduleID);
    expect(stored).toEqual({ scheduleID: made.scheduleID, everySeconds: 900, args: { count: 3 }, isEnabled: true });
  });

  it('checks an edit as a creation, and refuses an empty patch', async () => {
    const made = (await create({ tool: 'ops/ids@v1', cron: '0 8 * * *' })).body;
    const edit = (patch: Record<string, unknown>) => h.api('POST', `/tools/schedules/${made.scheduleID}/edit`, patch);
    for (const [patch, field] of [
      [{ at: '2020-01-01T00:00:00Z' }, 'at'],
      [{ cron: 'every day' }, 'cron'],
      [{ args: { count: 'many' } }, 'args.count'],
      [{ cron: '* * * * *', at: future() }, 'patch.cron'],
    ] as const) {
      const r = await edit(patch);
      expect(r.status, JSON.stringify(patch)).toBe(400);
      expect(r.body.error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
    }
    expect((await edit({})).status).toBe(400);
    expect((await h.api('POST', `/tools/schedules/${uuidv7()}/edit`, { isEnabled: false })).status).toBe(404);
  });

  it('deletes a schedule from its tool.json with its kept runs; it is unknown afterwards', async () => {
    const made = (await create({ tool: 'ops/ids@v1', everySeconds: 3600, args: { count: 1 } })).body;
    expect((await h.api('POST', `/tools/schedules/${made.scheduleID}/run`, {})).status).toBe(200);
    expect((await h.api('GET', `/tools/schedules/${made.scheduleID}/runs`)).body.total).toBe(1);
    const r = await h.api('DELETE', `/tools/schedules/${made.scheduleID}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ deleted: true, scheduleID: made.scheduleID });
    expect((await toolFile('ids')).schedules.some((s: { scheduleID: string }) => s.scheduleID === made.scheduleID)).toBe(false);
    expect((await h.api('DELETE', `/tools/schedules/${made.scheduleID}`)).status).toBe(404);
    expect((await h.api('GET', `/tools/schedules/${made.scheduleID}/runs`)).status).toBe(404);
    const owners = JSON.parse(await readFile(join(h.dataDir, 'scheduler', 'owners.json'), 'utf8'));
    expect(owners[made.scheduleID]).toBeUndefined();
  });
});

describe('schedules.runs and schedules.runOutput over REST', () => {
  it("keeps each run's output and reads it in chunks: offset, maxChars 200–8,000 (default 4,000), what remains", async () => {
    const made = (await create({ tool: 'ops/ids@v1', everySeconds: 3600, args: { count: 100 } })).body;
    const runs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await h.api('POST', `/tools/schedules/${made.scheduleID}/run`, {});
      expect(r.body.ok, JSON.stringify(r.body)).toBe(true);
      runs.push(r.body.invocationID);
    }
    const page = (await h.api('GET', `/tools/schedules/${made.scheduleID}/runs?limit=2`)).body;
    expect(page).toMatchObject({ total: 3, remaining: 1, limit: 2, offset: 0 });
    expect(page.items.map((r: { invocationID: string }) => r.invocationID)).toEqual([runs[2], runs[1]]);
    expect(page.items[0]).toMatchObject({ status: 'ok', fireAt: null, outputChars: expect.any(Number) });
    const rest = (await h.api('GET', `/tools/schedules/${made.scheduleID}/runs?limit=2&offset=2`)).body;
    expect(rest.items.map((r: { invocationID: string }) => r.invocationID)).toEqual([runs[0]]);

    // The first run's output, read whole in chunks, is the value it gave (each run gave other UUIDs).
    const url = (q: string) => `/tools/schedules/${made.scheduleID}/runs/${runs[0]}/output${q}`;
    const first = (await h.api('GET', url(''))).body;
    expect(first.text.length).toBe(4000);
    expect(first.totalChars).toBeGreaterThan(4000);
    let text = '';
    for (let offset: number | null = 0; offset !== null;) {
      const chunk: { text: string; remaining: number; totalChars: number; nextOffset: number | null } = (
        await h.api('GET', url(`?offset=${offset}&maxChars=200`))
      ).body;
      expect(chunk.text.length).toBeLessThanOrEqual(200);
      expect(chunk.remaining).toBe(chunk.totalChars - offset - chunk.text.length);
      text += chunk.text;
      offset = chunk.nextOffset;
    }
    const value = JSON.parse(text) as { uuids: string[] };
    expect(value.uuids).toHaveLength(100);
    const latest = (await h.api('GET', `/tools/schedules/${made.scheduleID}/latest`)).body;
    expect(latest.invocationID).toBe(runs[2]);
    expect(value.uuids).not.toEqual(latest.value.uuids);

    for (const [q, field] of [
      ['?maxChars=199', 'maxChars'],
      ['?maxChars=8001', 'maxChars'],
      ['?offset=-5', 'offset'],
      [`?offset=${first.totalChars + 1}`, 'offset'],
    ] as const) {
      const r = await h.api('GET', url(q));
      expect(r.status, q).toBe(400);
      expect(JSON.stringify(r.body.error)).toContain(field);
    }
    expect((await h.api('GET', `/tools/schedules/${made.scheduleID}/runs/${uuidv7()}/output`)).status).toBe(404);
  });

  it('keeps a refused run too, with why', async () => {
    const made = (await create({ tool: 'ops/wipe@v1', everySeconds: 3600, isEnabled: false })).body;
    const refused = await h.api('POST', `/tools/schedules/${made.scheduleID}/run`, {});
    expect(refused.body.error.code).toBe('CONFIRMATION_REQUIRED');
    const runs = (await h.api('GET', `/tools/schedules/${made.scheduleID}/runs`)).body;
    expect(runs.items[0]).toMatchObject({ status: 'refused', error: { code: 'CONFIRMATION_REQUIRED' } });
    const out = (await h.api('GET', `/tools/schedules/${made.scheduleID}/runs/${runs.items[0].invocationID}/output`)).body;
    expect(out.text).toMatch(/^CONFIRMATION_REQUIRED: refused: wipe v1 is privileged/);
  });
});

describe('the run log', () => {
  it(`keeps the newest ${KEPT_RUNS_PER_SCHEDULE} runs of a schedule and ${KEPT_OUTPUT_CHARS} characters of each output (here, bounds of 3 and 10)`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tw-runlog-'));
    try {
      const log = new RunLog(dir, 3, 10);
      const scheduleID = uuidv7();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const invocationID = uuidv7();
        ids.push(invocationID);
        const startedAt = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
        await log.append(scheduleID, { invocationID, fireAt: startedAt, startedAt, durationMs: 1, status: 'ok' }, `run ${i} 😀 and more text`);
      }
      const page = await log.page(scheduleID, 0, 50);
      expect(page.total).toBe(3);
      expect(page.items.map((r) => r.invocationID)).toEqual([ids[4], ids[3], ids[2]]);
      const kept = await log.get(scheduleID, ids[4]!);
      // Cut at 10 UTF-16 units, but never inside the emoji's surrogate pair.
      expect(kept).toMatchObject({ output: 'run 4 😀 a', outputChars: 10, outputTruncatedFrom: 'run 4 😀 and more text'.length });
      expect(await log.get(scheduleID, ids[0]!)).toBeUndefined();
      // Hostile names never reach the file system.
      expect(await log.page('../../etc', 0, 10)).toEqual({ items: [], total: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the schedule tools', () => {
  it("never act as a schedule's run or a pipeline's step (either would act as the data folder's owner), before any operation runs", async () => {
    let operations = 0;
    for (const caller of [SCHEDULE_CALLER, pipelineCaller('nightly')]) {
      for (const def of SCHEDULE_FUNCTIONS) {
        const ctx = { caller, services: { operations: () => (operations++, undefined) } } as unknown as FunctionContext;
        const args = { scheduleID: uuidv7(), tool: 'ops/ids@v1' } as Record<string, unknown> & { scheduleID: string };
        await expect(def.run(args, ctx)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      }
    }
    expect(operations).toBe(0);
  });

  it('a schedule tool run over REST acts for the REST caller: the owner sees what it made', async () => {
    const invoke = (slug: string, args: Record<string, unknown>, confirm = false) =>
      h.api('POST', `/tools/bundles/0190a000-0000-7000-8000-00000000c1e0/tools/${slug}/version/v1/invoke`, { args, ...(confirm ? { confirm } : {}) });
    // The bundle ships switched off: its tools do not run until a person switches it on.
    expect((await invoke('schedule-search', {})).body.error.code).toBe('BUNDLE_DISABLED');
    await h.api('PATCH', '/tools/bundles/0190a000-0000-7000-8000-00000000c1e0', { isEnabled: true });
    expect((await invoke('schedule-create', { tool: 'ops/ids@v1', everySeconds: 3600 })).body.error.code).toBe('CONFIRMATION_REQUIRED');
    const made = await invoke('schedule-create', { tool: 'ops/ids@v1', everySeconds: 3600, name: 'by invoke' }, true);
    expect(made.body, JSON.stringify(made.body)).toMatchObject({ ok: true, value: { name: 'by invoke', createdBy: 'rest' } });
    const found = await invoke('schedule-search', { text: 'by invoke' });
    expect(found.body.value).toMatchObject({ total: 1, items: [{ scheduleID: made.body.value.scheduleID }] });
  });
});
