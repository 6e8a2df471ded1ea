/**
 * core.webSearch against a loopback HTTP server speaking each backend's real API: SearXNG's
 * `GET /search?format=json` and Brave Search's `GET /res/v1/web/search`, answering the exchanges
 * kept in test/fixtures/web-search/ (no SearXNG instance or Brave account can be reached from here).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createFunctionRegistry } from '../../../../electron/core/functions/core-functions.js';
import { createFunctionRunner } from '../../../../electron/core/tool-types/function/runner.js';
import { webSearchFunction, type WebSearchValue } from '../../../../electron/core/functions/web/web-search.js';
import { startLoopbackServer, sendJson, type LoopbackServer } from '../../../helpers/loopback-http.js';
import { MemorySecrets } from '../../../helpers/http-tools.js';
import { contextFor, coreErrorOf, expectMatchesOutputSchema, functionTool, noSecrets } from '../../../helpers/functions-context.js';
import { DEFAULT_CONFIG, type Config } from '../../../../shared/schemas.js';
import type { Runner } from '../../../../electron/core/invoke/types.js';
import type { SecretsReader } from '../../../../electron/core/secrets/types.js';

const fixture = (name: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../../fixtures/web-search/${name}`, import.meta.url)), 'utf8')) as unknown;
let server: LoopbackServer;
let runner: Runner;
let config: Config;
const secrets = new MemorySecrets({ BRAVE_KEY: 'brave-secret-123' });

beforeAll(async () => {
  server = await startLoopbackServer();
  server.route('/search', (req, res) => {
    if (req.query.get('format') !== 'json') return sendJson(res, 403, { error: 'format not enabled' });
    if (req.query.get('q') === 'forbidden') return sendJson(res, 403, {});
    if (req.query.get('q') === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>SearXNG</html>');
      return;
    }
    if (req.query.get('q') === 'hop') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
      return;
    }
    sendJson(res, 200, fixture('searxng-search.json'));
  });
  server.route('/res/v1/web/search', (req, res) => {
    if (req.headers['x-subscription-token'] !== 'brave-secret-123')
      return sendJson(res, 401, { type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID' } });
    sendJson(res, 200, fixture('brave-search.json'));
  });
  runner = createFunctionRunner(createFunctionRegistry(), () => config);
});

afterAll(async () => {
  await runner.close?.();
  await server.close();
});

const search = async (args: Record<string, unknown>, over: Partial<Config>, s: SecretsReader = secrets) => {
  config = { ...DEFAULT_CONFIG, ...over };
  const ctx = { ...contextFor('core.webSearch', args, { config }), secrets: s };
  return (await runner.run(ctx)).value as WebSearchValue;
};
const searxng = (path = '') => ({ webSearch: { provider: 'searxng' as const, url: `http://127.0.0.1:${server.port}${path}`, language: 'en' } });

describe('core.webSearch', () => {
  it('is unavailable until a backend is set, and says what is missing', () => {
    const availability = (c: Partial<Config>, s: SecretsReader = secrets) => {
      config = { ...DEFAULT_CONFIG, ...c };
      return runner.availability(functionTool('core.webSearch'), '', s);
    };
    expect(availability({})).toMatchObject({ ok: false, reason: expect.stringContaining('no search backend is set') });
    expect(availability({ webSearch: { provider: 'searxng' } })).toMatchObject({ ok: false, reason: expect.stringContaining('webSearch.url is not set') });
    expect(availability({ webSearch: { provider: 'brave' } })).toMatchObject({ ok: false, reason: expect.stringContaining('needs an API key') });
    expect(availability({ webSearch: { provider: 'brave', apiKeySecret: 'BRAVE_KEY' } }, noSecrets)).toEqual({
      ok: false,
      reason: 'secret BRAVE_KEY is not set',
    });
    expect(availability({ webSearch: { provider: 'brave', apiKeySecret: 'BRAVE_KEY' } })).toEqual({ ok: true });
    expect(availability(searxng())).toEqual({ ok: true });
  });

  it("asks SearXNG's JSON API and returns its results, suggestions and the engines that did not answer, leaving out a javascript: result", async () => {
    const v = await search({ query: 'toolwright mcp gateway', page: 2, timeRange: 'month' }, searxng());
    expectMatchesOutputSchema(webSearchFunction, v);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe('/search');
    expect(Object.fromEntries(sent.query)).toEqual({ q: 'toolwright mcp gateway', format: 'json', pageno: '2', language: 'en', time_range: 'month' });
    expect(v.results).toEqual([
      {
        title: 'Specification - Model Context Protocol',
        url: 'https://modelcontextprotocol.io/specification/2025-11-25',
        snippet: expect.stringContaining('open protocol'),
        source: 'duckduckgo, brave, startpage',
      },
      expect.objectContaining({ url: 'https://github.com/modelcontextprotocol/servers', publishedAt: '2025-03-14T00:00:00', source: 'brave' }),
    ]);
    expect(v.suggestions).toEqual(['mcp gateway open source', 'mcp server registry']);
    expect(v.unresponsive).toEqual([
      { engine: 'google', reason: 'timeout' },
      { engine: 'qwant', reason: 'CAPTCHA' },
    ]);
    expect((await search({ query: 'x', maxResults: 1 }, searxng('/'))).results).toHaveLength(1);
  });

  it('asks Brave Search with the key from the secret, never in the URL', async () => {
    const v = await search(
      { query: 'toolwrigth mcp', maxResults: 5, timeRange: 'week', language: 'de' },
      {
        webSearch: { provider: 'brave', url: `http://127.0.0.1:${server.port}`, apiKeySecret: 'BRAVE_KEY' },
      },
    );
    const sent = server.requests.at(-1)!;
    expect(Object.fromEntries(sent.query)).toEqual({ q: 'toolwrigth mcp', count: '5', offset: '0', search_lang: 'de', freshness: 'pw' });
    expect(sent.url).not.toContain('brave-secret-123');
    expect(v.results[0]).toEqual({
      title: 'Introduction - Model Context Protocol',
      url: 'https://modelcontextprotocol.io/introduction',
      snippet: 'MCP is an open protocol that standardizes how applications provide context to LLMs.',
      source: 'Model Context Protocol',
      publishedAt: '2025-06-18T00:00:00',
    });
    expect(v.suggestions).toEqual(['toolwright mcp']);
    expect(JSON.stringify(v)).not.toContain('brave-secret-123');
    const wrongKey = await coreErrorOf(() =>
      search(
        { query: 'x' },
        { webSearch: { provider: 'brave', url: `http://127.0.0.1:${server.port}`, apiKeySecret: 'BRAVE_KEY' } },
        new MemorySecrets({ BRAVE_KEY: 'wrong' }),
      ),
    );
    expect(wrongKey).toMatchObject({ code: 'UPSTREAM_ERROR', message: 'the search backend answered 401 (check the API key)' });
    expect(wrongKey.message).not.toContain('wrong');
  });

  it('says why a backend fails: JSON not enabled, not JSON, a redirect to a metadata address, a host not allowed', async () => {
    expect((await coreErrorOf(() => search({ query: 'forbidden' }, searxng()))).message).toContain('lists json under search.formats');
    expect((await coreErrorOf(() => search({ query: 'html' }, searxng()))).message).toContain('did not answer JSON');
    const hop = await coreErrorOf(() => search({ query: 'hop' }, searxng()));
    expect(hop.code).toBe('FORBIDDEN');
    expect(hop.message).toMatch(/^redirect to 169\.254\.169\.254 refused/);
    const unset = await coreErrorOf(() => search({ query: 'x' }, {}));
    expect(unset.code).toBe('TOOL_UNAVAILABLE');
    const badArgs = await coreErrorOf(() => search({ query: 'x', language: 'en; DROP' }, searxng()));
    expect(badArgs.code).toBe('INVALID_ARGS');
  });
});
