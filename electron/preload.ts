/**
 * The renderer's only door to main: one named function per operation (never ipcRenderer
 * itself), plus a subscription to store events. Runs sandboxed, bundled to CommonJS.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { OP_NAMES, opFunctionName } from '../shared/op-names.js';
import type { StoreEvent } from '../shared/operations.js';
import { EVENT_CHANNEL, opChannel } from './host/ipc-channels.js';

const api: Record<string, unknown> = {};
for (const name of OP_NAMES) {
  api[opFunctionName(name)] = (input: unknown) => ipcRenderer.invoke(opChannel(name), input ?? {});
}
api['onEvent'] = (callback: (e: StoreEvent) => void) => {
  const listener = (_e: IpcRendererEvent, payload: StoreEvent) => callback(payload);
  ipcRenderer.on(EVENT_CHANNEL, listener);
  return () => ipcRenderer.removeListener(EVENT_CHANNEL, listener);
};
api['platform'] = process.platform;

contextBridge.exposeInMainWorld('toolwright', Object.freeze(api));
