/** Every error the REST host answers has the contract's shape `{error:{code, message, details?}}`. */
import type { FastifyReply } from 'fastify';
import { httpStatusFor, type ApiError } from '../../../shared/errors.js';

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(httpStatusFor(error.code)).type('application/json').send({ error });
}
