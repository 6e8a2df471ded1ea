/**
 * `POST …/invoke?stream=true` end to end through the real host: chunk events as the upstream
 * sends them (the upstream holds its second half until the first reached the client), an SSE
 * upstream event by event, the byte cap across chunks, a secret split across two chunks,
 * refusals answered as without `stream`, a client that goes away cancelling the run, and a
 * container tool whose stdout lines stream and which a cancel from outside stops and removes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import Dockerode from 'dockerode';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-http.js';
import { chunkText, postSse } from '../../../helpers/sse.js';
import { dockerCli, dockerTestsEnabled, ensureProbeImage } from '../../../helpers/docker.js';
import { LABEL_INVOCATION } from '../../../../electron/core/tool-types/container/labels.js';

const dockerOn = await dockerTestsEnabled();
const SECRET = 'sk-test-9f8e7d6c5b4a';

let h: TestHost;
let upstream: LoopbackServer;
let bundleID: string;
let release: () => void = () => undefined;
const closedUpstreams: string[] = [];

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function watchClose(res: ServerResponse, name: string): void {
  res.on('close', () => closedUpstreams.push(name));
}

const invokeUrl = (slug: string) => `${h.url}/tools/bundles/${bundleID}/tools/${slug}/version/v1/invoke?stream=true`;
const stream = (slug: string, body: unknown = {}, opts: Parameters<typeof postSse>[3] = {}) => postSse(invokeUrl(slug), h.token, body, opts);

async function httpTool(slug: string, path: string, extra: Record<string, unknown> = {}): Promise<void> {
  const put = await h.api('PUT', `/tools/bundles/${bundleID}/tools/${slug}/version/v1`, {
    type: 'http',
    impl: { method: 'GET', urlTemplate: upstream.url(path), responseEncoding: 'text', timeoutMs: 30_000 },
    argSchema: { type: 'object', properties: { n: { type: 'integer' } } },
    ...extra,
  });
  expect(put.status).toBe(201);
}

beforeAll(async () => {
  h = await startHost({ docker: dockerOn });
  upstream = await startLoopbackServer();
  await h.api('PATCH', '/tools/config', { allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true });
  expect((await h.api('PUT', `/tools/secrets/API_TOKEN`, { value: SECRET })).status).toBe(200);
  bundleID = uuidv7();
  await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'streams' });

  upstream.route('/halves', async (_req, res) => {
    const gate = deferred();
    release = gate.resolve;
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.write('first half, ');
    await gate.promise;
    res.end('second half');
  });
  upstream.route('/events', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': comment\n\ndata: {"delta":"Hel"}\n\n');
    res.write('event: token\ndata: {"delta":"lo"}\n\ndata: [DONE]\n\n');
    res.end();
  });
  upstream.route('/many', async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    for (let i = 0; i < 10; i++) {
      res.write(`chunk-${i}-${'x'.repeat(12)}|`);
      await new Promise((r) => setTimeout(r, 5));
    }
    res.end();
  });
  upstream.route('/leak', async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write(`token=${SECRET.slice(0, 9)}`);
    await new Promise((r) => setTimeout(r, 50));
    res.end(`${SECRET.slice(9)}; done`);
  });
  upstream.route('/forever', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('tick\n');
    const timer = setInterval(() => res.write('tick\n'), 100);
    res.on('close', () => clearInterval(timer));
    watchClose(res, 'forever');
  });
  await httpTool('halves', '/halves');
  await httpTool('events', '/events');
  await httpTool('many', '/many', { limits: { maxOutputBytes: 64 } });
  await httpTool('leak', '/leak');
  await httpTool('forever', '/forever');
}, 60_000);

afterAll(async () => {
  await upstream?.close();
  await h?.close();
});

describe('POST …/invoke?stream=true', () => {
  it('sends chunk events as the upstream sends them, then the usual answer as the result event', async () => {
    const answer = await stream(
      'halves',
      {},
      {
        onEvent: (e) => {
          // The upstream holds its second half until the first one reached this client.
          if (e.event === 'chunk') release();
        },
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const chunks = answer.events.filter((e) => e.event === 'chunk').map((e) => e.data);
    expect(chunks[0]).toEqual({ text: 'first half, ' });
    expect(chunkText(answer.events)).toBe('first half, second half');
    const last = answer.events.at(-1)!;
    expect(last.event).toBe('result');
    expect(last.data).toMatchObject({ ok: true, value: 'first half, second half' });
    expect(answer.headers.get('x-invocation-id')).toBe(last.data.invocationID);
    expect(answer.events.filter((e) => e.event === 'result')).toHaveLength(1);
  });

  it('passes a text/event-stream upstream on event by event', async () => {
    const answer = await stream('events');
    expect(answer.events.filter((e) => e.event === 'chunk').map((e) => e.data.text)).toEqual(['{"delta":"Hel"}\n', '{"delta":"lo"}\n', '[DONE]\n']);
    expect(answer.events.at(-1)).toMatchObject({ event: 'result', data: { ok: true } });
  });

  it('stops chunks at maxOutputBytes across the whole stream, and says so and where in a last chunk and in the result', async () => {
    const answer = await stream('many');
    const chunks = answer.events.filter((e) => e.event === 'chunk').map((e) => e.data.text as string);
    const notice = chunks.pop()!;
    const text = chunks.join('');
    expect(Buffer.byteLength(text)).toBe(64);
    expect(text).toBe('chunk-0-xxxxxxxxxxxx|chunk-1-xxxxxxxxxxxx|chunk-2-xxxxxxxxxxxx|c');
    // Worded like the cut of a value (truncate.ts), plus where the stream stopped.
    expect(notice).toBe('… [truncated: original 210 bytes; the stream stopped after 64]');
    const result = answer.events.at(-1)!.data;
    expect(result.ok).toBe(true);
    expect(result.streamTruncated).toEqual({ originalBytes: 210, sentBytes: 64 });
    expect(result.truncated.originalBytes).toBeGreaterThan(210); // the value, as JSON text
  });

  it('never lets a secret out, even split across two chunks', async () => {
    const answer = await stream('leak');
    const raw = JSON.stringify(answer.events);
    expect(raw).not.toContain(SECRET);
    expect(raw).not.toContain(SECRET.slice(3, 12));
    expect(chunkText(answer.events)).toBe('token=[redacted]; done');
  });

  it('answers a refusal before the run exactly as without stream: status and JSON error', async () => {
    const bad = await stream('halves', { args: { n: 'three' } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/^application\/json/);
    expect(bad.body.error.code).toBe('INVALID_ARGS');
    const plain = await h.api('POST', `/tools/bundles/${bundleID}/tools/halves/version/v1/invoke`, { args: { n: 'three' } });
    expect(plain.body).toEqual(bad.body);
    const missing = await postSse(`${h.url}/tools/bundles/${bundleID}/tools/nope/version/v1/invoke?stream=true`, h.token, {});
    expect(missing.status).toBe(404);
    const odd = await postSse(invokeUrl('halves').replace('stream=true', 'stream=maybe'), h.token, {});
    expect(odd.status).toBe(400);
    expect(odd.body.error.message).toContain('stream must be true or false');
    await h.api('PATCH', `/tools/bundles/${bundleID}/tools/halves/version/v1`, { isEnabled: false });
    const off = await stream('halves');
    expect(off.status).toBe(409);
    expect(off.body.error.code).toBe('TOOL_DISABLED');
    await h.api('PATCH', `/tools/bundles/${bundleID}/tools/halves/version/v1`, { isEnabled: true });
  });

  it('cancels the run when the client goes away, and the upstream request with it', async () => {
    const controller = new AbortController();
    let invocationID = '';
    await stream(
      'forever',
      {},
      {
        signal: controller.signal,
        onEvent: (e, all) => {
          if (all.filter((x) => x.event === 'chunk').length === 2) controller.abort();
        },
      },
    ).then((a) => (invocationID = a.headers.get('x-invocation-id') ?? ''));
    for (let i = 0; i < 100 && !closedUpstreams.includes('forever'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(closedUpstreams).toContain('forever');
    await h.core.history.flush();
    const history = await h.api('GET', `/tools/bundles/${bundleID}/tools/forever/version/v1/history`);
    expect(history.body.items[0]).toMatchObject({ status: 'cancelled' });
    if (invocationID) expect(history.body.items[0].invocationID).toBe(invocationID);
  });
});

describe.skipIf(!dockerOn)('streamed container tools (requires Docker)', () => {
  beforeAll(async () => {
    const image = await ensureProbeImage(new Dockerode());
    const put = await h.api('PUT', `/tools/bundles/${bundleID}/tools/probe/version/v1`, {
      type: 'container',
      impl: { image, timeoutSeconds: 60 },
      argSchema: { type: 'object', properties: { mode: { type: 'string' }, say: { type: 'string' } } },
    });
    expect(put.status).toBe(201);
  }, 120_000);

  it('streams stdout lines; the last JSON line is the result', async () => {
    const answer = await stream('probe', { args: { mode: 'stream' } });
    expect(answer.events.filter((e) => e.event === 'chunk').map((e) => e.data.text)).toEqual([
      'step 1 of 3\n',
      'step 2 of 3\n',
      'step 3 of 3\n',
      '{"text":"streamed"}\n',
    ]);
    expect(answer.events.at(-1)).toMatchObject({ event: 'result', data: { ok: true, value: { text: 'streamed' } } });
  });

  it('redacts a secret the container prints', async () => {
    const answer = await stream('probe', { args: { mode: 'say', say: SECRET } });
    expect(JSON.stringify(answer.events)).not.toContain(SECRET);
    expect(chunkText(answer.events)).toContain('the value is [redacted]\n');
  });

  it('a cancel from outside stops the run mid-stream and removes its container', async () => {
    const invocationID = `rest-cancel-${uuidv7()}`;
    let cancel: Promise<{ status: number; body: any }> | undefined;
    const answer = await stream(
      'probe',
      { args: { mode: 'ticker' }, invocationID },
      {
        onEvent: (_e, all) => {
          if (!cancel && all.filter((x) => x.event === 'chunk').length === 3) cancel = h.api('POST', `/tools/invocations/${invocationID}/cancel`);
        },
      },
    );
    expect((await cancel)?.body).toEqual({ cancelled: true });
    expect(chunkText(answer.events).startsWith('tick 1\ntick 2\ntick 3\n')).toBe(true);
    expect(answer.events.at(-1)).toMatchObject({ event: 'result', data: { ok: false, invocationID, error: { code: 'CANCELLED' } } });
    expect(await dockerCli(['ps', '-a', '--quiet', '--filter', `label=${LABEL_INVOCATION}=${invocationID}`])).toBe('');
  });
});
