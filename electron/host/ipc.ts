/**
 * The Electron IPC transport. One channel per operation, every handler registered through one
 * wrapper that first checks which frame sent the message (VS Code's rule: only our own
 * renderer, from our own origin, in the top frame), then hands the input to the dispatcher,
 * which validates it against the contract. Errors cross as {code, message, details}. One more
 * channel runs tools.invoke with its output streamed back to the window as events. A refusal
 * (a message from another frame, input the contract will not take) goes to the Logger too: IPC
 * has no access log, and the window never sends such a message unless it has a bug or a hostile
 * page reached it.
 * Electron's objects are passed in structurally so this module never imports `electron`.
 */
import { OP_NAMES, type StoreEvent } from '../../shared/operations.js';
import type { Envelope } from '../../shared/errors.js';
import type { TransportCore } from '../core/operations/transport.js';
import type { Logger } from '../core/log.js';
import { EVENT_CHANNEL, INVOKE_EVENT_CHANNEL, INVOKE_STREAM_CHANNEL, OP_CHANNEL_PREFIX, opChannel } from './ipc-channels.js';
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

/**
 * The answers that refuse a message rather than answer it: not from our window (FORBIDDEN), or
 * input that is not what the operation takes (INVALID_INPUT: an unknown operation, the contract's
 * check, an operation's own rules; PAYLOAD_TOO_LARGE). NOT_FOUND, CONFLICT and the like answer a
 * well-formed question about the data, and a run's own failure is its answer: neither is logged.
 */
const REFUSALS: ReadonlySet<string> = new Set(['FORBIDDEN', 'INVALID_INPUT', 'PAYLOAD_TOO_LARGE']);
/** At most this many refusal lines a minute, so a page that loops cannot flood the log. */
export const MAX_REFUSAL_LINES_PER_MINUTE = 20;

function senderOf(frame: SenderFrame | null): string {
  if (!frame) return 'no frame';
  const url = JSON.stringify(frame.url.length > 200 ? `${frame.url.slice(0, 200)}…` : frame.url);
  return frame.parent ? `a sub-frame at ${url}` : url;
}

/** ipcMain whose handlers' refusals also go to the logger, one line each (values quoted: no control characters reach it). */
function loggingRefusals(ipcMain: IpcMainLike, log: Logger, now: () => number): IpcMainLike {
  let minute = -1;
  let lines = 0;
  let dropped = 0;
  const write = (line: string) => {
    const m = Math.floor(now() / 60_000);
    if (m !== minute) {
      if (dropped > 0) log.warn(`ipc: ${dropped} more refused message(s) in the minute before were not logged`);
      minute = m;
      lines = 0;
      dropped = 0;
    }
    if (lines < MAX_REFUSAL_LINES_PER_MINUTE) {
      lines++;
      log.warn(line);
    } else dropped++;
  };
  return {
    handle: (channel, listener) =>
      ipcMain.handle(channel, async (event, ...args) => {
        const answer = await listener(event, ...args);
        const envelope = answer as Envelope<unknown> | undefined;
        if (envelope?.ok === false && REFUSALS.has(envelope.error.code)) {
          const error = envelope.error;
          const what = channel === INVOKE_STREAM_CHANNEL ? 'tools.invoke (streamed)' : channel.slice(OP_CHANNEL_PREFIX.length);
          write(`ipc: refused ${what} from ${senderOf(event.senderFrame)}: ${error.code} ${JSON.stringify(error.message)}`);
        }
        return answer;
      }),
    removeHandler: (channel) => ipcMain.removeHandler(channel),
  };
}

export function registerIpc(electronIpcMain: IpcMainLike, core: TransportCore, isTrusted: SenderCheck, log: Logger, now = Date.now): () => void {
  const ipcMain = loggingRefusals(electronIpcMain, log, now);
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
