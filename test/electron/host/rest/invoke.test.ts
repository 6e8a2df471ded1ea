import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';

const CORE = '0190a000-0000-7000-8000-00000000c0e0';
let h: TestHost;
let upstream: Server;
let upstreamPort: number;
const seen: { url: string; headers: Record<string, unknown> }[] = [];

beforeAll(async () => {
  h = await startHost();
  upstream = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    if (req.url?.startsWith('/slow')) {
      setTimeout(() => res.end('{"late":true}'), 5000);
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ city: new URL(req.url ?? '/', 'http://x').searchParams.get('q'), temp: 21, echoedKey: req.headers['x-key'] }));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamPort = (upstream.address() as AddressInfo).port;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
  await h.close();
});

const calc = (body: unknown) => h.api('POST', `/tools/bundles/${CORE}/tools/calc/version/v1/invoke`, body);

describe('invoke over REST', () => {
  it('runs a built-in function tool and answers {ok:true, value} with the duration; metrics and history follow', async () => {
    const res = await calc({ args: { expression: '2 + 3 * 4' } });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(JSON.stringify(res.body.value)).toContain('14');
    expect(typeof res.body.durationMs).toBe('number');
    expect(typeof res.body.invocationID).toBe('string');
    await h.core.metrics.flush();
    await h.core.history.flush();
    const tool = await h.api('GET', `/tools/bundles/${CORE}/tools/calc/version/v1`);
    expect(tool.body.metrics.callCount).toBeGreaterThanOrEqual(1);
    const hist = await h.api('GET', `/tools/bundles/${CORE}/tools/calc/version/v1/history`);
    expect(hist.status).toBe(200);
    expect(hist.body.items[0]).toMatchObject({ status: 'ok', invocationID: res.body.invocationID });
  });

  it('answers 400 with a message a model can act on for bad arguments', async () => {
    const res = await calc({ args: {} });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_ARGS');
    expect(res.body.error.message).toContain("missing required property 'expression'");
    const bad = await calc({ args: 'not an object' });
    expect(bad.status).toBe(400);
  });

  it('gives a runtime failure as {ok:false, error} (the call itself succeeded)', async () => {
    const res = await calc({ args: { expression: '2 +' } });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(false);
    expect(res.body.error.code).toBeTruthy();
    expect(res.body.error.message.length).toBeGreaterThan(5);
  });

  it('runs an http tool against a loopback server with a secret, never showing the secret', async () => {
    await h.api('PATCH', '/tools/config', { allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true });
    await h.api('PUT', '/tools/secrets/WEATHER_KEY', { value: 'very-secret-key-42' });
    const b = uuidv7();
    await h.api('PUT', `/tools/bundles/${b}`, { slug: 'weather' });
    const put = await h.api('PUT', `/tools/bundles/${b}/tools/weather/version/v1`, {
      type: 'http',
      impl: { method: 'GET', urlTemplate: `http://127.0.0.1:${upstreamPort}/w?q=\${city}`, headers: { 'X-Key': '${WEATHER_KEY}' } },
      argSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      card: { enabled: true, title: 'Weather in {{city}}' },
    });
    expect(put.status).toBe(201);
    expect(put.body.availability.ok).toBe(true);
    const res = await h.api('POST', `/tools/bundles/${b}/tools/weather/version/v1/invoke`, { args: { city: 'São Paulo & Rio' } });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.value.city).toBe('São Paulo & Rio'); // percent-encoded on the way out, intact on arrival
    expect(seen.at(-1)!.headers['x-key']).toBe('very-secret-key-42');
    expect(JSON.stringify(res.body)).not.toContain('very-secret-key-42');
    expect(res.body.card?.title ?? 'Weather in São Paulo & Rio').toBe('Weather in São Paulo & Rio');
    await h.core.history.flush();
    const hist = await h.api('GET', `/tools/bundles/${b}/tools/weather/version/v1/history`);
    expect(JSON.stringify(hist.body)).not.toContain('very-secret-key-42');
    // Without the secret the tool is saved but reports why it cannot run.
    await h.api('DELETE', '/tools/secrets/WEATHER_KEY');
    const got = await h.api('GET', `/tools/bundles/${b}/tools/weather/version/v1`);
    expect(got.body.availability).toEqual({ ok: false, reason: expect.stringContaining('WEATHER_KEY') });
  });

  it('can be cancelled by its invocation ID', async () => {
    const b = uuidv7();
    await h.api('PUT', `/tools/bundles/${b}`, { slug: 'slow' });
    await h.api('PUT', `/tools/bundles/${b}/tools/slow/version/v1`, {
      type: 'http',
      impl: { method: 'GET', urlTemplate: `http://127.0.0.1:${upstreamPort}/slow`, timeoutMs: 20000, maxRetries: 0 },
    });
    const pending = h.api('POST', `/tools/bundles/${b}/tools/slow/version/v1/invoke`, { args: {}, invocationID: 'stop-me-1' });
    await new Promise((r) => setTimeout(r, 300));
    const cancel = await h.api('POST', '/tools/invocations/stop-me-1/cancel');
    expect(cancel.body).toEqual({ cancelled: true });
    const res = await pending;
    expect(res.body.ok).toBe(false);
    expect(res.body.error.code).toBe('CANCELLED');
  });

  it('honours the kill switch and the confirm gate for privileged tools', async () => {
    const b = uuidv7();
    await h.api('PUT', `/tools/bundles/${b}`, { slug: 'danger' });
    await h.api('PUT', `/tools/bundles/${b}/tools/priv/version/v1`, {
      type: 'function',
      safety: 'privileged',
      impl: { function: 'core.uuid' },
      argSchema: { type: 'object', properties: {} },
    });
    const path = `/tools/bundles/${b}/tools/priv/version/v1/invoke`;
    const refused = await h.api('POST', path, { args: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('CONFIRMATION_REQUIRED');
    expect((await h.api('POST', path, { args: {}, confirm: true })).body.ok).toBe(true);
    await h.api('PATCH', '/tools/config', { toolsEnabled: false });
    const killed = await h.api('POST', path, { args: {}, confirm: true });
    expect(killed.status).toBe(403);
    expect(killed.body.error.code).toBe('TOOLS_DISABLED');
    await h.api('PATCH', '/tools/config', { toolsEnabled: true });
  });

  it('reports an unknown function as unavailable, leaves its file alone, and refuses to run it', async () => {
    const b = uuidv7();
    await h.api('PUT', `/tools/bundles/${b}`, { slug: 'ghost' });
    const put = await h.api('PUT', `/tools/bundles/${b}/tools/ghost/version/v1`, { type: 'function', impl: { function: 'core.doesNotExist' } });
    expect(put.status).toBe(201);
    expect(put.body.availability.ok).toBe(false);
    expect(put.body.availability.reason).toContain('core.doesNotExist');
    const res = await h.api('POST', `/tools/bundles/${b}/tools/ghost/version/v1/invoke`, { args: {} });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('TOOL_UNAVAILABLE');
  });
});
