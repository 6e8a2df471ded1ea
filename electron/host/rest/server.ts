/**
 * The REST transport (docs/contracts.md, "REST contract") as one Fastify plugin: the contract's
 * routes, the ZIP routes, the event stream, and a contract-shaped 404 for any other /tools path.
 * The HTTP host (host/http-host.ts) mounts it behind the guard and the body parsers, beside MCP.
 * Fastify was chosen for its maintained router (percent-decoded Unicode params), raw-body content
 * parsers, hooks and plugin encapsulation.
 */
import type { FastifyInstance } from 'fastify';
import type { TransportCore } from '../../core/operations/transport.js';
import { sendError } from '../http/errors.js';
import { contractRoutes } from './contract-routes.js';
import { transferRoutes } from './transfer-routes.js';
import { eventsRoute } from './events-route.js';

export async function restRoutes(app: FastifyInstance, opts: { core: TransportCore; maxImportBytes: number }): Promise<void> {
  await app.register(contractRoutes, { core: opts.core });
  await app.register(transferRoutes, { core: opts.core, maxImportBytes: opts.maxImportBytes });
  await app.register(eventsRoute, { core: opts.core });
  app.all('/tools/*', async (req, reply) =>
    sendError(reply, { code: 'NOT_FOUND', message: `no API route ${req.method} ${req.url.split('?')[0]}; see docs/contracts.md for the REST contract` }),
  );
}
