/**
 * Progress notifications of a tools/call whose request carried a progressToken: one count per
 * request, so progress only grows across the approval wait and the run, as MCP requires; and the
 * tool's output as it arrives, as the notifications' `message` (partial text), gathered over a
 * few milliseconds so a tool printing many short lines does not send one notification each.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { InvokeStreamEvent } from '../../../../shared/types.js';

/** Status lines (approval waits, image builds) are short; output pieces may be longer. */
const STATUS_CHARS = 500;
export const OUTPUT_MESSAGE_CHARS = 4000;
const GATHER_MS = 50;
/**
 * SDK clients handle a notification a microtask after a response that came in the same read, by
 * which time the request's progress handler is gone (modelcontextprotocol/typescript-sdk#2580):
 * a short pause between the last output and the result keeps them in separate reads.
 */
const SETTLE_MS = 20;

const progressSteps = new WeakMap<ServerContext, number>();

export type Report = (message: string, limit?: number) => Promise<void>;

/** Sends one progress notification with a message (settles once sent), or undefined when the request asked for none. */
export function progressOf(ctx: ServerContext): Report | undefined {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  return (message, limit = STATUS_CHARS) => {
    const progress = (progressSteps.get(ctx) ?? 0) + 1;
    progressSteps.set(ctx, progress);
    return ctx.mcpReq
      .notify({ method: 'notifications/progress', params: { progressToken, progress, message: message.slice(0, limit) } })
      .catch(() => undefined);
  };
}

/**
 * Output chunks → progress messages of at most OUTPUT_MESSAGE_CHARS each, in order. flush()
 * sends what waits and settles once every message went out: the result must not overtake
 * them, or the client, done with the request, would drop them.
 */
export function outputProgress(report: Report): { onEvent: (e: InvokeStreamEvent) => void; flush: () => Promise<void> } {
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const sent: Promise<void>[] = [];
  const send = () => {
    clearTimeout(timer);
    timer = undefined;
    while (pending) {
      let end = Math.min(pending.length, OUTPUT_MESSAGE_CHARS);
      const last = pending.charCodeAt(end - 1);
      if (end < pending.length && last >= 0xd800 && last <= 0xdbff) end--; // keep a surrogate pair whole
      sent.push(report(pending.slice(0, end), OUTPUT_MESSAGE_CHARS));
      pending = pending.slice(end);
    }
  };
  return {
    onEvent(event) {
      if (event.type !== 'chunk') return;
      pending += event.text;
      timer ??= setTimeout(send, GATHER_MS);
    },
    async flush() {
      send();
      if (sent.length === 0) return;
      await Promise.all(sent.splice(0));
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    },
  };
}
