/**
 * Progress notifications of a tools/call whose request carried a progressToken: one count per
 * request, so progress only grows across the approval wait and the run, as MCP requires; and the
 * tool's output as it arrives, as the notifications' `message` (partial text), gathered over a
 * few milliseconds so a tool printing many short lines does not send one notification each.
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { InvokeStreamEvent } from '../../../shared/types.js';

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Status lines (approval waits, image builds) are short; output pieces may be longer. */
const STATUS_CHARS = 500;
export const OUTPUT_MESSAGE_CHARS = 4000;
const GATHER_MS = 50;

const progressSteps = new WeakMap<Extra, number>();

/** Sends one progress notification with a message, or undefined when the request asked for none. */
export function progressOf(extra: Extra): ((message: string, limit?: number) => void) | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  return (message, limit = STATUS_CHARS) => {
    const progress = (progressSteps.get(extra) ?? 0) + 1;
    progressSteps.set(extra, progress);
    void extra
      .sendNotification({ method: 'notifications/progress', params: { progressToken, progress, message: message.slice(0, limit) } })
      .catch(() => undefined);
  };
}

/** Output chunks → progress messages of at most OUTPUT_MESSAGE_CHARS each, in order; flush() sends what waits. */
export function outputProgress(report: (message: string, limit?: number) => void): { onEvent: (e: InvokeStreamEvent) => void; flush: () => void } {
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    while (pending) {
      let end = Math.min(pending.length, OUTPUT_MESSAGE_CHARS);
      const last = pending.charCodeAt(end - 1);
      if (end < pending.length && last >= 0xd800 && last <= 0xdbff) end--; // keep a surrogate pair whole
      report(pending.slice(0, end), OUTPUT_MESSAGE_CHARS);
      pending = pending.slice(end);
    }
  };
  return {
    onEvent(event) {
      if (event.type !== 'chunk') return;
      pending += event.text;
      timer ??= setTimeout(flush, GATHER_MS);
    },
    flush,
  };
}
