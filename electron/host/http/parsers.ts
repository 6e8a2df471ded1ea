/**
 * Request bodies. ZIPs are raw bytes (their own size limit); everything else is JSON whatever
 * the client called it: fetch() labels a string body text/plain, some clients send none, and
 * many send Content-Type: application/json on every request, even a DELETE without a body.
 * secure-json-parse (Fastify's own parser, prototype-poisoning checks included) does the parsing; an empty body is
 * simply no body. Parser and framework failures keep the contract's error shape.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { sendError } from './errors.js';

export const IMPORT_PATH = '/tools/bundles/import';

/**
 * Keys named __proto__ (and constructor.prototype) are refused in every body: JavaScript gives them
 * a meaning no other name has, so accepting them would mean auditing every merge for good.
 */
function bodyError(err: Error): string {
  if (/prototype/i.test(err.message)) {
    return 'the request body has a key named "__proto__" or "constructor": {"prototype": …}; such keys are refused everywhere because JavaScript treats them specially. Rename the key';
  }
  return 'the request body is not valid JSON; send a JSON object';
}

export const parsersPlugin = fp<{ maxImportBytes: number }>(
  async (app: FastifyInstance, opts) => {
    app.addContentTypeParser(['application/zip', 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: opts.maxImportBytes }, (_req, body, done) =>
      done(null, body),
    );
    const jsonBody = (_req: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      let value: unknown;
      try {
        value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
      } catch (err) {
        return done(Object.assign(new Error(bodyError(err as Error)), { statusCode: 400 }));
      }
      return done(null, value);
    };
    app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonBody);
    app.addContentTypeParser('text/plain', { parseAs: 'string' }, jsonBody);
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
      // A ZIP sent without a Content-Type (fetch() with a Uint8Array body) is still a ZIP.
      if (req.routeOptions.url === IMPORT_PATH) return done(null, body);
      return jsonBody(req, body, done);
    });

    app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, _req, reply) => {
      const status = err.statusCode ?? 500;
      if (status === 413) return sendError(reply, { code: 'PAYLOAD_TOO_LARGE', message: `the request body is too large: ${err.message}` });
      if (status === 415)
        return sendError(reply, { code: 'INVALID_INPUT', message: `unsupported Content-Type; send application/json (or application/zip for imports)` });
      if (status >= 400 && status < 500) return sendError(reply, { code: 'INVALID_INPUT', message: `invalid request: ${err.message}` });
      return sendError(reply, { code: 'INTERNAL', message: `unexpected error: ${err.message}` });
    });
  },
  { name: 'toolwright-parsers' },
);
