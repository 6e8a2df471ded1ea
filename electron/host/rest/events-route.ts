/**
 * GET /tools/events: server-sent events of every store change. Open streams never end by
 * themselves, so closing the server ends them, or app.close() (and with it Ctrl-C on
 * `npm run serve`) would wait for every open browser tab.
 */
import type { FastifyInstance } from 'fastify';
import { EVENTS_PATH } from '../../../shared/rest.js';
import type { StoreEvent } from '../../../shared/operations.js';
import type { TransportCore } from '../../core/operations/transport.js';

export async function eventsRoute(app: FastifyInstance, opts: { core: TransportCore }): Promise<void> {
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });
  app.get(EVENTS_PATH, (req, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(': connected\n\n');
    const onEvent = (e: StoreEvent) => res.write(`data: ${JSON.stringify(e)}\n\n`);
    opts.core.events.on('event', onEvent);
    const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    // Unsubscribe before ending: a write after end() is an 'error' event nobody listens to.
    const end = () => {
      if (!streams.delete(end)) return;
      clearInterval(beat);
      opts.core.events.off('event', onEvent);
      res.end();
    };
    streams.add(end);
    req.raw.on('close', end);
  });
}
