/**
 * Bundles as ZIP bytes. Exports stream straight from the zip writer (the input is checked
 * against the contract first, so every validation error comes before the first byte); imports
 * take the raw body, with their own size limit.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { REST_ROUTES } from '../../../shared/rest.js';
import type { TransportCore } from '../../core/operations/transport.js';
import { checkInput } from '../../core/operations/dispatch.js';
import { toApiError } from '../../core/errors.js';
import { sendError } from '../http/errors.js';
import { coerceQuery } from './request-input.js';
import { IMPORT_PATH } from '../http/parsers.js';
import { restCaller } from '../http/request-caller.js';

export async function transferRoutes(app: FastifyInstance, opts: { core: TransportCore; maxImportBytes: number }): Promise<void> {
  const { core } = opts;
  const sendZip = async (bundleIDs: string[], reply: FastifyReply) => {
    const invalidInput = checkInput('bundles.export', { bundleIDs });
    if (invalidInput) return sendError(reply, invalidInput);
    let opened;
    try {
      opened = await core.openExport(bundleIDs);
    } catch (e) {
      return sendError(reply, toApiError(e));
    }
    const ascii = opened.fileName.replace(/[^A-Za-z0-9._-]/g, '_');
    return reply
      .code(200)
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(opened.fileName)}`)
      .send(opened.stream);
  };
  app.get('/tools/bundles/export', async (req, reply) => {
    const q = coerceQuery(REST_ROUTES['bundles.export'], req.query as Record<string, unknown>);
    return sendZip((q['bundleIDs'] as string[] | undefined) ?? [], reply);
  });
  app.get('/tools/bundles/:bundleID/export', async (req, reply) => sendZip([String((req.params as Record<string, string>)['bundleID']).toLowerCase()], reply));
  app.post(IMPORT_PATH, { bodyLimit: opts.maxImportBytes }, async (req, reply) => {
    if (!Buffer.isBuffer(req.body)) {
      return sendError(reply, { code: 'INVALID_INPUT', message: 'send the ZIP as the request body with Content-Type: application/zip' });
    }
    const q = coerceQuery(REST_ROUTES['bundles.import'], req.query as Record<string, unknown>);
    const env = await core.dispatch('bundles.import', { zip: new Uint8Array(req.body), ...q }, { caller: restCaller(req) });
    if (!env.ok) return sendError(reply, env.error);
    return reply.code(200).send(env.data);
  });
}
