/**
 * The renderer's only door to main: one named function per operation (never ipcRenderer
 * itself), one for a streamed invoke, plus a subscription to store events. Runs sandboxed,
 * bundled to CommonJS.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { OP_NAMES, opFunctionName } from '../shared/op-names.js';
import type { StoreEvent } from '../shared/operations.js';
import { EVENT_CHANNEL, INVOKE_EVENT_CHANNEL, INVOKE_STREAM_CHANNEL, INVOKE_STREAM_FUNCTION, opChannel } from './host/ipc-channels.js';

const api: Record<string, unknown> = {};
for (const name of OP_NAMES) {
  api[opFunctionName(name)] = (input: unknown) => ipcRenderer.invoke(opChannel(name), input ?? {});
}
api['onEvent'] = (callback: (e: StoreEvent) => void) => {
  const listener = (_e: IpcRendererEvent, payload: StoreEvent) => callback(payload);
  ipcRenderer.on(EVENT_CHANNEL, listener);
  return () => ipcRenderer.removeListener(EVENT_CHANNEL, listener);
};
// tools.invoke whose events (output chunks, pipeline steps) arrive while it runs, for its invocationID.
api[INVOKE_STREAM_FUNCTION] = (input: { invocationID?: string }, onEvent: (event: unknown) => void) => {
  const listener = (_e: IpcRendererEvent, invocationID: string, event: unknown) => {
    if (invocationID === input?.invocationID) onEvent(event);
  };
  ipcRenderer.on(INVOKE_EVENT_CHANNEL, listener);
  return ipcRenderer.invoke(INVOKE_STREAM_CHANNEL, input ?? {}).finally(() => ipcRenderer.removeListener(INVOKE_EVENT_CHANNEL, listener));
};
api['platform'] = process.platform;

contextBridge.exposeInMainWorld('toolwright', Object.freeze(api));
