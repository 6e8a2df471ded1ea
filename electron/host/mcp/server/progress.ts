/**
 * Progress notifications of a tools/call whose request carried a progressToken: one count per
 * request, so progress only grows across the approval wait and the run, as MCP requires; the
 * tool's output as it arrives, as the notifications' `message` (partial text), gathered over a
 * few milliseconds so a tool printing many short lines does not send one notification each;
 * and every progress notification of an upstream server, passed on as it was sent (`progress`,
 * `total`, `message` when there is one), shifted only if Toolwright's own notifications (an
 * approval wait) already counted past it.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { InvokeStreamEvent, ProgressUpdate } from '../../../../shared/types.js';

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

/** Per request: the last progress sent, and how far an upstream server's counts are shifted past Toolwright's own. */
const progressSteps = new WeakMap<ServerContext, { last: number; shift: number }>();

/** Sends one progress notification with a message (settles once sent); `forward` passes an upstream server's on. */
export type Report = ((message: string, limit?: number) => Promise<void>) & { forward(update: ProgressUpdate): Promise<void> };

/** The request's progress reporter, or undefined when the request asked for none. */
export function progressOf(ctx: ServerContext): Report | undefined {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  const notify = (params: { progress: number; total?: number; message?: string }) =>
    ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...params } }).catch(() => undefined);
  const report = (message: string, limit = STATUS_CHARS) => {
    const step = progressSteps.get(ctx);
    const progress = (step?.last ?? 0) + 1;
    progressSteps.set(ctx, { last: progress, shift: step?.shift ?? 0 });
    return notify({ progress, message: message.slice(0, limit) });
  };
  const forward = (update: ProgressUpdate) => {
    const step = progressSteps.get(ctx);
    let shift = step?.shift ?? 0;
    if (step && update.progress + shift <= step.last) shift = step.last + 1 - update.progress;
    const progress = update.progress + shift;
    progressSteps.set(ctx, { last: progress, shift });
    return notify({
      progress,
      ...(update.total !== undefined ? { total: update.total + shift } : {}),
      ...(update.message !== undefined ? { message: update.message.slice(0, OUTPUT_MESSAGE_CHARS) } : {}),
    });
  };
  return Object.assign(report, { forward });
}

/**
 * Output chunks → progress messages of at most OUTPUT_MESSAGE_CHARS each, in order, and
 * progress events as they are; the chunk that restates a progress event's message (the upstream
 * runner emits both) is not sent again: the message went out with its progress. flush()
 * sends what waits and settles once every message went out: the result must not overtake
 * them, or the client, done with the request, would drop them.
 */
export function outputProgress(report: Report): { onEvent: (e: InvokeStreamEvent) => void; flush: () => Promise<void> } {
  let pending = '';
  /** Text of progress messages whose restating chunks are still to come. */
  let restated = '';
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
      if (event.type === 'progress') {
        // After the output that came before it, at once: an agent resets its timeout on it.
        send();
        sent.push(report.forward(event));
        if (event.message) restated += event.message.endsWith('\n') ? event.message : `${event.message}\n`;
        return;
      }
      if (event.type !== 'chunk') return;
      let text = event.text;
      if (restated) {
        let same = 0;
        while (same < text.length && same < restated.length && text[same] === restated[same]) same++;
        restated = same === text.length ? restated.slice(same) : '';
        text = text.slice(same);
      }
      if (!text) return;
      pending += text;
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
