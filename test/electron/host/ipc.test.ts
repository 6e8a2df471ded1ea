/**
 * The Electron transport without the Electron binary (it cannot be downloaded here): the IPC
 * wrapper is driven through a structural ipcMain, and the preload through a stand-in for the
 * `electron` module that records what it exposes. The core behind them is real.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rm } from 'node:fs/promises';
import { createCore, type Core } from '../../../electron/core/app-core.js';
import { registerIpc, trustedOrigins, opChannel, EVENT_CHANNEL, forwardEvents, type IpcEventLike } from '../../../electron/host/ipc.js';
import { OP_NAMES, opFunctionName } from '../../../shared/operations.js';
import { tempDir } from '../../helpers/store.js';

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
    const unregister = registerIpc(fakeIpcMain, core, trustedOrigins(['app://toolwright']));
    expect([...handlers.keys()].sort()).toEqual(OP_NAMES.map(opChannel).sort());
    const list = (await handlers.get(opChannel('bundles.list'))!(topFrame('app://toolwright/index.html'), {})) as { ok: boolean; data: { items: unknown[] } };
    expect(list.ok).toBe(true);
    expect(list.data.items.length).toBeGreaterThan(0);
    unregister();
    expect(handlers.size).toBe(0);
  });

  it('refuses messages from other origins, from sub-frames and without a frame', async () => {
    registerIpc(fakeIpcMain, core, trustedOrigins(['app://toolwright']));
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
    expect(Object.keys(api).sort()).toEqual([...fnNames, 'onEvent', 'platform'].sort());
    expect(Object.values(api).some((v) => typeof v === 'object' && v !== null && 'invoke' in v)).toBe(false);
    await (api['bundlesList'] as (i: unknown) => Promise<unknown>)({ pageSize: 5 });
    expect(invoked.at(-1)).toEqual({ channel: opChannel('bundles.list'), input: { pageSize: 5 } });
  });
});
