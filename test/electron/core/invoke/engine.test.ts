import { afterEach, describe, expect, it } from 'vitest';
import { CoreError } from '../../../../electron/core/errors.js';
import { HistoryStore } from '../../../../electron/core/invoke/history.js';
import { FakeRunner, bundleFile, engineTool, harness, refusal, toolFile, type Harness } from '../../../helpers/engine-fixtures.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { AuditLog } from '../../../../electron/core/audit/writer.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe('InvocationEngine: the flow', () => {
  it('runs the tool with validated arguments and answers ok with the value', async () => {
    h = await harness();
    const tool = engineTool();
    const result = await h.engine.invoke(tool, bundleFile(), { args: { city: 'Oslo', days: 3 } });
    expect(result.ok).toBe(true);
    expect(result.value).toEqual({ echo: { city: 'Oslo', days: 3 } });
    expect(typeof result.invocationID).toBe('string');
    expect(result.invocationID.length).toBeGreaterThan(0);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.error).toBeUndefined();
    const ctx = h.runner.calls[0]!;
    expect(ctx.toolDir).toBe(tool.dir);
    expect(ctx.tool).toBe(tool.file);
    expect(ctx.invocationID).toBe(result.invocationID);
    expect(ctx.signal.aborted).toBe(false);
    expect(ctx.config).toEqual(h.config);
    expect(ctx.secrets).toBe(h.secrets);
  });

  it("passes the caller's invocationID through and defaults args to {}", async () => {
    h = await harness();
    const file = toolFile({ argSchema: { type: 'object' } });
    const result = await h.engine.invoke(engineTool(file), bundleFile(), { invocationID: 'tester-1' });
    expect(result.invocationID).toBe('tester-1');
    expect(h.runner.calls[0]!.args).toEqual({});
  });

  it('gives each invocation its own ID', async () => {
    h = await harness();
    const tool = engineTool(toolFile({ argSchema: { type: 'object' } }));
    const a = await h.engine.invoke(tool, bundleFile(), {});
    const b = await h.engine.invoke(tool, bundleFile(), {});
    expect(a.invocationID).not.toBe(b.invocationID);
  });

  it("turns a runner's CoreError into ok:false with its code, message and details", async () => {
    h = await harness();
    h.runner.behaviour = () => {
      throw new CoreError('UPSTREAM_ERROR', 'the weather service answered 503', { status: 503 });
    };
    const result = await h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo' } });
    expect(result.ok).toBe(false);
    expect(result.error).toEqual({ code: 'UPSTREAM_ERROR', message: 'the weather service answered 503', details: { status: 503 } });
    expect(result.value).toBeUndefined();
  });

  it('turns any other thrown error into INTERNAL naming the failure', async () => {
    h = await harness();
    h.runner.behaviour = () => {
      throw new TypeError('cannot read properties of undefined');
    };
    const result = await h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo' } });
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('INTERNAL');
    expect(result.error?.message).toContain('cannot read properties of undefined');
  });

  it("delegates availability to the runner of the tool's type and never throws", async () => {
    h = await harness();
    h.runner.availabilityAnswer = { ok: false, reason: 'function test.echo is not registered' };
    expect(h.engine.availability(engineTool())).toEqual({ ok: false, reason: 'function test.echo is not registered' });
    const http = engineTool(toolFile({ type: 'http' }));
    const noRunner = h.engine.availability(http);
    expect(noRunner.ok).toBe(false);
    expect(noRunner.reason).toContain('http');
    h.runner.availability = () => {
      throw new Error('probe exploded');
    };
    expect(h.engine.availability(engineTool())).toEqual({ ok: false, reason: 'availability check failed: probe exploded' });
  });
});

describe('InvocationEngine: gates, in order', () => {
  it('refuses in the documented order, one cause at a time', async () => {
    h = await harness({ config: { toolsEnabled: false } });
    const file = toolFile({ isEnabled: false, safety: 'privileged', limits: { maxCallsPerMinute: 1 } });
    const tool = engineTool(file);
    const bundle = bundleFile({ isEnabled: false, softDeletedAt: '2026-06-01T00:00:00.000Z' });
    h.runner.availabilityAnswer = { ok: false, reason: 'function test.echo is not registered' };
    const badArgs = { args: { city: 42 } };

    let e = await refusal(h.engine.invoke(tool, bundle, badArgs));
    expect(e.code).toBe('TOOLS_DISABLED');
    expect(e.message).toContain('Settings → Tools enabled');
    h.config.toolsEnabled = true;

    e = await refusal(h.engine.invoke(tool, bundle, badArgs));
    expect(e.code).toBe('BUNDLE_DELETED');
    bundle.softDeletedAt = null;

    e = await refusal(h.engine.invoke(tool, bundle, badArgs));
    expect(e.code).toBe('BUNDLE_DISABLED');
    bundle.isEnabled = true;

    e = await refusal(h.engine.invoke(tool, bundle, badArgs));
    expect(e.code).toBe('TOOL_DISABLED');
    file.isEnabled = true;

    e = await refusal(h.engine.invoke(tool, bundle, badArgs));
    expect(e.code).toBe('TOOL_UNAVAILABLE');
    expect(e.message).toContain('function test.echo is not registered');
    h.runner.availabilityAnswer = { ok: true };

    e = await refusal(h.engine.invoke(tool, bundle, badArgs));
    expect(e.code).toBe('CONFIRMATION_REQUIRED');
    expect(e.message).toContain('confirm: true');

    e = await refusal(h.engine.invoke(tool, bundle, { ...badArgs, confirm: true }));
    expect(e.code).toBe('INVALID_ARGS');

    const ok = await h.engine.invoke(tool, bundle, { args: { city: 'Oslo' }, confirm: true });
    expect(ok.ok).toBe(true);

    e = await refusal(h.engine.invoke(tool, bundle, { ...badArgs, confirm: true }));
    expect(e.code).toBe('RATE_LIMITED');
    expect(h.runner.calls).toHaveLength(1);
  });

  it('refusals are CoreErrors and neither run the tool nor record metrics or history', async () => {
    h = await harness({ config: { toolsEnabled: false } });
    const tool = engineTool();
    const err = await refusal(h.engine.invoke(tool, bundleFile(), { args: { city: 'Oslo' } }));
    expect(err).toBeInstanceOf(CoreError);
    expect(h.runner.calls).toHaveLength(0);
    expect(h.metrics.calls).toHaveLength(0);
    expect(await h.history.list(tool.file.toolID)).toEqual([]);
  });

  it('asks for confirmation on privileged tools only', async () => {
    h = await harness();
    const b = bundleFile();
    for (const safety of ['readOnly', 'sideEffecting'] as const) {
      const r = await h.engine.invoke(engineTool(toolFile({ safety })), b, { args: { city: 'x' } });
      expect(r.ok).toBe(true);
    }
    const privileged = engineTool(toolFile({ safety: 'privileged' }));
    expect((await refusal(h.engine.invoke(privileged, b, { args: { city: 'x' }, confirm: false }))).code).toBe('CONFIRMATION_REQUIRED');
    expect((await h.engine.invoke(privileged, b, { args: { city: 'x' }, confirm: true })).ok).toBe(true);
  });
});

describe('InvocationEngine: rate limit', () => {
  it('allows maxCallsPerMinute in any 60 s and says when to retry', async () => {
    h = await harness();
    const tool = engineTool(toolFile({ limits: { maxCallsPerMinute: 3 } }));
    const b = bundleFile();
    await h.engine.invoke(tool, b, { args: { city: 'a' } });
    h.clock.advance(10_000);
    await h.engine.invoke(tool, b, { args: { city: 'b' } });
    await h.engine.invoke(tool, b, { args: { city: 'c' } });
    h.clock.advance(20_000);
    const e = await refusal(h.engine.invoke(tool, b, { args: { city: 'd' } }));
    expect(e.code).toBe('RATE_LIMITED');
    // The first call (at t=0) leaves the window at t=60 s; now is t=30 s.
    expect(e.details?.['retryAfterMs']).toBe(30_000);
    expect(e.details?.['maxCallsPerMinute']).toBe(3);
    h.clock.advance(30_000);
    expect((await h.engine.invoke(tool, b, { args: { city: 'e' } })).ok).toBe(true);
    // The two calls at t=10 s are still in the window, as is the one just made.
    expect((await refusal(h.engine.invoke(tool, b, { args: { city: 'f' } }))).code).toBe('RATE_LIMITED');
    expect(h.runner.calls.map((c) => c.args['city'])).toEqual(['a', 'b', 'c', 'e']);
  });

  it('counts per tool and falls back to config.limits', async () => {
    h = await harness({ config: { limits: { maxCallsPerMinute: 2, maxOutputBytes: 16384 } } });
    const b = bundleFile();
    const one = engineTool();
    const two = engineTool();
    await h.engine.invoke(one, b, { args: { city: 'a' } });
    await h.engine.invoke(one, b, { args: { city: 'a' } });
    expect((await refusal(h.engine.invoke(one, b, { args: { city: 'a' } }))).code).toBe('RATE_LIMITED');
    expect((await h.engine.invoke(two, b, { args: { city: 'a' } })).ok).toBe(true);
  });

  it('does not count calls refused for their arguments', async () => {
    h = await harness();
    const tool = engineTool(toolFile({ limits: { maxCallsPerMinute: 1 } }));
    const b = bundleFile();
    for (let i = 0; i < 5; i++) expect((await refusal(h.engine.invoke(tool, b, { args: {} }))).code).toBe('INVALID_ARGS');
    expect((await h.engine.invoke(tool, b, { args: { city: 'a' } })).ok).toBe(true);
  });
});

describe('InvocationEngine: cancellation', () => {
  it("cancel() aborts the runner's signal and the answer is CANCELLED", async () => {
    h = await harness();
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    h.runner.behaviour = (ctx) =>
      new Promise((_resolve, reject) => {
        started();
        ctx.signal.addEventListener('abort', () => reject(new Error('aborted by signal')));
      });
    const tool = engineTool();
    const pending = h.engine.invoke(tool, bundleFile(), { args: { city: 'Oslo' }, invocationID: 'stop-me' });
    await running;
    expect(h.engine.running()).toEqual(['stop-me']);
    expect(h.engine.cancel('stop-me')).toBe(true);
    expect(h.engine.cancel('stop-me')).toBe(false);
    const result = await pending;
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('CANCELLED');
    expect(h.runner.calls[0]!.signal.aborted).toBe(true);
    expect(h.engine.running()).toEqual([]);
    const [entry] = await h.history.list(tool.file.toolID);
    expect(entry?.status).toBe('cancelled');
    expect(h.metrics.calls).toEqual([{ toolID: tool.file.toolID, ok: false }]);
  });

  it('answers at once even when the runner ignores its signal', async () => {
    h = await harness();
    h.runner.behaviour = () => new Promise(() => undefined); // never settles
    const pending = h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo' }, invocationID: 'stuck' });
    expect(h.engine.cancel('stuck')).toBe(true);
    const result = await pending;
    expect(result.error?.code).toBe('CANCELLED');
    expect(h.engine.running()).toEqual([]);
  });

  it('answers CANCELLED even when the runner then rejects with something else', async () => {
    h = await harness();
    h.runner.behaviour = (ctx) => new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(new CoreError('TIMEOUT', 'timed out'))));
    const pending = h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo' }, invocationID: 'x1' });
    h.engine.cancel('x1');
    expect((await pending).error?.code).toBe('CANCELLED');
  });

  it('cancel of an unknown or finished invocation answers false', async () => {
    h = await harness();
    expect(h.engine.cancel('nope')).toBe(false);
    const r = await h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo' } });
    expect(h.engine.cancel(r.invocationID)).toBe(false);
  });

  it('refuses an invocationID that is still running, and accepts it again once finished', async () => {
    h = await harness();
    let release!: () => void;
    h.runner.behaviour = () => new Promise((r) => (release = () => r({ value: 1 })));
    const tool = engineTool();
    const b = bundleFile();
    const first = h.engine.invoke(tool, b, { args: { city: 'a' }, invocationID: 'same' });
    const e = await refusal(h.engine.invoke(tool, b, { args: { city: 'a' }, invocationID: 'same' }));
    expect(e.code).toBe('CONFLICT');
    release();
    expect((await first).ok).toBe(true);
    h.runner.behaviour = () => ({ value: 2 });
    expect((await h.engine.invoke(tool, b, { args: { city: 'a' }, invocationID: 'same' })).value).toBe(2);
  });

  it('refuses a malformed invocationID', async () => {
    h = await harness();
    const e = await refusal(h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'a' }, invocationID: '../etc/passwd' }));
    expect(e.code).toBe('INVALID_INPUT');
  });
});

describe('InvocationEngine: metrics and history', () => {
  it('records ok and error runs in metrics and in history, newest first', async () => {
    h = await harness();
    const tool = engineTool();
    const b = bundleFile();
    const first = await h.engine.invoke(tool, b, { args: { city: 'Oslo' } });
    h.runner.behaviour = () => {
      throw new CoreError('UPSTREAM_ERROR', 'down');
    };
    h.clock.advance(1000);
    const second = await h.engine.invoke(tool, b, { args: { city: 'Bergen' } });
    expect(h.metrics.calls).toEqual([
      { toolID: tool.file.toolID, ok: true },
      { toolID: tool.file.toolID, ok: false },
    ]);
    const entries = await h.history.list(tool.file.toolID);
    expect(entries.map((e) => e.invocationID)).toEqual([second.invocationID, first.invocationID]);
    expect(entries[0]).toMatchObject({
      status: 'error',
      args: { city: 'Bergen' },
      error: { code: 'UPSTREAM_ERROR', message: 'down' },
      startedAt: '2026-06-01T09:00:01.000Z',
    });
    expect(entries[1]).toMatchObject({ status: 'ok', args: { city: 'Oslo' }, result: { echo: { city: 'Oslo' } }, toolID: tool.file.toolID });
  });

  it('answers before history is written, keeping the per-tool order', async () => {
    h = await harness();
    const tool = engineTool();
    const b = bundleFile();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await h.engine.invoke(tool, b, { args: { city: `c${i}` } })).invocationID);
    const entries = await h.history.list(tool.file.toolID, 100);
    expect(entries.map((e) => e.invocationID)).toEqual(ids.reverse());
  });

  it("queues the call's audit record before its history entry, so history's write never runs ahead of the record's sync", async () => {
    const order: string[] = [];
    const auditDir = await mkdtemp(join(tmpdir(), 'tw-engine-audit-'));
    const writer = new AuditLog({ dir: auditDir });
    try {
      h = await harness({
        audit: {
          append: (body) => {
            order.push('audit');
            return writer.append(body);
          },
          ready: () => writer.ready(),
        },
      });
      const history = h.history;
      const append = history.append.bind(history);
      history.append = (toolID, entry) => {
        order.push('history');
        return append(toolID, entry);
      };
      expect((await h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo' } })).ok).toBe(true);
      expect(order).toEqual(['audit', 'history']);
    } finally {
      await writer.close();
      await rm(auditDir, { recursive: true, force: true });
    }
  });

  it('a failing metrics recorder or history store never fails the call', async () => {
    const dir = (await import('node:os')).tmpdir();
    const blocker = join(dir, `tw-not-a-dir-${process.pid}-${Date.now()}`);
    await writeFile(blocker, 'x');
    h = await harness({ history: new HistoryStore(join(blocker, 'history')) });
    h.metrics.record = () => {
      throw new Error('metrics broke');
    };
    const result = await h.engine.invoke(engineTool(), bundleFile(), { args: { city: 'Oslo' } });
    expect(result.ok).toBe(true);
    await h.history.flush().catch(() => undefined);
    await new Promise((r) => setImmediate(r));
    expect(h.backgroundErrors.map((e) => e.what).sort()).toEqual(['history', 'metrics']);
    await rm(blocker, { force: true });
  });

  it('uses the runner registered for each type', async () => {
    const http = new FakeRunner('http');
    http.behaviour = () => ({ value: 'from http' });
    const fn = new FakeRunner('function');
    fn.behaviour = () => ({ value: 'from function' });
    h = await harness({ runners: [fn, http] });
    const b = bundleFile();
    expect((await h.engine.invoke(engineTool(toolFile({ type: 'http' })), b, { args: { city: 'a' } })).value).toBe('from http');
    expect((await h.engine.invoke(engineTool(toolFile({ type: 'function' })), b, { args: { city: 'a' } })).value).toBe('from function');
  });
});
