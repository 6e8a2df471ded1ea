/**
 * The http runner against a real node:http server on 127.0.0.1: templates and encoding, the
 * allow-list and refused address forms, redirects, timeouts, retries, extraction, errorMode,
 * the size cap and redaction. Auth helpers: http-runner-auth.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import { createHttpRunner, type HttpRunner, type HttpRunnerOptions } from '../../../../../electron/core/tool-types/http/runner.js';
import { classifyAddress } from '../../../../../electron/core/tool-types/http/addresses.js';
import type { HttpExchange } from '../../../../../shared/types.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../../../../helpers/loopback-http.js';
import { httpTool, MemorySecrets, runContext, runFailure, testConfig } from '../../../../helpers/http-tools.js';

let srv: LoopbackServer;
const runners: HttpRunner[] = [];
function makeRunner(opts: HttpRunnerOptions = {}): HttpRunner {
  const r = createHttpRunner(opts);
  runners.push(r);
  return r;
}
/** Records retry waits instead of sleeping; aborts like a real sleep would. */
function recordingSleep(): { delays: number[]; sleep: NonNullable<HttpRunnerOptions['sleep']> } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms, signal) => {
      signal.throwIfAborted();
      delays.push(ms);
    },
  };
}

beforeAll(async () => {
  srv = await startLoopbackServer();
  srv.route('/echo', (req, res) => sendJson(res, 200, { method: req.method, url: req.url, headers: req.headers, body: req.body }));
  srv.route('/ok', (_req, res) => sendJson(res, 200, { ok: true }));
});
afterAll(async () => {
  await Promise.all(runners.map((r) => r.close()));
  await srv.close();
});
beforeEach(() => {
  srv.requests.length = 0;
});

describe('templates and encoding', () => {
  it('percent-encodes arguments in the URL, so a value stays one path segment or query value', async () => {
    const r = makeRunner();
    const seg = 'a/b?c#d';
    const q = 'x&fixed=2#frag %/?';
    const tool = httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/enc/\${seg}?q=\${q}&fixed=1` }, { args: { seg: {}, q: {} } });
    srv.route(`/enc/${encodeURIComponent(seg)}`, (req, res) => sendJson(res, 200, { q: req.query.get('q'), fixed: req.query.getAll('fixed') }));
    const out = await r.run(runContext(tool, { seg, q }));
    expect(out.value).toEqual({ q, fixed: ['1'] });
    expect(srv.requests).toHaveLength(1);
  });

  it('JSON bodies: escaped inside strings, typed JSON values when bare, so arguments cannot add keys', async () => {
    const r = makeRunner();
    const text = 'He said "hi" \\ \n\u2028 ", "admin": true, "x": "';
    const tool = httpTool(
      {
        method: 'POST',
        urlTemplate: `http://127.0.0.1:${srv.port}/echo`,
        bodyTemplate: '{"text": "${text}", "days": ${days}, "tags": ${tags}, "missing": ${opt}, "greeting": "Hello ${name}!"}',
      },
      { args: { text: {}, days: {}, tags: {}, opt: {}, name: {} } },
    );
    const out = await r.run(runContext(tool, { text, days: 3, tags: ['a', 'b'], name: 'Zoë' }));
    const echo = out.value as { headers: Record<string, string>; body: string };
    expect(echo.headers['content-type']).toBe('application/json');
    expect(JSON.parse(echo.body)).toEqual({ text, days: 3, tags: ['a', 'b'], missing: null, greeting: 'Hello Zoë!' });
  });

  it('a bare string placeholder becomes a quoted JSON string, even when it looks like JSON', async () => {
    const r = makeRunner();
    const tool = httpTool({ method: 'POST', urlTemplate: `http://127.0.0.1:${srv.port}/echo`, bodyTemplate: '{"q": ${q}}' }, { args: { q: {} } });
    const out = await r.run(runContext(tool, { q: '1, "admin": true' }));
    expect(JSON.parse((out.value as { body: string }).body)).toEqual({ q: '1, "admin": true' });
  });

  it('Content-Type decides: form bodies are percent-encoded, text bodies raw', async () => {
    const r = makeRunner();
    const form = httpTool(
      {
        method: 'POST',
        urlTemplate: `http://127.0.0.1:${srv.port}/echo`,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        bodyTemplate: 'a=${x}&b=1',
      },
      { args: { x: {} } },
    );
    const formOut = (await r.run(runContext(form, { x: '1&b=2 +' }))).value as { body: string };
    const parsed = new URLSearchParams(formOut.body);
    expect(parsed.get('a')).toBe('1&b=2 +');
    expect(parsed.getAll('b')).toEqual(['1']);

    const text = httpTool({ method: 'POST', urlTemplate: `http://127.0.0.1:${srv.port}/echo`, bodyTemplate: 'note: ${x}' }, { args: { x: {} } });
    const textOut = (await r.run(runContext(text, { x: '{"raw": "yes"}' }))).value as { body: string; headers: Record<string, string> };
    expect(textOut.body).toBe('note: {"raw": "yes"}');
    expect(textOut.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('expands once: ${SECRET} written inside an argument stays literal text', async () => {
    const r = makeRunner();
    const secrets = new MemorySecrets({ API_KEY: 'k-123456789' });
    const tool = httpTool(
      { urlTemplate: `http://127.0.0.1:${srv.port}/echo?q=\${q}`, headers: { 'X-Query': '${q}', 'X-Api-Key': '${API_KEY}' } },
      { args: { q: {} } },
    );
    await r.run(runContext(tool, { q: '${API_KEY}' }, { secrets }));
    const req = srv.requests[0]!;
    expect(req.headers['x-query']).toBe('${API_KEY}');
    expect(req.query.get('q')).toBe('${API_KEY}');
    expect(req.headers['x-api-key']).toBe('k-123456789');
  });

  it('refuses CR/LF in a header value before sending anything', async () => {
    const r = makeRunner();
    const tool = httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/ok`, headers: { 'X-City': '${city}' } }, { args: { city: {} } });
    const err = await runFailure(r, runContext(tool, { city: 'Paris\r\nX-Injected: 1' }));
    expect(err.code).toBe('INVALID_ARGS');
    expect(err.message).toContain("'city'");

    const withSecret = httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/ok`, headers: { Authorization: 'Bearer ${TOKEN}' } });
    const secretErr = await runFailure(r, runContext(withSecret, {}, { secrets: new MemorySecrets({ TOKEN: 'abc\ndef-secret' }) }));
    expect(secretErr.code).toBe('INVALID_INPUT');
    expect(secretErr.message).toContain('TOKEN');
    expect(JSON.stringify([secretErr.message, secretErr.details])).not.toContain('def-secret');
    expect(srv.requests).toHaveLength(0);
  });

  it('an unset secret is TOOL_UNAVAILABLE naming it; an omitted optional argument is left out of the query, and is "" elsewhere', async () => {
    const r = makeRunner();
    const tool = httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/echo?key=\${WEATHER_API_KEY}&units=\${units}` }, { args: { units: {} } });
    const err = await runFailure(r, runContext(tool));
    expect(err.code).toBe('TOOL_UNAVAILABLE');
    expect(err.message).toContain('WEATHER_API_KEY');
    expect(srv.requests).toHaveLength(0);
    const out = await r.run(runContext(tool, {}, { secrets: new MemorySecrets({ WEATHER_API_KEY: 'w-key' }) }));
    expect((out.value as { url: string }).url).toBe('/echo?key=[redacted]');
    expect(srv.requests[0]!.query.get('key')).toBe('w-key');
    const inText = httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/echo?u=a\${units}` }, { args: { units: {} } });
    const out2 = await r.run(runContext(inText, {}));
    expect((out2.value as { url: string }).url).toBe('/echo?u=a');
  });

  it('sends an array argument of a query pair as repeated pairs (OpenAPI form, explode), and a form body the same way', async () => {
    const r = makeRunner();
    const tool = httpTool(
      { urlTemplate: `http://127.0.0.1:${srv.port}/echo?ids=\${ids}&q=\${q}&limit=\${limit}` },
      { args: { ids: { type: 'array', items: { type: 'integer' } }, q: { type: 'string' }, limit: { type: 'integer' } } },
    );
    const out = await r.run(runContext(tool, { ids: [1, 2, 3], q: 'a b&c' }));
    expect((out.value as { url: string }).url).toBe('/echo?ids=1&ids=2&ids=3&q=a%20b%26c');
    expect(srv.requests.at(-1)!.query.getAll('ids')).toEqual(['1', '2', '3']);
    const none = await r.run(runContext(tool, { ids: [] }));
    expect((none.value as { url: string }).url).toBe('/echo');
  });
});

describe('secrets stay out of values, exchanges and errors', () => {
  const secret = 'p@ss w0rd/+"x\\y';
  const forms = [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)];

  it('redacts a secret the server echoes, in every wire form, from value and exchange', async () => {
    const r = makeRunner();
    const tool = httpTool({
      method: 'POST',
      urlTemplate: `http://127.0.0.1:${srv.port}/echo?k=\${API_SECRET}`,
      headers: { 'X-Api-Key': '${API_SECRET}' },
      bodyTemplate: '{"key": "${API_SECRET}"}',
    });
    const out = await r.run(runContext(tool, {}, { secrets: new MemorySecrets({ API_SECRET: secret }) }));
    // The server did get the real value...
    expect(srv.requests[0]!.headers['x-api-key']).toBe(secret);
    expect(JSON.parse(srv.requests[0]!.body)).toEqual({ key: secret });
    // ...and nothing handed back carries it.
    const serialized = JSON.stringify(out);
    for (const f of forms) expect(serialized).not.toContain(f);
    expect(out.http!.request.headers['x-api-key']).toBe('[redacted]');
    expect((out.value as { headers: Record<string, string> }).headers['x-api-key']).toBe('[redacted]');
  });

  it('says where each secret stood in the request, by name and never by value', async () => {
    const r = makeRunner();
    const tool = httpTool({
      method: 'POST',
      urlTemplate: `http://127.0.0.1:${srv.port}/echo?k=\${API_SECRET}&city=Oslo`,
      headers: { Authorization: 'Bearer ${API_SECRET}', 'X-Other': 'plain' },
      bodyTemplate: '{"key": "${API_SECRET}", "token2": "${SECOND_KEY}"}',
    });
    const out = await r.run(runContext(tool, {}, { secrets: new MemorySecrets({ API_SECRET: secret, SECOND_KEY: 'kkkk-2222' }) }));
    const parts = out.http!.request.secretParts!;
    expect(parts.url).toEqual([`http://127.0.0.1:${srv.port}/echo?k=`, { secret: 'API_SECRET' }, '&city=Oslo']);
    expect(parts.headers).toEqual({ authorization: ['Bearer ', { secret: 'API_SECRET' }] });
    expect(parts.body).toEqual(['{"key": "', { secret: 'API_SECRET' }, '", "token2": "', { secret: 'SECOND_KEY' }, '"}']);
    const serialized = JSON.stringify(out);
    for (const f of [...forms, 'kkkk-2222']) expect(serialized).not.toContain(f);
    // A request with no secret in it has no parts.
    const plain = await r.run(runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/echo` }), {}));
    expect(plain.http!.request.secretParts).toBeUndefined();
  });

  it('redacts secrets from error messages and details', async () => {
    const r = makeRunner();
    srv.route('/leaky-error', (req, res) => sendJson(res, 400, { error: `bad key ${req.headers['x-api-key']}` }));
    const tool = httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/leaky-error`, headers: { 'X-Api-Key': '${API_SECRET}' } });
    const err = await runFailure(r, runContext(tool, {}, { secrets: new MemorySecrets({ API_SECRET: secret }) }));
    expect(err.code).toBe('UPSTREAM_ERROR');
    expect(err.message).toContain('bad key [redacted]');
    const serialized = JSON.stringify([err.message, err.details]);
    for (const f of forms) expect(serialized).not.toContain(f);
  });
});

describe('allowed hosts', () => {
  it('refuses a host that is not in allowedHosts, naming it and the fix', async () => {
    const r = makeRunner();
    const tool = httpTool({ urlTemplate: `http://localhost:${srv.port}/ok` });
    const err = await runFailure(r, runContext(tool, {}, { config: testConfig({ allowedHosts: ['127.0.0.1'] }) }));
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toContain('localhost');
    expect(err.message).toContain('allowedHosts');
    expect(srv.requests).toHaveLength(0);
  });

  it('matches *.example.com against sub-domains only', async () => {
    const r = makeRunner({ lookup: async () => [{ address: '127.0.0.1', family: 4 }] });
    const config = testConfig({ allowedHosts: ['*.toolwright.test'] });
    const ok = await r.run(runContext(httpTool({ urlTemplate: `http://api.eu.toolwright.test:${srv.port}/ok` }), {}, { config }));
    expect(ok.value).toEqual({ ok: true });
    const err = await runFailure(r, runContext(httpTool({ urlTemplate: `http://toolwright.test:${srv.port}/ok` }), {}, { config }));
    expect(err.code).toBe('FORBIDDEN');
    expect(srv.requests).toHaveLength(1);
  });

  it('refuses user:password@ in the URL and non-http schemes', async () => {
    const r = makeRunner();
    const userinfo = await runFailure(r, runContext(httpTool({ urlTemplate: `http://user:pw@127.0.0.1:${srv.port}/ok` })));
    expect(userinfo.code).toBe('FORBIDDEN');
    expect(userinfo.message).toContain('user name or password');
    const file = await runFailure(r, runContext(httpTool({ urlTemplate: 'file:///etc/passwd' })));
    expect(file.code).toBe('FORBIDDEN');
    expect(srv.requests).toHaveLength(0);
  });
});

describe('private, loopback, link-local and metadata addresses (allowPrivateNetwork off)', () => {
  // Each written form, and the hostname WHATWG URL normalises it to (what allowedHosts lists).
  const forms = [
    '127.0.0.1',
    '127.1',
    '2130706433', // decimal
    '0x7f000001', // hex
    '0x7f.0.0.1',
    '0177.0.0.1', // octal
    '017700000001',
    '[::1]',
    '[::ffff:127.0.0.1]', // IPv4-mapped IPv6
    '[::ffff:7f00:1]',
    '[::127.0.0.1]', // IPv4-compatible IPv6
    '0.0.0.0',
    '0',
    '[::]',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.10',
    '100.64.0.1', // CGNAT
    '169.254.10.20', // link-local
    '169.254.169.254', // metadata
    '2852039166', // 169.254.169.254 in decimal
    '[::ffff:169.254.169.254]',
    '[fd00:ec2::254]', // AWS metadata over IPv6
    '[fc00::1]',
    '[fe80::1]',
    '[64:ff9b::a9fe:a9fe]', // NAT64 form of 169.254.169.254
    '[2002:7f00:1::]', // 6to4 form of 127.0.0.1
  ];

  it.each(forms)('refuses http://%s/', async (form) => {
    const r = makeRunner();
    const url = `http://${form}:${srv.port}/ok`;
    const hostname = new URL(url).hostname;
    const config = testConfig({ allowedHosts: [hostname], allowPrivateNetwork: false });
    const err = await runFailure(r, runContext(httpTool({ urlTemplate: url, timeoutMs: 3000, maxRetries: 0 }), {}, { config }));
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toContain('allowPrivateNetwork');
    expect(srv.requests).toHaveLength(0);
  });

  it('the same loopback URLs work once allowPrivateNetwork is on (the refusal is the rule, not a broken URL)', async () => {
    const r = makeRunner();
    for (const form of ['127.0.0.1', '2130706433', '0x7f.0.0.1', '0177.0.0.1']) {
      const url = `http://${form}:${srv.port}/ok`;
      const out = await r.run(runContext(httpTool({ urlTemplate: url }), {}, { config: testConfig({ allowedHosts: [new URL(url).hostname] }) }));
      expect(out.value).toEqual({ ok: true });
    }
    expect(srv.requests).toHaveLength(4);
  });

  it('refuses a name that resolves to loopback, checked at connect time by the system resolver', async () => {
    const r = makeRunner();
    const tool = httpTool({ urlTemplate: `http://localhost:${srv.port}/ok`, maxRetries: 0 });
    const err = await runFailure(r, runContext(tool, {}, { config: testConfig({ allowedHosts: ['localhost'], allowPrivateNetwork: false }) }));
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1)/);
    expect(srv.requests).toHaveLength(0);
    const allowed = await r.run(runContext(tool, {}, { config: testConfig({ allowedHosts: ['localhost'] }) }));
    expect(allowed.value).toEqual({ ok: true });
  });

  it.each([
    ['rebind.toolwright.test', [{ address: '127.0.0.1', family: 4 }]],
    ['meta.toolwright.test', [{ address: '169.254.169.254', family: 4 }]],
    [
      'mixed.toolwright.test',
      [
        { address: '8.8.8.8', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ],
    ],
    ['ula.toolwright.test', [{ address: 'fd12:3456::1', family: 6 }]],
    ['mapped.toolwright.test', [{ address: '::ffff:192.168.0.1', family: 6 }]],
  ])('refuses %s, whose DNS answer holds a private address', async (host, answers) => {
    const asked: string[] = [];
    const r = makeRunner({
      lookup: async (name) => {
        asked.push(name);
        return answers;
      },
    });
    const config = testConfig({ allowedHosts: [host], allowPrivateNetwork: false });
    const err = await runFailure(r, runContext(httpTool({ urlTemplate: `http://${host}:${srv.port}/ok`, maxRetries: 0 }), {}, { config }));
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toContain(`${host} resolves to`);
    expect(asked).toEqual([host]); // the answer checked is the one the socket would use
    expect(srv.requests).toHaveLength(0);
  });
});

describe('redirects', () => {
  it('follows redirects itself and answers with the final response', async () => {
    const r = makeRunner();
    srv.route('/r1', (_q, res) => void res.writeHead(302, { location: '/r2' }).end());
    srv.route('/r2', (_q, res) => void res.writeHead(307, { location: `http://127.0.0.1:${srv.port}/final` }).end());
    srv.route('/final', (_q, res) => sendJson(res, 200, { final: true }));
    const out = await r.run(runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/r1` })));
    expect(out.value).toEqual({ final: true });
    expect(srv.requests.map((q) => q.path)).toEqual(['/r1', '/r2', '/final']);
    expect(out.http!.request.url).toBe(`http://127.0.0.1:${srv.port}/final`);
  });

  it('stops after 5 redirects', async () => {
    const r = makeRunner();
    srv.route('/loop', (_q, res) => void res.writeHead(301, { location: '/loop' }).end());
    const err = await runFailure(r, runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/loop`, maxRetries: 0 })));
    expect(err.code).toBe('UPSTREAM_ERROR');
    expect(err.message).toContain('more than 5');
    expect(srv.hits('/loop')).toBe(6);
  });

  it('refuses a redirect to a host outside allowedHosts', async () => {
    const r = makeRunner();
    srv.route('/to-other', (_q, res) => void res.writeHead(302, { location: `http://localhost:${srv.port}/final` }).end());
    const err = await runFailure(
      r,
      runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/to-other` }), {}, { config: testConfig({ allowedHosts: ['127.0.0.1'] }) }),
    );
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toContain('redirect');
    expect(err.message).toContain('localhost');
    expect(srv.hits('/final')).toBe(0);
  });

  it.each(['http://[::1]:PORT/final', 'http://2130706434:PORT/final', 'http://169.254.169.254/latest/meta-data/', 'http://u:p@127.0.0.1:PORT/final'])(
    'refuses a redirect to %s when private addresses are off',
    async (target) => {
      // 127.0.0.1 stands in for a public server here; every other address keeps the real rules.
      const r = makeRunner({ classifyAddress: (a) => (a === '127.0.0.1' ? { ok: true, range: 'unicast' } : classifyAddress(a)) });
      const location = target.replace('PORT', String(srv.port));
      srv.route('/to-private', (_q, res) => void res.writeHead(302, { location }).end());
      const config = testConfig({ allowedHosts: ['127.0.0.1', new URL(location).hostname], allowPrivateNetwork: false });
      const control = await r.run(runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/ok` }), {}, { config }));
      expect(control.value).toEqual({ ok: true });
      const err = await runFailure(r, runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/to-private` }), {}, { config }));
      expect(err.code).toBe('FORBIDDEN');
      expect(err.message).toContain('redirect');
      expect(srv.hits('/final')).toBe(0);
    },
  );

  it('drops secret-bearing headers on a cross-origin redirect, keeps them on the same origin', async () => {
    const r = makeRunner();
    srv.route('/hop-same', (_q, res) => void res.writeHead(302, { location: '/hop-cross' }).end());
    srv.route('/hop-cross', (_q, res) => void res.writeHead(302, { location: `http://localhost:${srv.port}/echo` }).end());
    const tool = httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/hop-same`, headers: { 'X-Api-Key': '${API_KEY}', 'X-Plain': 'visible' } });
    await r.run(runContext(tool, {}, { secrets: new MemorySecrets({ API_KEY: 'key-value-1' }) }));
    const [first, second, third] = srv.requests;
    expect(first!.headers['x-api-key']).toBe('key-value-1');
    expect(second!.headers['x-api-key']).toBe('key-value-1');
    expect(third!.headers['x-api-key']).toBeUndefined();
    expect(third!.headers['x-plain']).toBe('visible');
  });

  it('turns POST into GET without a body on 303', async () => {
    const r = makeRunner();
    srv.route('/post-303', (_q, res) => void res.writeHead(303, { location: '/echo' }).end());
    const tool = httpTool({ method: 'POST', urlTemplate: `http://127.0.0.1:${srv.port}/post-303`, bodyTemplate: '{"a":1}' });
    const out = await r.run(runContext(tool));
    expect(out.value).toMatchObject({ method: 'GET', body: '' });
    expect(srv.requests[0]!.method).toBe('POST');
  });
});

describe('timeouts and cancellation', () => {
  it('answers TIMEOUT when the server is slower than timeoutMs', async () => {
    const r = makeRunner();
    srv.route('/slow', (_q, res) => {
      const t = setTimeout(() => sendJson(res, 200, { late: true }), 5000);
      res.on('close', () => clearTimeout(t));
    });
    const err = await runFailure(r, runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/slow`, timeoutMs: 300 })));
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toContain('timeoutMs');
    expect(srv.hits('/slow')).toBe(1);
  });

  it('answers CANCELLED when the signal fires, and never retries afterwards', async () => {
    const { delays, sleep } = recordingSleep();
    const r = makeRunner({ sleep });
    const ac = new AbortController();
    srv.route('/hang', (_q, res) => {
      ac.abort();
      const t = setTimeout(() => sendJson(res, 503, {}), 10_000);
      res.on('close', () => clearTimeout(t));
    });
    const err = await runFailure(r, runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/hang`, maxRetries: 5 }), {}, { signal: ac.signal }));
    expect(err.code).toBe('CANCELLED');
    expect(delays).toEqual([]);
    expect(srv.hits('/hang')).toBe(1);
  });

  it('a cancel during the backoff wait ends the call without another request', async () => {
    const ac = new AbortController();
    const r = makeRunner({
      sleep: (_ms, signal) => {
        ac.abort();
        signal.throwIfAborted();
        return Promise.resolve();
      },
    });
    srv.route('/flaky-cancel', (_q, res) => sendJson(res, 503, {}));
    const err = await runFailure(
      r,
      runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/flaky-cancel`, maxRetries: 5 }), {}, { signal: ac.signal }),
    );
    expect(err.code).toBe('CANCELLED');
    expect(srv.hits('/flaky-cancel')).toBe(1);
  });
});

describe('retries', () => {
  it('maxRetries 5 means at most 6 requests, with exponential full-jitter backoff', async () => {
    const { delays, sleep } = recordingSleep();
    const r = makeRunner({ sleep, random: () => 0.5, retry: { baseDelayMs: 200, maxDelayMs: 1000 } });
    srv.route('/always-503', (_q, res) => sendJson(res, 503, { error: 'down' }));
    const err = await runFailure(r, runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/always-503`, maxRetries: 5 })));
    expect(err.code).toBe('UPSTREAM_ERROR');
    expect(err.message).toContain('503');
    expect(srv.hits('/always-503')).toBe(6);
    expect((err.details!['http'] as HttpExchange).attempts).toBe(6);
    expect(delays).toEqual([100, 200, 400, 500, 500]); // 0.5 × min(1000, 200·2^n)
  });

  it('defaults to 2 retries (3 requests)', async () => {
    const { sleep } = recordingSleep();
    const r = makeRunner({ sleep });
    srv.route('/always-500', (_q, res) => sendJson(res, 500, {}));
    await runFailure(r, runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/always-500` })));
    expect(srv.hits('/always-500')).toBe(3);
  });

  it('retries network errors', async () => {
    const { delays, sleep } = recordingSleep();
    const r = makeRunner({ sleep });
    const closed = net.createServer();
    await new Promise<void>((res) => closed.listen(0, '127.0.0.1', res));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((res) => closed.close(() => res()));
    const err = await runFailure(r, runContext(httpTool({ urlTemplate: `http://127.0.0.1:${port}/x`, maxRetries: 3 })));
    expect(err.code).toBe('UPSTREAM_ERROR');
    expect(err.message).toContain('ECONNREFUSED');
    expect((err.details!['http'] as HttpExchange).attempts).toBe(4);
    expect(delays).toHaveLength(3);
  });

  it('honours Retry-After in seconds on 429', async () => {
    const { delays, sleep } = recordingSleep();
    const r = makeRunner({ sleep });
    let n = 0;
    srv.route('/rate', (_q, res) => (++n === 1 ? sendJson(res, 429, {}, { 'retry-after': '2' }) : sendJson(res, 200, { n })));
    const out = await r.run(runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/rate` })));
    expect(out.value).toEqual({ n: 2 });
    expect(out.http!.attempts).toBe(2);
    expect(delays).toEqual([2000]);
  });

  it('honours Retry-After as an HTTP date, and caps long ones', async () => {
    const { delays, sleep } = recordingSleep();
    const r = makeRunner({ sleep, retry: { retryAfterCapMs: 30_000 } });
    let n = 0;
    srv.route('/rate-date', (_q, res) => {
      n++;
      if (n === 1) return sendJson(res, 503, {}, { 'retry-after': new Date(Date.now() + 5000).toUTCString() });
      if (n === 2) return sendJson(res, 503, {}, { 'retry-after': '3600' });
      return sendJson(res, 200, { n });
    });
    const out = await r.run(runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/rate-date`, timeoutMs: 600_000 })));
    expect(out.value).toEqual({ n: 3 });
    expect(delays[0]).toBeGreaterThan(3000);
    expect(delays[0]).toBeLessThanOrEqual(5000);
    expect(delays[1]).toBe(30_000);
  });

  it('does not wait past timeoutMs for a Retry-After', async () => {
    const { delays, sleep } = recordingSleep();
    const r = makeRunner({ sleep });
    srv.route('/rate-long', (_q, res) => sendJson(res, 429, {}, { 'retry-after': '20' }));
    const err = await runFailure(r, runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/rate-long`, timeoutMs: 2000 })));
    expect(err.code).toBe('UPSTREAM_ERROR');
    expect(err.message).toContain('429');
    expect(err.message).toContain('timeoutMs');
    expect(delays).toEqual([]);
    expect(srv.hits('/rate-long')).toBe(1);
  });

  it('does not retry other 4xx, and a listed successCode is a success', async () => {
    const { sleep } = recordingSleep();
    const r = makeRunner({ sleep });
    srv.route('/missing', (_q, res) => sendJson(res, 404, { error: 'city not found' }));
    const err = await runFailure(r, runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/missing` })));
    expect(err.code).toBe('UPSTREAM_ERROR');
    expect(err.message).toContain('404');
    expect(err.message).toContain('city not found');
    expect(err.details!['status']).toBe(404);
    expect(srv.hits('/missing')).toBe(1);

    srv.route('/busy-ok', (_q, res) => sendJson(res, 503, { queued: true }));
    const out = await r.run(runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/busy-ok`, successCodes: [503] })));
    expect(out.value).toEqual({ queued: true });
    expect(srv.hits('/busy-ok')).toBe(1);
  });
});

describe('response handling', () => {
  const weather = { current: { temp: 21.5, city: 'Paris' }, items: [{ name: 'a' }, { name: 'b' }], meta: { name: 'm' } };
  beforeAll(() => {
    srv.route('/weather', (_q, res) => sendJson(res, 200, weather));
    srv.route('/text', (_q, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('id=1; id=2; id=3'));
    srv.route('/not-json', (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>'));
  });
  const url = (path: string) => `http://127.0.0.1:${srv.port}${path}`;

  it('responseEncoding text gives the body as a string; json that is not JSON is an error', async () => {
    const r = makeRunner();
    expect((await r.run(runContext(httpTool({ urlTemplate: url('/text'), responseEncoding: 'text' })))).value).toBe('id=1; id=2; id=3');
    const err = await runFailure(r, runContext(httpTool({ urlTemplate: url('/not-json') })));
    expect(err.code).toBe('UPSTREAM_ERROR');
    expect(err.message).toContain('responseEncoding');
  });

  it.each([
    ['$.current.temp', 21.5],
    ['$.current', { temp: 21.5, city: 'Paris' }],
    ['$.items[*].name', ['a', 'b']],
    ['$..name', ['a', 'b', 'm']],
    ['$.items[0:1]', [{ name: 'a' }]],
    ['$.nothing[*]', []],
  ])('JSONPath %s', async (expr, expected) => {
    const r = makeRunner();
    const out = await r.run(runContext(httpTool({ urlTemplate: url('/weather'), extractExpr: expr })));
    expect(out.value).toEqual(expected);
  });

  it('a definite JSONPath that matches nothing fails, or gives the empty value with errorMode empty', async () => {
    const r = makeRunner();
    const err = await runFailure(r, runContext(httpTool({ urlTemplate: url('/weather'), extractExpr: '$.current.humidity' })));
    expect(err.code).toBe('UPSTREAM_ERROR');
    expect(err.message).toContain('matched nothing');
    const out = await r.run(runContext(httpTool({ urlTemplate: url('/weather'), extractExpr: '$.current.humidity', errorMode: 'empty' }), {}, {}));
    expect(out.value).toBeNull();
  });

  it('refuses JSONPath filter/script expressions before any request (eval is disabled)', async () => {
    const r = makeRunner();
    for (const expr of ['$.items[?(@.name=="a")]', '$.items[(@.length-1)]', '$..[?(@.constructor.constructor("return process")().exit())]']) {
      const err = await runFailure(r, runContext(httpTool({ urlTemplate: url('/weather'), extractExpr: expr })));
      expect(err.code).toBe('INVALID_INPUT');
      expect(err.message).toContain('filter or script');
    }
    expect(srv.requests).toHaveLength(0);
  });

  it('regex extraction: first capture group, all with g, whole match without a group', async () => {
    const r = makeRunner();
    expect((await r.run(runContext(httpTool({ urlTemplate: url('/weather'), extractExpr: '/"temp":\\s*([0-9.]+)/' })))).value).toBe('21.5');
    expect((await r.run(runContext(httpTool({ urlTemplate: url('/text'), responseEncoding: 'text', extractExpr: '/id=(\\d+)/g' })))).value).toEqual([
      '1',
      '2',
      '3',
    ]);
    expect((await r.run(runContext(httpTool({ urlTemplate: url('/text'), responseEncoding: 'text', extractExpr: '/id=\\d/' })))).value).toBe('id=1');
    const none = await runFailure(r, runContext(httpTool({ urlTemplate: url('/text'), responseEncoding: 'text', extractExpr: '/zzz(\\d)/' })));
    expect(none.code).toBe('UPSTREAM_ERROR');
  });

  it('refuses a regex that RE2 cannot run in linear time (a backreference), naming the field', async () => {
    const r = makeRunner();
    const err = await runFailure(r, runContext(httpTool({ urlTemplate: url('/text'), responseEncoding: 'text', extractExpr: '/(a+)\\1$/' })));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.details!.issues![0]!.field).toBe('impl.extractExpr');
  });

  it('errorMode empty turns upstream failures into an empty value that fits outputSchema, not refusals', async () => {
    const { sleep } = recordingSleep();
    const r = makeRunner({ sleep });
    srv.route('/broken', (_q, res) => sendJson(res, 500, { error: 'boom' }));
    const arr = await r.run(runContext(httpTool({ urlTemplate: url('/broken'), errorMode: 'empty' }, { output: { type: 'array' } })));
    expect(arr.value).toEqual([]);
    expect(arr.http!.response!.status).toBe(500);
    const obj = await r.run(runContext(httpTool({ urlTemplate: url('/broken'), errorMode: 'empty', maxRetries: 0 }, { output: { type: 'object' } })));
    expect(obj.value).toEqual({});
    const refused = await runFailure(
      r,
      runContext(
        httpTool({ urlTemplate: `http://localhost:${srv.port}/broken`, errorMode: 'empty' }),
        {},
        { config: testConfig({ allowedHosts: ['127.0.0.1'] }) },
      ),
    );
    expect(refused.code).toBe('FORBIDDEN');
  });
});

describe('response size cap', () => {
  beforeAll(() => {
    srv.route('/big-chunked', (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(1024);
      let i = 0;
      const write = () => {
        while (i < 64) {
          i++;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        res.end();
      };
      write();
    });
    srv.route('/big-declared', (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(64 * 1024) });
      res.end('x'.repeat(64 * 1024));
    });
    srv.route('/small', (_q, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(3000)));
  });

  it('aborts a streamed response over the cap, with or without Content-Length', async () => {
    const r = makeRunner({ maxResponseBytes: 4096 });
    for (const path of ['/big-chunked', '/big-declared']) {
      const err = await runFailure(r, runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}${path}`, responseEncoding: 'text' })));
      expect(err.code).toBe('UPSTREAM_ERROR');
      expect(err.message).toContain('4 KB cap');
    }
    const ok = await r.run(runContext(httpTool({ urlTemplate: `http://127.0.0.1:${srv.port}/small`, responseEncoding: 'text' })));
    expect(ok.value).toHaveLength(3000);
  });
});

describe('availability', () => {
  it('names an unset secret, counting argSchema properties and auth secrets correctly', () => {
    const r = makeRunner();
    const tool = httpTool(
      { urlTemplate: 'https://api.weather.example/v1?q=${city}&key=${WEATHER_API_KEY}', headers: { 'X-Units': '${UNITS}' } },
      { args: { city: {}, UNITS: {} } },
    );
    expect(r.availability(tool, '/x', new MemorySecrets())).toEqual({ ok: false, reason: 'secret WEATHER_API_KEY is not set' });
    expect(r.availability(tool, '/x', new MemorySecrets({ WEATHER_API_KEY: 'k' }))).toEqual({ ok: true });

    const hmac = httpTool({ urlTemplate: 'https://api.example/x', auth: { type: 'hmac', secret: 'SIGNING_KEY' } });
    expect(r.availability(hmac, '/x', new MemorySecrets())).toEqual({ ok: false, reason: 'secret SIGNING_KEY is not set' });
    const oauth = httpTool({
      urlTemplate: 'https://api.example/x',
      auth: { type: 'oauth2ClientCredentials', tokenUrl: 'https://auth.example/token', clientIdSecret: 'CLIENT_ID', clientSecretSecret: 'CLIENT_SECRET' },
    });
    expect(r.availability(oauth, '/x', new MemorySecrets({ CLIENT_ID: 'id' }))).toEqual({ ok: false, reason: 'secret CLIENT_SECRET is not set' });
    expect(r.availability(oauth, '/x', new MemorySecrets({ CLIENT_ID: 'id', CLIENT_SECRET: 's' }))).toEqual({ ok: true });
  });

  it('reports a broken impl instead of throwing', () => {
    const r = makeRunner();
    const bad = httpTool({ urlTemplate: 'https://x.example/?q=${lower_case}' });
    expect(r.availability(bad, '/x', new MemorySecrets()).ok).toBe(false);
    const badExpr = httpTool({ urlTemplate: 'https://x.example/', extractExpr: '$[?(@.a)]' });
    expect(r.availability(badExpr, '/x', new MemorySecrets())).toMatchObject({ ok: false });
    const noImpl = { ...bad, impl: {} } as never;
    expect(r.availability(noImpl, '/x', new MemorySecrets())).toEqual({ ok: false, reason: 'impl.urlTemplate is missing' });
  });
});
