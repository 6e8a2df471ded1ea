/** A running headless host (core + REST server on 127.0.0.1) on a temporary data directory. */
import { rm } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { createCore, type Core, type CoreOptions } from '../../electron/core/app-core.js';
import { createHttpHost, type HttpHostOptions } from '../../electron/host/http-host.js';
import { tempDir } from './store.js';

export interface TestHost {
  url: string;
  port: number;
  token: string;
  core: Core;
  app: FastifyInstance;
  dataDir: string;
  /** fetch with the bearer token and JSON handling. */
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

type HostOptions = Partial<CoreOptions> & Pick<HttpHostOptions, 'oauth' | 'trustedProxy' | 'publicUrl' | 'isReady'> & { rendererDir?: string };

export async function startHost(opts: HostOptions = {}): Promise<TestHost> {
  const dataDir = opts.dataDir ?? (await tempDir('tw-host-'));
  const token = 'test-token-' + Math.random().toString(36).slice(2);
  const core = await createCore({ docker: false, ...opts, dataDir });
  const app = await createHttpHost({
    core,
    token,
    mcp: true,
    ...(opts.rendererDir ? { rendererDir: opts.rendererDir } : {}),
    ...(opts.oauth ? { oauth: opts.oauth } : {}),
    ...(opts.trustedProxy ? { trustedProxy: opts.trustedProxy } : {}),
    ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
    ...(opts.isReady ? { isReady: opts.isReady } : {}),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    token,
    core,
    app,
    dataDir,
    async api(method, path, body, headers = {}) {
      const res = await fetch(url + path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined && !(body instanceof Uint8Array) ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: body instanceof Uint8Array ? (body as unknown as BodyInit) : JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async close() {
      await app.close();
      await core.close();
      if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The body of a PUT that makes a core.calc function tool; `extra` says what a test is about. */
export const calcToolBody = (extra: Record<string, unknown> = {}) => ({
  type: 'function',
  displayName: 'Calc',
  description: 'arithmetic',
  impl: { function: 'core.calc' },
  argSchema: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
  ...extra,
});
