/**
 * The Electron IPC transport. One channel per operation, every handler registered through one
 * wrapper that first checks which frame sent the message (VS Code's rule: only our own
 * renderer, from our own origin, in the top frame), then hands the input to the dispatcher,
 * which validates it against the contract. Errors cross as {code, message, details}. One more
 * channel runs tools.invoke with its output streamed back to the window as events.
 * Electron's objects are passed in structurally so this module never imports `electron`.
 */
import { OP_NAMES, type StoreEvent } from '../../shared/operations.js';
import type { Envelope } from '../../shared/errors.js';
import type { TransportCore } from '../core/operations/transport.js';
import { EVENT_CHANNEL, INVOKE_EVENT_CHANNEL, INVOKE_STREAM_CHANNEL, opChannel } from './ipc-channels.js';
import { APP_CALLER } from '../../shared/caller.js';

export { OP_CHANNEL_PREFIX, EVENT_CHANNEL, INVOKE_EVENT_CHANNEL, INVOKE_STREAM_CHANNEL, opChannel } from './ipc-channels.js';

export interface SenderFrame {
  url: string;
  parent: unknown;
}

/** The webContents that sent a message: where a streamed invoke's events go back. */
export interface IpcSenderLike {
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
  once(event: 'destroyed', listener: () => void): unknown;
  removeListener(event: 'destroyed', listener: () => void): unknown;
}

export interface IpcEventLike {
  senderFrame: SenderFrame | null;
  sender?: IpcSenderLike;
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

/** Every call over IPC is the desktop window's: the app. */
const APP = { caller: APP_CALLER };

const NOT_OURS: Envelope<never> = { ok: false, error: { code: 'FORBIDDEN', message: 'this IPC message did not come from the Toolwright window' } };

export function registerIpc(ipcMain: IpcMainLike, core: TransportCore, isTrusted: SenderCheck): () => void {
  for (const name of OP_NAMES) {
    ipcMain.handle(opChannel(name), async (event, input): Promise<Envelope<unknown>> => {
      if (!isTrusted(event.senderFrame)) return NOT_OURS;
      return core.dispatch(name, input, APP);
    });
  }
  ipcMain.handle(INVOKE_STREAM_CHANNEL, async (event, input) => (isTrusted(event.senderFrame) ? invokeStreamed(core, event, input) : NOT_OURS));
  return () => {
    for (const name of OP_NAMES) ipcMain.removeHandler(opChannel(name));
    ipcMain.removeHandler(INVOKE_STREAM_CHANNEL);
  };
}

/**
 * tools.invoke whose events go back to the sending window as they happen, tagged with the
 * invocation ID the renderer chose (so it needs one). A window that goes away (closed,
 * reloaded) cancels its run.
 */
async function invokeStreamed(core: TransportCore, event: IpcEventLike, input: unknown): Promise<Envelope<unknown>> {
  const invocationID = (input as { invocationID?: unknown } | null)?.invocationID;
  if (typeof invocationID !== 'string') {
    return {
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message: 'a streamed invoke needs an invocationID (its events are sent under it)',
        details: { issues: [{ field: 'invocationID', message: 'is required' }] },
      },
    };
  }
  const sender = event.sender;
  const gone = () => void core.dispatch('tools.cancel', { invocationID }, APP);
  sender?.once('destroyed', gone);
  try {
    return await core.dispatch('tools.invoke', input, {
      caller: APP_CALLER,
      stream: {
        onEvent: (e) => {
          if (sender && !sender.isDestroyed()) sender.send(INVOKE_EVENT_CHANNEL, invocationID, e);
        },
      },
    });
  } finally {
    sender?.removeListener('destroyed', gone);
  }
}

/** Forwards store events to a window; returns the unsubscribe function. */
export function forwardEvents(core: TransportCore, send: (channel: string, e: StoreEvent) => void): () => void {
  const listener = (e: StoreEvent) => send(EVENT_CHANNEL, e);
  core.events.on('event', listener);
  return () => core.events.off('event', listener);
}
