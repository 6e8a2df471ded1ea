/** core.webFetch against a real HTTP server on loopback, standing in for public hosts (*.test names resolve to it). */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createFunctionRegistry } from '../../../../electron/core/functions/core-functions.js';
import { createFunctionRunner } from '../../../../electron/core/tool-types/function/runner.js';
import { classifyAddress } from '../../../../electron/core/tool-types/http/addresses.js';
import { webFetchFunction, type WebFetchValue } from '../../../../electron/core/functions/web/web-fetch.js';
import { startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-http.js';
import { contextFor, coreErrorOf, expectMatchesOutputSchema } from '../../../helpers/functions-context.js';
import type { Runner } from '../../../../electron/core/invoke/types.js';

let server: LoopbackServer;
let runner: Runner;
/** The same runner with the real guard: loopback is loopback. */
let strict: Runner;

const ARTICLE = `<!doctype html><html><head><title>Release notes</title><script>window.evil = 1</script><style>body{color:red}</style></head>
<body><nav><a href="/home">Home</a> | <a href="/about">About us</a> NAVIGATION-NOISE</nav>
<article><h1>Version 2.0 is out</h1>
${'<p>This release brings a new scheduler, faster search and many fixes that users asked for over the last year. </p>'.repeat(6)}
<p>See <a href="/docs/upgrade?from=1">the upgrade guide</a> and <a href="javascript:alert(1)">this trap</a>.</p>
<pre><code>npm install toolwright@2</code></pre>
<ul><li>First item</li><li>Second item</li></ul></article>
<footer>FOOTER-NOISE &copy; 2026</footer><script>document.write('INJECTED')</script></body></html>`;

beforeAll(async () => {
  server = await startLoopbackServer();
  const html =
    (body: string, type = 'text/html; charset=utf-8') =>
    (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    };
  server.route('/article', html(ARTICLE));
  server.route('/plain', html('line one\nline two\n', 'text/plain'));
  server.route('/json', html('{"a":1}', 'application/json'));
  server.route('/latin1', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' });
    res.end(
      Buffer.concat([Buffer.from('<html><body><p>Caf'), Buffer.from([0xe9]), Buffer.from(' cr'), Buffer.from([0xe8]), Buffer.from('me</p></body></html>')]),
    );
  });
  server.route('/pdf', html('%PDF-1.4 binary', 'application/pdf'));
  server.route('/missing', (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<h1>Not here</h1>');
  });
  server.route('/redirect', (_req, res) => {
    res.writeHead(302, { location: `http://docs.test:${server.port}/plain` });
    res.end();
  });
  server.route('/to-metadata', (_req, res) => {
    res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
    res.end();
  });
  server.route('/to-other', (_req, res) => {
    res.writeHead(302, { location: `http://elsewhere.test:${server.port}/plain` });
    res.end();
  });
  server.route('/big', html('<p>' + 'x'.repeat(150_000) + '</p>'));
  server.route('/huge', html('<p>' + 'x'.repeat(300_000) + '</p>'));
  server.route('/deep', html('<div>'.repeat(15_000) + 'DEEP-TEXT' + '</div>'.repeat(15_000)));
  server.route('/slow', () => undefined); // never answers
  const lookup = async (name: string) => {
    if (name.endsWith('.test')) return [{ address: '127.0.0.1', family: 4 }];
    if (name === 'rebind.example') return [{ address: '10.0.0.7', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  };
  runner = createFunctionRunner(createFunctionRegistry(), undefined, {
    http: { lookup, classifyAddress: (a) => (a === '127.0.0.1' ? { ok: true, range: 'unicast' } : classifyAddress(a)), maxResponseBytes: 200_000 },
    convertBudgetMs: 10_000,
  });
  strict = createFunctionRunner(createFunctionRegistry(), undefined, { http: { lookup } });
});

afterAll(async () => {
  await runner.close?.();
  await strict.close?.();
  await server.close();
});

const config = { allowedHosts: ['docs.test', 'rebind.example', '127.0.0.1'], allowPrivateNetwork: false };
const fetchPage = async (args: Record<string, unknown>, r: Runner = runner) =>
  (await r.run(contextFor('core.webFetch', args, { config }))).value as WebFetchValue;
const at = (path: string, host = 'docs.test') => `http://${host}:${server.port}${path}`;

describe('core.webFetch', () => {
  it('turns an article page into Markdown: the article kept, scripts, navigation and footer gone, links absolute, javascript: links dropped', async () => {
    const v = await fetchPage({ url: at('/article') });
    expectMatchesOutputSchema(webFetchFunction, v);
    expect(v).toMatchObject({ status: 200, format: 'markdown', article: true, title: 'Release notes', truncated: false, startIndex: 0 });
    expect(v.content).toContain('This release brings a new scheduler');
    expect(v.content).toContain(`[the upgrade guide](http://docs.test:${server.port}/docs/upgrade?from=1)`);
    expect(v.content).toContain('```\nnpm install toolwright@2\n```');
    expect(v.content).toMatch(/^-\s+First item$/m);
    for (const absent of ['NAVIGATION-NOISE', 'FOOTER-NOISE', 'window.evil', 'INJECTED', 'color:red', 'javascript:']) expect(v.content).not.toContain(absent);
    const whole = await fetchPage({ url: at('/article'), readable: false, format: 'text' });
    expect(whole).toMatchObject({ article: false, format: 'text' });
    expect(whole.content).toContain('NAVIGATION-NOISE');
    expect(whole.content).not.toContain('window.evil');
    const raw = await fetchPage({ url: at('/article'), format: 'html' });
    expect(raw).toMatchObject({ format: 'html' });
    expect(raw.content).toBe(ARTICLE);
  });

  it('returns text types as they are, decodes the declared charset, and follows a checked redirect', async () => {
    expect(await fetchPage({ url: at('/plain') })).toMatchObject({ format: 'text', content: 'line one\nline two\n' });
    expect(await fetchPage({ url: at('/json') })).toMatchObject({ format: 'text', content: '{"a":1}' });
    expect((await fetchPage({ url: at('/latin1') })).content).toBe('Café crème');
    const hop = await fetchPage({ url: at('/redirect') });
    expect(hop).toMatchObject({ finalUrl: at('/plain'), content: 'line one\nline two\n' });
  });

  it('reads a long page in pieces with startIndex and nextStartIndex', async () => {
    const first = await fetchPage({ url: at('/big'), maxChars: 100_000 });
    expect(first).toMatchObject({ truncated: true, nextStartIndex: 100_000, totalChars: 150_000 });
    const last = await fetchPage({ url: at('/big'), maxChars: 100_000, startIndex: 100_000 });
    expect(last.truncated).toBe(false);
    expect(last.nextStartIndex).toBeUndefined();
    expect((await coreErrorOf(() => fetchPage({ url: at('/big'), startIndex: 200_000 }))).code).toBe('INVALID_ARGS');
  });

  it('stops a page built to stall the parser (15,000 nested elements) in its worker: the app keeps running, the next page converts', async () => {
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 50);
    const started = Date.now();
    const err = await coreErrorOf(() => fetchPage({ url: at('/deep'), readable: false })).finally(() => clearInterval(ticking));
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toContain('fetch it with format "html"');
    // The main thread was free the whole time: a timer every 50 ms kept firing.
    expect(ticks).toBeGreaterThan((Date.now() - started) / 50 / 3);
    expect((await fetchPage({ url: at('/plain'), format: 'html' })).content).toBe('line one\nline two\n');
    expect((await fetchPage({ url: at('/article') })).article).toBe(true);
  });

  it.each([
    ['file:///etc/passwd', 'INVALID_ARGS', 'only http and https'],
    ['javascript:alert(1)', 'INVALID_ARGS', 'only http and https'],
    ['not a url', 'INVALID_ARGS', 'not an absolute URL'],
    ['http://user:pw@docs.test/', 'FORBIDDEN', 'user name or password'],
    ['http://not-allowed.test/', 'FORBIDDEN', 'not in allowedHosts'],
  ])('refuses %s', async (url, code, message) => {
    const err = await coreErrorOf(() => fetchPage({ url }));
    expect(err.code).toBe(code);
    expect(err.message).toContain(message);
  });

  it('keeps the SSRF guard: loopback, a name resolving to a private address, a redirect to metadata or to a host not allowed', async () => {
    const loop = await coreErrorOf(() => fetchPage({ url: at('/plain', '127.0.0.1') }, strict));
    expect(loop.code).toBe('FORBIDDEN');
    expect(loop.message).toContain('loopback');
    const rebind = await coreErrorOf(() => fetchPage({ url: 'http://rebind.example/' }, strict));
    expect(rebind.code).toBe('FORBIDDEN');
    expect(rebind.message).toContain('private');
    const meta = await coreErrorOf(() => fetchPage({ url: at('/to-metadata') }));
    expect(meta.code).toBe('FORBIDDEN');
    expect(meta.message).toMatch(/^redirect to 169\.254\.169\.254 refused: /);
    const other = await coreErrorOf(() => fetchPage({ url: at('/to-other') }));
    expect(other.message).toContain('elsewhere.test is not in allowedHosts');
    expect(server.requests.some((r) => r.headers.host?.startsWith('elsewhere.test'))).toBe(false);
  });

  it('keeps the size and time limits, and says why a status or a type is refused', async () => {
    const big = await coreErrorOf(() => fetchPage({ url: at('/huge') }, runner));
    expect(big.code).toBe('UPSTREAM_ERROR');
    expect(big.message).toMatch(/more than the .* cap/);
    const slow = await coreErrorOf(() => fetchPage({ url: at('/slow'), timeoutSeconds: 1 }));
    expect(slow.code).toBe('TIMEOUT');
    const missing = await coreErrorOf(() => fetchPage({ url: at('/missing') }));
    expect(missing).toMatchObject({ code: 'UPSTREAM_ERROR', message: 'docs.test answered 404: Not here' });
    const pdf = await coreErrorOf(() => fetchPage({ url: at('/pdf') }));
    expect(pdf.message).toContain('application/pdf');
  });
});
