/**
 * The routes of the operations contract, registered from the shared table (shared/rest.ts): each
 * turns the request into the operation's input and calls the one dispatcher, so validation and
 * error codes are those of IPC. tools.update shares tools.put's PUT, chosen by If-Match; a route
 * marked `stream` answers server-sent events with `?stream=true` (invoke-stream.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { REST_ROUTES, STREAM_QUERY, type RestRoute } from '../../../shared/rest.js';
import type { OpName } from '../../../shared/operations.js';
import type { TransportCore } from '../../core/operations/transport.js';
import { sendError } from '../http/errors.js';
import { BODY_NOT_OBJECT, inputFor, streamRequested } from './request-input.js';
import { invokeStreams } from './invoke-stream.js';
import { ifMatchOf, tagAnswer } from './etags.js';
import { restCaller } from '../http/request-caller.js';

export async function contractRoutes(app: FastifyInstance, opts: { core: TransportCore }): Promise<void> {
  const streams = invokeStreams(opts.core);
  app.addHook('preClose', () => streams.cancelAll());

  const run = async (name: OpName, input: unknown, route: RestRoute, req: FastifyRequest, reply: FastifyReply) => {
    if (input === BODY_NOT_OBJECT) return sendError(reply, { code: 'INVALID_INPUT', message: 'the request body must be a JSON object' });
    const ifMatch = ifMatchOf(name, req);
    const env = await opts.core.dispatch(name, ifMatch === undefined ? input : { ...(input as object), ifMatch }, { caller: restCaller(req) });
    if (!env.ok) return sendError(reply, env.error);
    tagAnswer(name, reply, env.data);
    if (route.status === 204) return reply.code(204).send();
    if (route.unwrap) {
      const data = env.data as Record<string, unknown>;
      return reply.code(data['created'] ? 201 : 200).send(data[route.unwrap]);
    }
    return reply.code(route.status ?? 200).send(env.data);
  };

  for (const [name, route] of Object.entries(REST_ROUTES) as [OpName, RestRoute][]) {
    if (name === 'tools.update' || route.binary) continue; // tools.update shares the PUT route; binaries: transfer-routes.ts
    app.route({
      method: route.method,
      url: route.path,
      handler: async (req, reply) => {
        if (name === 'tools.put' && req.headers['if-match'] !== undefined) {
          return run('tools.update', inputFor(REST_ROUTES['tools.update'], req), REST_ROUTES['tools.update'], req, reply);
        }
        if (route.stream) {
          const stream = streamRequested(req.query as Record<string, unknown>);
          if (stream === 'invalid') {
            return sendError(reply, {
              code: 'INVALID_INPUT',
              message: `${STREAM_QUERY} must be true or false`,
              details: { issues: [{ field: STREAM_QUERY, message: 'must be true or false' }] },
            });
          }
          const input = inputFor(route, req);
          if (stream && input !== BODY_NOT_OBJECT) return streams.handle(input, reply, restCaller(req));
        }
        return run(name, inputFor(route, req), route, req, reply);
      },
    });
  }
}
