/**
 * The headless host's REST transport (DESIGN.md, "REST contract"). Routes come from the shared
 * table in shared/rest.ts; each one turns the request into an operation input and calls the
 * one dispatcher, so validation and error codes are those of IPC. Fastify was chosen for its
 * maintained router (percent-decoded Unicode params), raw-body content parsers and hooks.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { timingSafeEqual, createHash } from 'node:crypto';
import { REST_ROUTES, EVENTS_PATH, LIST_QUERY_KEYS, BOOLEAN_QUERY_KEYS, INTEGER_QUERY_KEYS, type RestRoute } from '../../../shared/rest.js';
import { httpStatusFor, type ApiError } from '../../../shared/errors.js';
import type { OpName } from '../../../shared/operations.js';
import type { Core } from '../../core/app-core.js';
import { RENDERER_CSP } from './csp.js';
import { checkInput, toApiError } from '../../core/operations/dispatch.js';

export interface RestOptions {
  core: Core;
  token: string;
  /** Folder of the built renderer, served at `/`. */
  rendererDir?: string;
  /** Largest import body accepted. */
  maxImportBytes?: number;
}

export { RENDERER_CSP };

const IMPORT_PATH = '/tools/bundles/import';

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(httpStatusFor(error.code)).type('application/json').send({ error });
}

function coerceQuery(route: RestRoute, query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of route.query ?? []) {
    let v = query[key];
    if (v === undefined) continue;
    if (LIST_QUERY_KEYS.has(key)) {
      const parts = (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(',')).map((x) => x.trim()).filter(Boolean);
      out[key] = key === 'bundleIDs' ? parts.map((p) => p.toLowerCase()) : parts;
      continue;
    }
    if (Array.isArray(v)) v = v[v.length - 1];
    if (BOOLEAN_QUERY_KEYS.has(key)) {
      // `?includeDisabled` alone, `True`, `1` and `yes` all mean true; anything unknown is left for the contract to refuse.
      const b = String(v).trim().toLowerCase();
      out[key] = b === '' || b === 'true' || b === '1' || b === 'yes' ? true : b === 'false' || b === '0' || b === 'no' ? false : v;
    }
    else if (INTEGER_QUERY_KEYS.has(key)) out[key] = /^\d{1,9}$/.test(String(v)) ? Number(v) : v;
    else out[key] = v;
  }
  return out;
}

function inputFor(route: RestRoute, req: FastifyRequest): Record<string, unknown> {
  const params = (req.params ?? {}) as Record<string, string>;
  const input: Record<string, unknown> = coerceQuery(route, (req.query ?? {}) as Record<string, unknown>);
  if (route.body === '*') {
    if (req.body !== undefined && req.body !== null) {
      if (typeof req.body !== 'object' || Array.isArray(req.body)) return { ...input, __bodyNotObject: true };
      Object.assign(input, req.body as object);
    }
  } else if (route.body) input[route.body] = req.body ?? {};
  // The path names the resource: a body key of the same name (bundleID, slug, name…) never redirects the call.
  for (const p of route.params ?? []) input[p] = p === 'bundleID' ? String(params[p]).toLowerCase() : params[p];
  return input;
}

export async function createRestServer(opts: RestOptions): Promise<FastifyInstance> {
  const { core } = opts;
  const tokenDigest = digest(opts.token);
  // Foreign documents (OpenAPI, SKILL.md, container folders) can be large; ZIPs have their own limit below.
  const app = Fastify({
    logger: false,
    bodyLimit: 32 * 1024 * 1024,
    // `/tools/bundles/` is `/tools/bundles`, not a bundle with an empty ID.
    routerOptions: { maxParamLength: 2048, ignoreTrailingSlash: true },
    // Errors Fastify answers before routing (a path that is not valid percent-encoded UTF-8,
    // an overlong segment) keep the contract's error shape too.
    frameworkErrors: (err, _req, reply) => {
      const message =
        err.code === 'FST_ERR_BAD_URL'
          ? 'the path is not valid percent-encoded UTF-8; encode slugs and versions with encodeURIComponent'
          : `invalid request: ${err.message}`;
      void sendError(reply, { code: 'INVALID_INPUT', message });
    },
  });

  // The same-origin rule, server side: a page on another origin (CSRF) or a name that merely
  // resolves to 127.0.0.1 (DNS rebinding) never gets an answer.
  app.addHook('onRequest', async (req, reply) => {
    const port = req.socket.localPort;
    const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
    const host = String(req.headers.host ?? '').toLowerCase();
    if (!allowedHosts.has(host)) {
      return sendError(reply, { code: 'FORBIDDEN', message: `Host '${host}' is not this server; use http://127.0.0.1:${port}` });
    }
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== 'null' && !allowedHosts.has(origin.replace(/^http:\/\//, '').toLowerCase())) {
      return sendError(reply, { code: 'FORBIDDEN', message: `requests from origin '${origin}' are refused` });
    }
    if (origin === 'null') return sendError(reply, { code: 'FORBIDDEN', message: 'requests from an opaque origin are refused' });
    // The router decodes the path (`/%74ools/bundles` reaches `/tools/bundles`), so the matched
    // route decides, not the raw URL.
    if (req.url.startsWith('/tools') || (req.routeOptions.url ?? '').startsWith('/tools')) {
      const auth = String(req.headers.authorization ?? '');
      const m = /^Bearer\s+(.+)$/i.exec(auth);
      if (!m || !timingSafeEqual(digest(m[1]!.trim()), tokenDigest)) {
        reply.header('WWW-Authenticate', 'Bearer realm="toolwright"');
        return sendError(reply, {
          code: 'UNAUTHORIZED',
          message: m ? 'the bearer token is wrong' : 'missing Authorization: Bearer <token> header (the token is printed when the host starts, or set TOOLWRIGHT_TOKEN)',
        });
      }
    }
    return undefined;
  });

  const maxImportBytes = opts.maxImportBytes ?? 512 * 1024 * 1024;
  app.addContentTypeParser(['application/zip', 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: maxImportBytes }, (_req, body, done) =>
    done(null, body),
  );
  // Bodies are JSON whatever the client called them: fetch() labels a string body text/plain,
  // some clients send none, and many send Content-Type: application/json on every request,
  // even a DELETE or a restore without a body. Fastify's own parser (prototype-poisoning
  // checks included) does the parsing; an empty body is simply no body.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const jsonBody = (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return parseJson(req, text, (err, value) =>
      err ? done(Object.assign(new Error('the request body is not valid JSON; send a JSON object'), { statusCode: 400 })) : done(null, value),
    );
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
    if (status === 415) return sendError(reply, { code: 'INVALID_INPUT', message: `unsupported Content-Type; send application/json (or application/zip for imports)` });
    if (status >= 400 && status < 500) return sendError(reply, { code: 'INVALID_INPUT', message: `invalid request: ${err.message}` });
    return sendError(reply, { code: 'INTERNAL', message: `unexpected error: ${err.message}` });
  });

  const run = async (name: OpName, input: unknown, route: RestRoute, reply: FastifyReply) => {
    if (input && typeof input === 'object' && '__bodyNotObject' in input) {
      return sendError(reply, { code: 'INVALID_INPUT', message: 'the request body must be a JSON object' });
    }
    const env = await core.dispatch(name, input, { transport: 'rest' });
    if (!env.ok) return sendError(reply, env.error);
    if (route.status === 204) return reply.code(204).send();
    if (route.unwrap) {
      const data = env.data as Record<string, unknown>;
      return reply.code(data['created'] ? 201 : 200).send(data[route.unwrap]);
    }
    return reply.code(route.status ?? 200).send(env.data);
  };

  for (const [name, route] of Object.entries(REST_ROUTES) as [OpName, RestRoute][]) {
    if (name === 'tools.update' || route.binary) continue; // tools.update shares the PUT route; binaries below
    app.route({
      method: route.method,
      url: route.path,
      handler: async (req, reply) => {
        if (name === 'tools.put' && req.headers['if-match'] !== undefined) {
          const tag = String(req.headers['if-match']).trim().replace(/^W\//, '').replace(/^"|"$/g, '');
          const input = { ...inputFor(REST_ROUTES['tools.update'], req), ifModifiedAt: tag };
          return run('tools.update', input, REST_ROUTES['tools.update'], reply);
        }
        return run(name, inputFor(route, req), route, reply);
      },
    });
  }

  // Exports stream straight from the zip writer; the input is checked against the contract
  // first, and every validation error comes before the first byte.
  const sendZip = async (bundleIDs: string[], reply: FastifyReply) => {
    const invalidInput = checkInput('bundles.export', { bundleIDs });
    if (invalidInput) return sendError(reply, invalidInput);
    let opened;
    try {
      opened = await core.transfer.openExport(bundleIDs);
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
  app.post(IMPORT_PATH, { bodyLimit: maxImportBytes }, async (req, reply) => {
    if (!Buffer.isBuffer(req.body)) {
      return sendError(reply, { code: 'INVALID_INPUT', message: 'send the ZIP as the request body with Content-Type: application/zip' });
    }
    const q = coerceQuery(REST_ROUTES['bundles.import'], req.query as Record<string, unknown>);
    const env = await core.dispatch('bundles.import', { zip: new Uint8Array(req.body), ...q }, { transport: 'rest' });
    if (!env.ok) return sendError(reply, env.error);
    return reply.code(200).send(env.data);
  });

  // Open event streams never end by themselves: closing the server ends them, or app.close()
  // (and with it Ctrl-C on `npm run serve`) would wait for every open browser tab.
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });
  app.get(EVENTS_PATH, (req, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(': connected\n\n');
    const onEvent = (e: unknown) => res.write(`data: ${JSON.stringify(e)}\n\n`);
    core.events.on('event', onEvent);
    const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    // Unsubscribe before ending: a write after end() is an 'error' event nobody listens to.
    const end = () => {
      if (!streams.delete(end)) return;
      clearInterval(beat);
      core.events.off('event', onEvent);
      res.end();
    };
    streams.add(end);
    req.raw.on('close', end);
  });

  app.all('/tools/*', async (req, reply) =>
    sendError(reply, { code: 'NOT_FOUND', message: `no API route ${req.method} ${req.url.split('?')[0]}; see DESIGN.md for the REST contract` }),
  );

  if (opts.rendererDir && existsSync(opts.rendererDir)) {
    await app.register(fastifyStatic, {
      root: opts.rendererDir,
      index: ['index.html'],
      setHeaders: (res) => {
        res.header('Content-Security-Policy', RENDERER_CSP);
        res.header('X-Content-Type-Options', 'nosniff');
        res.header('Referrer-Policy', 'no-referrer');
      },
    });
  }
  app.setNotFoundHandler(async (req, reply) => {
    if (req.url.startsWith('/tools')) return sendError(reply, { code: 'NOT_FOUND', message: `no API route ${req.method} ${req.url.split('?')[0]}` });
    if (opts.rendererDir && req.method === 'GET' && existsSync(opts.rendererDir)) {
      reply.header('Content-Security-Policy', RENDERER_CSP);
      return reply.sendFile('index.html');
    }
    return reply.code(404).type('text/plain').send('Not found. The renderer is not built: run npm run build:renderer');
  });
  return app;
}

