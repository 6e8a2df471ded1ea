/** The built renderer at `/`, with its CSP; any other GET outside /tools is the single-page app. */
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { RENDERER_CSP } from './csp.js';
import { sendError } from '../http/errors.js';

export async function rendererStatic(app: FastifyInstance, opts: { rendererDir?: string }): Promise<void> {
  const dir = opts.rendererDir;
  if (dir && existsSync(dir)) {
    await app.register(fastifyStatic, {
      root: dir,
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
    if (dir && req.method === 'GET' && existsSync(dir)) {
      reply.header('Content-Security-Policy', RENDERER_CSP);
      return reply.sendFile('index.html');
    }
    return sendError(reply, {
      code: 'NOT_FOUND',
      message: dir
        ? `nothing at ${req.method} ${req.url.split('?')[0]}`
        : 'not found: the app is not built here (run npm run build:renderer); the API is under /tools',
    });
  });
}
