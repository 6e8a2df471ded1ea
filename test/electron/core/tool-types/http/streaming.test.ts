/**
 * The http runner for a caller that streams, against loopback servers: a chunked body goes out
 * piece by piece without splitting a UTF-8 character, an error answer is not streamed (only a
 * success's body is output), and a body that breaks off after some of it went out is not
 * retried (the caller would see it twice). End to end through REST: test/electron/host/rest/invoke-stream.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpRunner } from '../../../../../electron/core/tool-types/http/runner.js';
import type { InvokeStreamEvent } from '../../../../../shared/types.js';
import { startLoopbackServer, type LoopbackServer } from '../../../../helpers/loopback-http.js';
import { httpTool, runContext, testConfig } from '../../../../helpers/http-tools.js';

let server: LoopbackServer;
const runner = createHttpRunner({ retry: { baseDelayMs: 1, maxDelayMs: 2 } });

beforeAll(async () => {
  server = await startLoopbackServer();
  server.route('/utf8', async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    const bytes = Buffer.from('Zürich → 東京\n');
    // One byte at a time: every multi-byte character is split across writes.
    for (const b of bytes) {
      res.write(Buffer.from([b]));
      await new Promise((r) => setTimeout(r, 1));
    }
    res.end();
  });
  server.route('/broken', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
    res.write('half of it');
    setTimeout(() => res.destroy(), 20);
  });
  server.route('/endless', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const timer = setInterval(() => res.write('data: tick\n\n'), 30);
    res.on('close', () => clearInterval(timer));
  });
  server.route('/failing', (_req, res) => {
    res.writeHead(503, { 'content-type': 'text/plain' });
    res.end('service unavailable body');
  });
});
afterAll(async () => {
  await runner.close();
  await server.close();
});

function streamedRun(path: string, impl: Record<string, unknown> = {}) {
  const events: InvokeStreamEvent[] = [];
  const ctx = {
    ...runContext(httpTool({ urlTemplate: server.url(path), responseEncoding: 'text', ...impl }), {}, { config: testConfig() }),
    emit: (e: InvokeStreamEvent) => void events.push(e),
  };
  const text = () => events.map((e) => (e.type === 'chunk' ? e.text : '')).join('');
  return { run: runner.run(ctx), events, text };
}

describe('http runner, streamed', () => {
  it('sends the body as it arrives, never half a UTF-8 character', async () => {
    const s = streamedRun('/utf8');
    expect((await s.run).value).toBe('Zürich → 東京\n');
    expect(s.events.length).toBeGreaterThan(5);
    expect(s.text()).toBe('Zürich → 東京\n');
    expect(s.events.every((e) => e.type === 'chunk' && !e.text.includes('\uFFFD'))).toBe(true);
  });

  it('does not retry a body that broke off after part of it went out', async () => {
    const before = server.hits('/broken');
    const s = streamedRun('/broken', { maxRetries: 3 });
    await expect(s.run).rejects.toMatchObject({ code: 'UPSTREAM_ERROR' });
    expect(server.hits('/broken') - before).toBe(1);
    expect(s.text()).toBe('half of it');
  });

  it('bounds the whole stream by timeoutMs: an endless upstream ends in TIMEOUT after its events streamed', async () => {
    const s = streamedRun('/endless', { timeoutMs: 400 });
    await expect(s.run).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(s.text()).toMatch(/^(tick\n)+$/);
  });

  it('streams only a successful answer: error bodies and retried attempts are no output', async () => {
    const before = server.hits('/failing');
    const s = streamedRun('/failing', { maxRetries: 2 });
    await expect(s.run).rejects.toMatchObject({ code: 'UPSTREAM_ERROR' });
    expect(server.hits('/failing') - before).toBe(3);
    expect(s.events).toEqual([]);
  });
});
