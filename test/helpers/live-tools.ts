/**
 * What the streaming tests of every transport (REST's SSE aside) run against: a loopback
 * upstream and, in a bundle `live` of a test host, two http tools that call it —
 * `halves` answers a first line, then its second once the test releases it; `forever` ticks
 * every 100 ms until its client goes away (the open responses say whether a cancel reached it).
 */
import type { ServerResponse } from 'node:http';
import { v7 as uuidv7 } from 'uuid';
import type { TestHost } from './host.js';
import { startLoopbackServer, type LoopbackServer } from './loopback-http.js';

export interface LiveTools {
  upstream: LoopbackServer;
  bundleID: string;
  /** `forever` responses still open. */
  open: ReadonlySet<ServerResponse>;
  /** Lets the running `halves` answer its second line. */
  releaseSecond(): void;
}

export async function setUpLiveTools(h: TestHost): Promise<LiveTools> {
  const upstream = await startLoopbackServer();
  const open = new Set<ServerResponse>();
  let release: () => void = () => undefined;
  upstream.route('/halves', async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('first line\n');
    await new Promise<void>((resolve) => (release = resolve));
    res.end('second line\n');
  });
  upstream.route('/forever', (_req, res) => {
    open.add(res);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('tick\n');
    const timer = setInterval(() => res.write('tick\n'), 100);
    res.on('close', () => {
      clearInterval(timer);
      open.delete(res);
    });
  });
  await h.api('PATCH', '/tools/config', { allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true });
  const bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'live' });
  for (const slug of ['halves', 'forever']) {
    const put = await h.api('PUT', `/tools/bundles/${bundleID}/tools/${slug}/version/v1`, {
      type: 'http',
      impl: { method: 'GET', urlTemplate: upstream.url(`/${slug}`), responseEncoding: 'text', timeoutMs: 60_000 },
      argSchema: { type: 'object', properties: {} },
    });
    if (put.status !== 201) throw new Error(`could not save the ${slug} tool: HTTP ${put.status}`);
  }
  return { upstream, bundleID, open, releaseSecond: () => release() };
}
