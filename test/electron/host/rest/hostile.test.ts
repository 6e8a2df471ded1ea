/**
 * The headless host under hostile requests (issue: hostile input cannot freeze, crash or leak).
 * Every answer keeps the contract's `{error:{code, message}}` shape and a bounded size; no
 * request blocks the event loop for other clients.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { v7 as uuidv7 } from 'uuid';
import { startHost, type TestHost } from '../../../helpers/host.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-http.js';

let h: TestHost;
let bundleID: string;
let upstream: LoopbackServer;

beforeAll(async () => {
  h = await startHost();
  upstream = await startLoopbackServer();
  upstream.route('/echo', (_req, res) => sendJson(res, 200, { ok: true }));
  await h.api('PATCH', '/tools/config', { allowedHosts: ['127.0.0.1'], allowPrivateNetwork: true });
  bundleID = uuidv7();
  const put = await h.api('PUT', `/tools/bundles/${bundleID}`, { slug: 'hostile', displayName: 'Hostile' });
  expect(put.status).toBeLessThan(300);
});
afterAll(async () => {
  await upstream.close();
  await h.close();
});

const toolPath = (slug: string, version = 'v1') => `/tools/bundles/${bundleID}/tools/${encodeURIComponent(slug)}/version/${encodeURIComponent(version)}`;

function echoTool(argSchema: unknown) {
  return { type: 'function', displayName: 'Echo', impl: { function: 'core.textStats' }, argSchema };
}

function expectContractError(res: { status: number; body: any }, status: number, code?: string) {
  expect(res.status).toBe(status);
  expect(typeof res.body?.error?.code).toBe('string');
  expect(typeof res.body?.error?.message).toBe('string');
  if (code) expect(res.body.error.code).toBe(code);
}

/** A JSON body sent as the exact text given. */
async function rawJson(method: string, path: string, text: string): Promise<{ status: number; body: any }> {
  const res = await fetch(h.url + path, { method, headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' }, body: text });
  return { status: res.status, body: await res.json() };
}

/** A raw request, for what fetch() will not send (a 100 KB request line). */
function raw(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; contentType: string | undefined }> {
  const url = new URL(h.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET', headers: { authorization: `Bearer ${h.token}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, contentType: res.headers['content-type'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('argument, header, slug and setting names that are Object members', () => {
  const NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf'];

  /** An http tool whose url and headers carry every name, against a loopback server that echoes them. */
  async function protoTool(slug: string, required: string[] = []) {
    const properties = Object.fromEntries(NAMES.map((n) => [n, { type: 'string' }]));
    const tool = {
      type: 'http',
      displayName: 'Proto',
      impl: {
        method: 'GET',
        urlTemplate: upstream.url('/echo') + '?' + NAMES.map((n) => `${n}=\${${n}}`).join('&'),
        headers: Object.fromEntries(NAMES.map((n) => [n, `h-\${${n}}`])),
      },
      argSchema: { type: 'object', properties, required, additionalProperties: false },
      card: { enabled: true, title: 'Card {{toString}}{{constructor}}' },
    };
    const created = await h.api('PUT', toolPath(slug), tool);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }

  it('optional arguments named like Object members are not required, not read from the prototype, and fill url, headers and card title', async () => {
    await protoTool('proto-args');
    const none = await h.api('POST', `${toolPath('proto-args')}/invoke`, { args: {} });
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body.ok, JSON.stringify(none.body)).toBe(true);
    const sentEmpty = upstream.requests.at(-1)!;
    for (const n of NAMES) expect(sentEmpty.query.get(n)).toBeNull(); // optional and not given: left out, never the prototype's member
    expect(sentEmpty.url).not.toContain('function');
    expect(none.body.card?.title ?? '').not.toContain('function');

    const args = Object.fromEntries(NAMES.map((n) => [n, `v-${n}`]));
    const all = await h.api('POST', `${toolPath('proto-args')}/invoke`, { args });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const sent = upstream.requests.at(-1)!;
    for (const n of NAMES) {
      expect(sent.query.get(n)).toBe(`v-${n}`);
      expect(sent.headers[n.toLowerCase()]).toBe(`h-v-${n}`);
    }
    expect(all.body.card.title).toBe('Card v-toStringv-constructor');
    expectContractError(await h.api('POST', `${toolPath('proto-args')}/invoke`, { args: { nope: 'x' } }), 400, 'INVALID_ARGS');
  });

  it('a required argument named toString is missing when not given', async () => {
    await protoTool('proto-required', ['toString', 'constructor']);
    const missing = await h.api('POST', `${toolPath('proto-required')}/invoke`, { args: {} });
    expectContractError(missing, 400, 'INVALID_ARGS');
    expect(missing.body.error.message).toContain('toString');
    const given = await h.api('POST', `${toolPath('proto-required')}/invoke`, { args: { toString: 'x', constructor: 'y' } });
    expect(given.status, JSON.stringify(given.body)).toBe(200);
  });

  it('a key named __proto__ is refused with a message that says why, in any body', async () => {
    const res = await h.api('POST', `${toolPath('proto-args')}/invoke`, JSON.parse('{"args": {"__proto__": {"polluted": true}}}'));
    expectContractError(res, 400, 'INVALID_INPUT');
    expect(res.body.error.message).toContain('__proto__');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('a placeholder named like a prototype member that is not an argument is still refused at save', async () => {
    const bad = await h.api('PUT', toolPath('proto-http-bad'), {
      type: 'http',
      displayName: 'Proto',
      impl: { method: 'GET', urlTemplate: upstream.url('/echo') + '?c=${constructor}' },
      argSchema: { type: 'object', properties: {} },
    });
    expectContractError(bad, 400, 'INVALID_INPUT');
    expect(bad.body.error.message).toContain('constructor');
  });

  it('slugs named like Object members are ordinary slugs (__proto__ is not a slug: "_" is not allowed)', async () => {
    for (const slug of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const created = await h.api('PUT', toolPath(slug), {
        type: 'function',
        displayName: 'C',
        impl: { function: 'core.uuid' },
        argSchema: { type: 'object' },
      });
      expect(created.status, `${slug}: ${JSON.stringify(created.body)}`).toBe(201);
      const got = await h.api('GET', toolPath(slug));
      expect(got.status).toBe(200);
      expect(got.body.slug).toBe(slug);
      expect((await h.api('GET', toolPath(slug, 'v2'))).status).toBe(404);
    }
    const search = await h.api('GET', '/tools/tools/search?q=constructor');
    expect(search.status).toBe(200);
    expectContractError(await h.api('GET', toolPath('__proto__')), 400, 'INVALID_INPUT');
    const bundleSlug = await h.api('PUT', `/tools/bundles/${uuidv7()}`, { slug: 'constructor', displayName: 'C' });
    expect(bundleSlug.status).toBeLessThan(300);
  });

  it('secret and setting names that are Object members are refused or unknown, never read from the prototype', async () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty']) {
      expectContractError(await h.api('PUT', `/tools/secrets/${name}`, { value: 'x' }), 400, 'INVALID_INPUT');
      expectContractError(await h.api('PATCH', '/tools/config', { [name]: { x: 1 } }), 400, 'INVALID_INPUT');
    }
    expect(JSON.stringify((await h.api('GET', '/tools/secrets')).body)).not.toContain('constructor');
  });
});

describe('header names HTTP forbids', () => {
  it.each([['Bad Header'], ['X\r\nY'], [''], ['X:Y'], ['Ü']])('refuses %j at save, naming the header', async (name) => {
    const res = await h.api('PUT', toolPath(`hdr-${uuidv7().slice(-6)}`), {
      type: 'http',
      displayName: 'H',
      impl: { method: 'GET', urlTemplate: 'http://127.0.0.1:9/', headers: { [name]: 'v' } },
      argSchema: { type: 'object', properties: {} },
    });
    expectContractError(res, 400, 'INVALID_INPUT');
    expect(res.body.error.message).toMatch(/header/i);
  });

  it.each([['a\r\nInjected: 1'], ['a\nb'], ['a\u0000b']])('refuses a header value holding %j', async (value) => {
    const res = await h.api('PUT', toolPath(`hdrv-${uuidv7().slice(-6)}`), {
      type: 'http',
      displayName: 'H',
      impl: { method: 'GET', urlTemplate: 'http://127.0.0.1:9/', headers: { 'X-Ok': value } },
      argSchema: { type: 'object', properties: {} },
    });
    expectContractError(res, 400, 'INVALID_INPUT');
    expect(res.body.error.message).toContain('CR, LF or NUL');
  });
});

describe('answers that stay inside the contract', () => {
  it('a 100 KB query string gets 431 with the error shape', async () => {
    const res = await raw(`/tools/tools/search?q=${'a'.repeat(100_000)}`);
    expect(res.status).toBe(431);
    expect(res.contentType).toContain('application/json');
    expect(JSON.parse(res.body).error.code).toBe('HEADERS_TOO_LARGE');
  });

  it('an unknown route, inside and outside /tools, answers 404 with the error shape', async () => {
    expectContractError(await h.api('GET', '/tools/nope'), 404, 'NOT_FOUND');
    expectContractError(await h.api('POST', '/elsewhere'), 404, 'NOT_FOUND');
    expectContractError(await h.api('GET', '/'), 404, 'NOT_FOUND');
  });

  it('a body that is not JSON, and one over the size limit, answer 400 and 413 with the error shape', async () => {
    const bad = await fetch(`${h.url}/tools/bundles/${uuidv7()}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
      body: '{"slug": ',
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('INVALID_INPUT');
    const big = await fetch(`${h.url}/tools/bundles/${uuidv7()}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'x', description: 'd'.repeat(33 * 1024 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect((await big.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('100,000 unknown keys get a short error: 20 issues, a count, no echo of the input', async () => {
    const body: Record<string, number> = { slug: 1 as unknown as number };
    for (let i = 0; i < 100_000; i++) body[`k${i}`] = i;
    const res = await h.api('PUT', `/tools/bundles/${uuidv7()}`, body);
    expectContractError(res, 400, 'INVALID_INPUT');
    expect(JSON.stringify(res.body).length).toBeLessThan(64 * 1024);
    expect(res.body.error.details.issues.length).toBeLessThanOrEqual(20);
    expect(res.body.error.details.issueCount).toBeGreaterThan(20);
  });

  it('a 1 MB key is quoted at most ~200 characters', async () => {
    const key = 'K'.repeat(1024 * 1024);
    const res = await h.api('PUT', `/tools/bundles/${uuidv7()}`, { slug: 'ok', [key]: 1 });
    expectContractError(res, 400, 'INVALID_INPUT');
    expect(JSON.stringify(res.body).length).toBeLessThan(2 * 1024);
  });

  it('a 10,000-deep argSchema and deeply nested arguments answer 400 with the path, not 500', async () => {
    // Built as text: JSON.stringify itself recurses and would overflow on the client side.
    const schemaText = '{"type":"object","properties":{"a":'.repeat(10_000) + '{"type":"string"}' + '}}'.repeat(10_000);
    const deepBody = `{"type":"function","displayName":"Deep","impl":{"function":"core.textStats"},"argSchema":${schemaText}}`;
    const deep = await rawJson('PUT', toolPath('deep'), deepBody);
    expectContractError(deep, 400, 'INVALID_INPUT');
    expect(deep.body.error.message).toMatch(/deeper than \d+ levels/);
    expect(JSON.stringify(deep.body).length).toBeLessThan(8 * 1024);

    const recursive = { type: 'object', properties: { a: { $ref: '#' } } };
    expect((await h.api('PUT', toolPath('recursive'), echoTool(recursive))).status).toBe(201);
    const argsText = '{"a":'.repeat(5_000) + '{}' + '}'.repeat(5_000);
    const call = await rawJson('POST', `${toolPath('recursive')}/invoke`, `{"args":${argsText}}`);
    expectContractError(call, 400, 'INVALID_INPUT');
    // Inside the request bound but past the arguments' own: refused by the engine before ajv walks it.
    const eighty = '{"a":'.repeat(80) + '{}' + '}'.repeat(80);
    const call80 = await rawJson('POST', `${toolPath('recursive')}/invoke`, `{"args":${eighty}}`);
    expectContractError(call80, 400, 'INVALID_ARGS');
    expect(call80.body.error.message).toMatch(/deeper than 64 levels/);
    expect(call.body.error.message).toMatch(/deeper than \d+ levels/);
  });
});

describe('regular expressions written by tool authors run in linear time', () => {
  it('catastrophic patterns do not stop the host answering another client', async () => {
    const created = await h.api('PUT', toolPath('redos'), echoTool({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } }));
    expect(created.status).toBe(201);
    const created2 = await h.api(
      'PUT',
      toolPath('redos-props'),
      echoTool({ type: 'object', patternProperties: { '^(a|aa)+$': { type: 'string' } }, additionalProperties: false }),
    );
    expect(created2.status).toBe(201);
    const hostile = 'a'.repeat(40) + '!';
    const attacks = Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? h.api('POST', `${toolPath('redos')}/invoke`, { args: { s: hostile } })
          : h.api('POST', `${toolPath('redos-props')}/invoke`, { args: { [hostile]: 'x' } }),
      ),
    );
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      const res = await h.api('GET', '/tools/bundles');
      latencies.push(performance.now() - started);
      expect(res.status).toBe(200);
    }
    const answers = await attacks;
    for (const a of answers) expectContractError(a, 400, 'INVALID_ARGS');
    // A backtracking engine spends hours on each of these; linear matching answers at once. The bound
    // only tells a hang from a loaded machine (369 ms was seen under load), it is no speed goal.
    expect(Math.max(...latencies)).toBeLessThan(5_000);
  });

  it('a pattern RE2 cannot run is refused at save with the reason', async () => {
    const res = await h.api('PUT', toolPath('backref'), echoTool({ type: 'object', properties: { s: { type: 'string', pattern: '^(a)\\1$' } } }));
    expectContractError(res, 400, 'INVALID_INPUT');
    expect(res.body.error.message).toMatch(/backreference|RE2|linear/i);
  });
});
