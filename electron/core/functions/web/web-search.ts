/**
 * core.webSearch: a query to the search backend a person configured (config.webSearch): a SearXNG
 * instance's JSON API (`GET /search?format=json`, the instance must list `json` in
 * search.formats) or the Brave Search API (`GET /res/v1/web/search`, key in a secret). Unavailable
 * until it is set. The backend's host counts as allowed (a person named it, a local SearXNG
 * included); every other rule of the http tools holds (guarded-get.ts).
 */
import { CoreError } from '../../errors.js';
import { BRAVE_API_URL, type WebSearchSettings } from '../../../../shared/core-tools.js';
import type { Config } from '../../../../shared/schemas.js';
import type { Availability } from '../../../../shared/types.js';
import type { SecretsReader } from '../../secrets/types.js';
import { defineFunction } from '../types.js';
import { clip, escapeHtml } from '../html.js';
import { servicesOf } from './web-fetch.js';

const TIMEOUT_MS = 15_000;
const MAX_RESULTS = 20;

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
  source?: string;
  publishedAt?: string;
}

export interface WebSearchValue {
  query: string;
  provider: WebSearchSettings['provider'];
  page: number;
  results: SearchHit[];
  suggestions: string[];
  /** Engines of a metasearch backend that did not answer, with why (a partial answer, not an empty one). */
  unresponsive: { engine: string; reason: string }[];
}

function backendOf(config: Config): WebSearchSettings | undefined {
  return config.webSearch ?? undefined;
}

function baseUrl(settings: WebSearchSettings): URL {
  const text = settings.url ?? (settings.provider === 'brave' ? BRAVE_API_URL : undefined);
  if (!text) throw new CoreError('TOOL_UNAVAILABLE', 'webSearch.url is not set: give the address of your SearXNG instance in Settings');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CoreError('TOOL_UNAVAILABLE', `webSearch.url '${text}' is not an absolute URL; fix it in Settings`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CoreError('TOOL_UNAVAILABLE', `webSearch.url must be http or https (got ${url.protocol})`);
  return url;
}

function searchAvailability(config: Config, _services: unknown, secrets: SecretsReader): Availability {
  const settings = backendOf(config);
  if (!settings)
    return { ok: false, reason: 'no search backend is set: give a SearXNG URL or a Brave Search API key under Settings → Web search (config webSearch)' };
  try {
    baseUrl(settings);
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  if (settings.provider === 'brave' && !settings.apiKeySecret)
    return { ok: false, reason: 'webSearch.apiKeySecret is not set: Brave Search needs an API key, stored as a secret' };
  if (settings.apiKeySecret && !secrets.has(settings.apiKeySecret)) return { ok: false, reason: `secret ${settings.apiKeySecret} is not set` };
  return { ok: true };
}

const FRESHNESS = { day: 'pd', week: 'pw', month: 'pm', year: 'py' } as const;
type TimeRange = keyof typeof FRESHNESS;

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const isWebUrl = (v: string) => /^https?:\/\//i.test(v);

/** SearXNG's answer (searx/webapp.py, format=json): results, suggestions, unresponsive_engines as [engine, reason] pairs. */
function readSearxng(body: unknown): Omit<WebSearchValue, 'query' | 'provider' | 'page'> {
  const b = body as { results?: unknown; suggestions?: unknown; unresponsive_engines?: unknown };
  if (!Array.isArray(b?.results))
    throw new CoreError('UPSTREAM_ERROR', 'the SearXNG answer has no results list; is this the JSON API (search.formats must include json)?');
  const results = (b.results as Record<string, unknown>[]).map((r) => ({
    title: text(r['title']),
    url: text(r['url']),
    snippet: text(r['content']),
    ...(Array.isArray(r['engines']) ? { source: (r['engines'] as unknown[]).map(text).join(', ') } : text(r['engine']) ? { source: text(r['engine']) } : {}),
    ...(text(r['publishedDate']) ? { publishedAt: text(r['publishedDate']) } : {}),
  }));
  const unresponsive = Array.isArray(b.unresponsive_engines)
    ? (b.unresponsive_engines as unknown[]).map((pair) =>
        Array.isArray(pair) ? { engine: text(pair[0]), reason: text(pair[1]) } : { engine: text(pair), reason: '' },
      )
    : [];
  return { results, suggestions: Array.isArray(b.suggestions) ? (b.suggestions as unknown[]).map(text).filter(Boolean) : [], unresponsive };
}

/** Brave marks the query's words in titles and descriptions. */
const HIGHLIGHT = /<\/?strong>/g;

/** Brave Search's answer (web.results[].title/url/description, query.altered). */
function readBrave(body: unknown): Omit<WebSearchValue, 'query' | 'provider' | 'page'> {
  const b = body as { web?: { results?: unknown }; query?: { altered?: unknown } };
  const list = b?.web?.results;
  if (list !== undefined && !Array.isArray(list)) throw new CoreError('UPSTREAM_ERROR', 'the Brave Search answer has no web.results list');
  const results = ((list ?? []) as Record<string, unknown>[]).map((r) => ({
    title: text(r['title']).replace(HIGHLIGHT, ''),
    url: text(r['url']),
    snippet: text(r['description']).replace(HIGHLIGHT, ''),
    ...(text((r['profile'] as Record<string, unknown> | undefined)?.['name']) ? { source: text((r['profile'] as Record<string, unknown>)['name']) } : {}),
    ...(text(r['page_age']) ? { publishedAt: text(r['page_age']) } : {}),
  }));
  return { results, suggestions: text(b?.query?.altered) ? [text(b.query!.altered)] : [], unresponsive: [] };
}

export const webSearchFunction = defineFunction<
  { query: string; maxResults?: number; page?: number; timeRange?: TimeRange; language?: string },
  WebSearchValue
>({
  name: 'core.webSearch',
  availability: searchAvailability,
  description:
    'Search the web through the search backend set in Settings (a SearXNG instance or the Brave Search API) and return titles, URLs and snippets. ' +
    'Unavailable until a backend is set. Use web-fetch to read a result.',
  argSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 400, description: 'What to search for.' },
      maxResults: { type: 'integer', minimum: 1, maximum: MAX_RESULTS, default: 10, description: 'Return at most this many results.' },
      page: { type: 'integer', minimum: 1, maximum: 10, default: 1, description: 'Which page of results (1 for the first).' },
      timeRange: { type: 'string', enum: ['day', 'week', 'month', 'year'], description: 'Only results from the last day, week, month or year.' },
      language: {
        type: 'string',
        pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
        maxLength: 16,
        description: "Results in this language, e.g. 'en' (Settings' default otherwise).",
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'The query as given.' },
      provider: { type: 'string', enum: ['searxng', 'brave'], description: 'The backend that answered.' },
      page: { type: 'integer', minimum: 1, description: 'The page of results.' },
      results: {
        type: 'array',
        description: 'Results in the order the backend ranked them.',
        items: {
          type: 'object',
          properties: {
            title: { type: 'string', description: 'Title of the page.' },
            url: { type: 'string', description: 'Address of the page.' },
            snippet: { type: 'string', description: 'Text around the match, as the backend gives it.' },
            source: { type: 'string', description: 'Which engines (SearXNG) or site (Brave) it came from.' },
            publishedAt: { type: 'string', description: 'When the page was published, as the backend gives it.' },
          },
          required: ['title', 'url', 'snippet'],
          additionalProperties: false,
        },
      },
      suggestions: { type: 'array', items: { type: 'string' }, description: 'Other queries the backend suggests.' },
      unresponsive: {
        type: 'array',
        description: 'Engines that did not answer (the results may be partial).',
        items: {
          type: 'object',
          properties: { engine: { type: 'string', description: 'The engine.' }, reason: { type: 'string', description: 'Why, as the backend says.' } },
          required: ['engine', 'reason'],
          additionalProperties: false,
        },
      },
    },
    required: ['query', 'provider', 'page', 'results', 'suggestions', 'unresponsive'],
    additionalProperties: false,
  },
  safety: 'readOnly',
  async run({ query, maxResults = 10, page = 1, timeRange, language }, ctx) {
    const services = servicesOf(ctx, 'core.webSearch');
    const settings = backendOf(ctx.config);
    const ready = searchAvailability(ctx.config, services, ctx.secrets);
    if (!settings || !ready.ok) throw new CoreError('TOOL_UNAVAILABLE', ready.reason ?? 'no search backend is set');
    const base = baseUrl(settings);
    const key = settings.apiKeySecret ? ctx.secrets.get(settings.apiKeySecret) : undefined;
    const lang = language ?? settings.language;
    let url: URL;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (settings.provider === 'searxng') {
      url = new URL('search', base.href.endsWith('/') ? base : new URL(base.href + '/'));
      url.search = new URLSearchParams({
        q: query,
        format: 'json',
        pageno: String(page),
        ...(lang ? { language: lang } : {}),
        ...(timeRange ? { time_range: timeRange } : {}),
      }).toString();
      if (key) headers['authorization'] = `Bearer ${key}`;
    } else {
      url = new URL('/res/v1/web/search', base);
      url.search = new URLSearchParams({
        q: query,
        count: String(maxResults),
        offset: String(page - 1),
        ...(lang ? { search_lang: lang } : {}),
        ...(timeRange ? { freshness: FRESHNESS[timeRange] } : {}),
      }).toString();
      headers['x-subscription-token'] = key!;
    }
    // The backend a person configured is allowed (even on this machine); redirects and everything else keep config's rules.
    const policy = { allowedHosts: [...ctx.config.allowedHosts, base.hostname], allowPrivateNetwork: ctx.config.allowPrivateNetwork || isLocalBackend(base) };
    const res = await services.web.get(url, { config: ctx.config, signal: ctx.signal, timeoutMs: TIMEOUT_MS, headers, what: 'the search backend', policy });
    if (res.status < 200 || res.status > 299) {
      const hint =
        res.status === 403 && settings.provider === 'searxng'
          ? ' (a SearXNG instance answers 403 to format=json unless its settings.yml lists json under search.formats)'
          : res.status === 401 || res.status === 422
            ? ' (check the API key)'
            : '';
      throw new CoreError('UPSTREAM_ERROR', `the search backend answered ${res.status}${hint}`, { status: res.status });
    }
    let body: unknown;
    try {
      body = JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new CoreError('UPSTREAM_ERROR', 'the search backend did not answer JSON; check webSearch.url');
    }
    const read = settings.provider === 'searxng' ? readSearxng(body) : readBrave(body);
    // A result with a javascript: or data: address is no web page; it is left out.
    const results = read.results.filter((r) => isWebUrl(r.url)).slice(0, maxResults);
    const value: WebSearchValue = { query, provider: settings.provider, page, ...read, results };
    const items = results
      .map((r) => `<li><b>${escapeHtml(clip(r.title, 120))}</b><br>${escapeHtml(r.url)}<br>${escapeHtml(clip(r.snippet, 200))}</li>`)
      .join('');
    return {
      value,
      card: { title: `${query}: ${results.length} result${results.length === 1 ? '' : 's'}`, html: `<ol>${items}</ol>`, text: `${results.length} results` },
    };
  },
});

/** A backend on this machine or a private network (a self-hosted SearXNG): its own host is reached even with allowPrivateNetwork off. */
function isLocalBackend(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(host) || host === '::1';
}
