/**
 * The Electron IPC transport. One channel per operation, every handler registered through one
 * wrapper that first checks which frame sent the message (VS Code's rule: only our own
 * renderer, from our own origin, in the top frame), then hands the input to the dispatcher,
 * which validates it against the contract. Errors cross as {code, message, details}.
 * Electron's objects are passed in structurally so this module never imports `electron`.
 */
import { OP_NAMES, type StoreEvent } from '../../shared/operations.js';
import type { Envelope } from '../../shared/errors.js';
import type { TransportCore } from '../core/operations/transport.js';
import { EVENT_CHANNEL, opChannel } from './ipc-channels.js';

export { OP_CHANNEL_PREFIX, EVENT_CHANNEL, opChannel } from './ipc-channels.js';

export interface SenderFrame {
  url: string;
  parent: unknown;
}

export interface IpcEventLike {
  senderFrame: SenderFrame | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

/** True when the frame is the top frame of our own renderer. */
export type SenderCheck = (frame: SenderFrame | null) => boolean;

export function trustedOrigins(origins: string[]): SenderCheck {
  return (frame) => {
    if (!frame || frame.parent) return false;
    try {
      const origin = new URL(frame.url).origin;
      return origins.includes(origin) || origins.includes(frame.url.split('/').slice(0, 3).join('/'));
    } catch {
      return false;
    }
  };
}

export function registerIpc(ipcMain: IpcMainLike, core: TransportCore, isTrusted: SenderCheck): () => void {
  for (const name of OP_NAMES) {
    ipcMain.handle(opChannel(name), async (event, input): Promise<Envelope<unknown>> => {
      if (!isTrusted(event.senderFrame)) {
        return { ok: false, error: { code: 'FORBIDDEN', message: 'this IPC message did not come from the Toolwright window' } };
      }
      return core.dispatch(name, input, { transport: 'ipc' });
    });
  }
  return () => {
    for (const name of OP_NAMES) ipcMain.removeHandler(opChannel(name));
  };
}

/** Forwards store events to a window; returns the unsubscribe function. */
export function forwardEvents(core: TransportCore, send: (channel: string, e: StoreEvent) => void): () => void {
  const listener = (e: StoreEvent) => send(EVENT_CHANNEL, e);
  core.events.on('event', listener);
  return () => core.events.off('event', listener);
}
