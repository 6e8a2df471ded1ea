/**
 * The Electron transport without the Electron binary (it cannot be downloaded here): the IPC
 * wrapper is driven through a structural ipcMain, and the preload through a stand-in for the
 * `electron` module that records what it exposes. The core behind them is real.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rm } from 'node:fs/promises';
import { createCore, type Core } from '../../../electron/core/app-core.js';
import type { Logger } from '../../../electron/core/log.js';
import {
  MAX_REFUSAL_LINES_PER_MINUTE,
  registerIpc,
  trustedOrigins,
  opChannel,
  EVENT_CHANNEL,
  INVOKE_EVENT_CHANNEL,
  INVOKE_STREAM_CHANNEL,
  forwardEvents,
  type IpcEventLike,
  type IpcSenderLike,
} from '../../../electron/host/ipc.js';
import { INVOKE_STREAM_FUNCTION } from '../../../electron/host/ipc-channels.js';
import { OP_NAMES, opFunctionName } from '../../../shared/operations.js';
import { tempDir } from '../../helpers/store.js';
import { startLoopbackServer } from '../../helpers/loopback-http.js';
import { v7 as uuidv7 } from 'uuid';

const exposed: Record<string, unknown> = {};
const invoked: { channel: string; input: unknown }[] = [];
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
  ipcRenderer: {
    invoke: async (channel: string, input: unknown) => {
      invoked.push({ channel, input });
      return { ok: true, data: null };
    },
    on: () => undefined,
    removeListener: () => undefined,
  },
}));

let core: Core;
let dataDir: string;
const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => Promise<unknown>>();
const fakeIpcMain = {
  handle: (channel: string, fn: (event: IpcEventLike, ...args: unknown[]) => Promise<unknown>) => void handlers.set(channel, fn),
  removeHandler: (channel: string) => void handlers.delete(channel),
};
const topFrame = (url: string) => ({ senderFrame: { url, parent: null } });
const warnings: string[] = [];
const logger: Logger = { error: (what, e) => warnings.push(`${what}: ${String(e)}`), warn: (m) => void warnings.push(m), info: () => undefined };

beforeAll(async () => {
  dataDir = await tempDir('tw-ipc-');
  core = await createCore({ dataDir, docker: false, transport: 'ipc' });
});
afterAll(async () => {
  await core.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('IPC wrapper', () => {
  it('registers one channel per operation and answers envelopes from the real core', async () => {
    const unregister = registerIpc(fakeIpcMain, core, trustedOrigins(['app://toolwright']), logger);
    expect([...handlers.keys()].sort()).toEqual([...OP_NAMES.map(opChannel), INVOKE_STREAM_CHANNEL].sort());
    const list = (await handlers.get(opChannel('bundles.list'))!(topFrame('app://toolwright/index.html'), {})) as { ok: boolean; data: { items: unknown[] } };
    expect(list.ok).toBe(true);
    expect(list.data.items.length).toBeGreaterThan(0);
    unregister();
    expect(handlers.size).toBe(0);
  });

  it('refuses messages from other origins, from sub-frames and without a frame', async () => {
    registerIpc(fakeIpcMain, core, trustedOrigins(['app://toolwright']), logger);
    const call = (event: IpcEventLike) => handlers.get(opChannel('secrets.list'))!(event, {});
    for (const event of [
      topFrame('https://evil.example/'),
      { senderFrame: { url: 'app://toolwright/index.html', parent: {} } },
      { senderFrame: null },
      topFrame('app://toolwright.evil/'),
    ]) {
      expect(await call(event)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
  });

  it('validates input against the contract and keeps error codes across the boundary', async () => {
    const bad = await handlers.get(opChannel('bundles.get'))!(topFrame('app://toolwright/'), { bundleID: '../../etc' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const missing = await handlers.get(opChannel('bundles.get'))!(topFrame('app://toolwright/'), { bundleID: '01900000-0000-7000-8000-000000000000' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    const extra = await handlers.get(opChannel('config.get'))!(topFrame('app://toolwright/'), { path: '/etc/passwd' });
    expect(extra).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('streams a run back to the window that asked, under its invocation ID, and cancels it when the window goes away', async () => {
    registerIpc(fakeIpcMain, core, trustedOrigins(['app://toolwright']), logger);
    const sent: unknown[][] = [];
    const destroyed: (() => void)[] = [];
    const sender: IpcSenderLike = {
      send: (...args) => void sent.push(args),
      isDestroyed: () => false,
      once: (_e, fn) => destroyed.push(fn),
      removeListener: (_e, fn) => destroyed.splice(destroyed.indexOf(fn), 1),
    };
    const stream = (input: unknown) => handlers.get(INVOKE_STREAM_CHANNEL)!({ ...topFrame('app://toolwright/'), sender }, input);
    const ref = { bundleID: '0190a000-0000-7000-8000-00000000c0e0', slug: 'calc', version: 'v1' };
    const ok = (await stream({ ...ref, args: { expression: '1+1' }, invocationID: 'ipc-run-1' })) as { ok: boolean; data: { invocationID: string } };
    expect(ok).toMatchObject({ ok: true, data: { ok: true, invocationID: 'ipc-run-1' } });
    expect(destroyed).toHaveLength(0);
    expect(await stream({ ...ref, args: { expression: '1+1' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await stream({ ...ref, args: {}, invocationID: 'ipc-run-2' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGS' } });
    expect(await handlers.get(INVOKE_STREAM_CHANNEL)!(topFrame('https://evil.example/'), { ...ref, invocationID: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(sent.every((args) => args[0] === INVOKE_EVENT_CHANNEL)).toBe(true);

    // A tool that streams and never ends on its own: its events come back tagged, and closing the window stops it.
    const upstream = await startLoopbackServer();
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    upstream.route('/drip', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first piece\n');
      res.on('close', upstreamClosed);
    });
    try {
      await core.config.patch({ allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true });
      const bundleID = uuidv7();
      await core.bundles.put(bundleID, { slug: 'ipc-stream' });
      await core.tools.create(
        { bundleID, slug: 'drip', version: 'v1' },
        { type: 'http', impl: { method: 'GET', urlTemplate: upstream.url('/drip'), responseEncoding: 'text', timeoutMs: 30_000 } },
      );
      sent.length = 0;
      const running = stream({ bundleID, slug: 'drip', version: 'v1', invocationID: 'ipc-run-3' });
      for (let i = 0; i < 200 && sent.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(sent[0]).toEqual([INVOKE_EVENT_CHANNEL, 'ipc-run-3', { type: 'chunk', text: 'first piece\n' }]);
      expect(destroyed).toHaveLength(1);
      destroyed[0]!();
      expect(await running).toMatchObject({ ok: true, data: { ok: false, error: { code: 'CANCELLED' } } });
      await closed;
    } finally {
      await upstream.close();
    }
  });

  it('logs each refusal, one quoted line naming the operation, the sender and why; answers about the data are not refusals', async () => {
    registerIpc(fakeIpcMain, core, trustedOrigins(['app://toolwright']), logger);
    const ours = topFrame('app://toolwright/index.html');
    warnings.length = 0;
    await handlers.get(opChannel('secrets.list'))!(topFrame('https://evil.example/\nforged line'), {});
    await handlers.get(opChannel('secrets.list'))!({ senderFrame: { url: 'app://toolwright/index.html', parent: {} } }, {});
    await handlers.get(opChannel('secrets.list'))!({ senderFrame: null }, {});
    await handlers.get(opChannel('bundles.get'))!(ours, { bundleID: '../../etc' });
    await handlers.get(opChannel('config.get'))!(ours, { path: '/etc/passwd' });
    await handlers.get(INVOKE_STREAM_CHANNEL)!(ours, { bundleID: '0190a000-0000-7000-8000-00000000c0e0', slug: 'calc', version: 'v1', args: {} });
    expect(warnings).toHaveLength(6);
    expect(warnings[0]).toBe(
      'ipc: refused secrets.list from "https://evil.example/\\nforged line": FORBIDDEN "this IPC message did not come from the Toolwright window"',
    );
    expect(warnings.every((w) => !w.includes('\n'))).toBe(true);
    expect(warnings[1]).toMatch(/^ipc: refused secrets\.list from a sub-frame at "app:\/\/toolwright\/index\.html": FORBIDDEN /);
    expect(warnings[2]).toMatch(/^ipc: refused secrets\.list from no frame: FORBIDDEN /);
    expect(warnings[3]).toMatch(/^ipc: refused bundles\.get from "app:\/\/toolwright\/index\.html": INVALID_INPUT "/);
    expect(warnings[4]).toMatch(/^ipc: refused config\.get from "app:\/\/toolwright\/index\.html": INVALID_INPUT "/);
    expect(warnings[5]).toMatch(/^ipc: refused tools\.invoke \(streamed\) from .*: INVALID_INPUT ".*invocationID/);

    warnings.length = 0;
    expect(await handlers.get(opChannel('bundles.get'))!(ours, { bundleID: '01900000-0000-7000-8000-000000000000' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(await handlers.get(opChannel('bundles.list'))!(ours, {})).toMatchObject({ ok: true });
    expect(warnings).toEqual([]);
  });

  it('logs at most a bounded number of refusals a minute, then says how many it left out', async () => {
    let clock = 10 * 60_000;
    registerIpc(fakeIpcMain, core, trustedOrigins(['app://toolwright']), logger, () => clock);
    warnings.length = 0;
    const refused = () => handlers.get(opChannel('secrets.list'))!(topFrame('https://evil.example/'), {});
    for (let i = 0; i < MAX_REFUSAL_LINES_PER_MINUTE + 5; i++) expect(await refused()).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(warnings).toHaveLength(MAX_REFUSAL_LINES_PER_MINUTE);
    clock += 60_000;
    await refused();
    expect(warnings.slice(MAX_REFUSAL_LINES_PER_MINUTE)).toEqual([
      'ipc: 5 more refused message(s) in the minute before were not logged',
      expect.stringMatching(/^ipc: refused secrets\.list from /),
    ]);
  });

  it('forwards store events to the window', async () => {
    const sent: unknown[] = [];
    const stop = forwardEvents(core, (channel, e) => sent.push([channel, e]));
    await core.dispatch('config.patch', { patch: { toolsEnabled: false } });
    await core.dispatch('config.patch', { patch: { toolsEnabled: true } });
    stop();
    expect(sent).toContainEqual([EVENT_CHANNEL, { type: 'config.changed' }]);
  });
});

describe('preload', () => {
  it('exposes one named function per operation plus onEvent, never ipcRenderer', async () => {
    await import('../../../electron/preload.js');
    const api = exposed['toolwright'] as Record<string, unknown>;
    expect(Object.isFrozen(api)).toBe(true);
    const fnNames = OP_NAMES.map(opFunctionName);
    expect(new Set(fnNames).size).toBe(OP_NAMES.length);
    for (const n of fnNames) expect(typeof api[n]).toBe('function');
    expect(typeof api['onEvent']).toBe('function');
    expect(Object.keys(api).sort()).toEqual([...fnNames, INVOKE_STREAM_FUNCTION, 'onEvent', 'platform'].sort());
    expect(Object.values(api).some((v) => typeof v === 'object' && v !== null && 'invoke' in v)).toBe(false);
    await (api['bundlesList'] as (i: unknown) => Promise<unknown>)({ pageSize: 5 });
    expect(invoked.at(-1)).toEqual({ channel: opChannel('bundles.list'), input: { pageSize: 5 } });
  });
});
