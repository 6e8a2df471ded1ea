/**
 * `POST …/invoke?stream=true`: the run as server-sent events (docs/contracts.md, "Schedules, pipelines,
 * streaming"). A refusal before the run (bad arguments, a gate, 404) answers exactly as without
 * `stream` (its HTTP status and JSON error): the event stream starts only when the engine says
 * the call was admitted (onStart). Then one event per InvokeStreamEvent, named by its type
 * (`chunk` `{text}`, `step` `{step}`), and a last `result` event holding the usual invoke answer.
 * The invocation ID travels in the `X-Invocation-ID` header.
 *
 * A client that goes away before the result cancels the run (a person who closed the tab or hit
 * Ctrl-C on curl expects it to stop); so does the host shutting down.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { RESULT_EVENT } from '../../../shared/rest.js';
import type { InvokeResult, InvokeStreamEvent } from '../../../shared/types.js';
import type { TransportCore } from '../../core/operations/transport.js';
import { sendError } from '../http/errors.js';
import type { Caller } from '../../../shared/caller.js';

const KEEP_ALIVE_MS = 15_000;

export interface InvokeStreams {
  /** Runs the call, answering with an event stream once it is admitted. */
  handle(input: Record<string, unknown>, reply: FastifyReply, caller: Caller): Promise<FastifyReply | undefined>;
  /** Cancels every streamed run still going (the host is closing). */
  cancelAll(): Promise<void>;
}

export function invokeStreams(core: TransportCore): InvokeStreams {
  const open = new Map<string, () => void>();
  const cancel = (invocationID: string, caller: Caller) => core.dispatch('tools.cancel', { invocationID }, { caller }).then(() => undefined);

  return {
    async handle(input, reply, caller) {
      let res: ServerResponse | undefined;
      let invocationID: string | undefined;
      let finished = false;
      let beat: NodeJS.Timeout | undefined;
      const send = (event: string, data: unknown) => {
        if (res && !res.destroyed && !res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      const onClose = () => {
        clearInterval(beat);
        if (!finished && invocationID) void cancel(invocationID, caller);
      };
      const env = await core.dispatch('tools.invoke', input, {
        caller,
        stream: {
          onStart(id) {
            invocationID = id;
            reply.hijack();
            res = reply.raw;
            res.writeHead(200, {
              'content-type': 'text/event-stream; charset=utf-8',
              'cache-control': 'no-cache',
              connection: 'keep-alive',
              'x-invocation-id': id,
              'x-accel-buffering': 'no',
            });
            res.flushHeaders();
            res.on('close', onClose);
            beat = setInterval(() => res?.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
            open.set(id, () => void cancel(id, caller));
          },
          onEvent(event: InvokeStreamEvent) {
            const { type, ...data } = event;
            send(type, data);
          },
        },
      });
      if (!res) {
        if (!env.ok) return sendError(reply, env.error);
        return reply.send(env.data);
      }
      finished = true;
      clearInterval(beat);
      if (invocationID) open.delete(invocationID);
      const answer: InvokeResult = env.ok ? env.data : { ok: false, invocationID: invocationID ?? '', error: env.error, durationMs: 0 };
      send(RESULT_EVENT, answer);
      res.end();
      return undefined;
    },
    async cancelAll() {
      for (const stop of open.values()) stop();
    },
  };
}
