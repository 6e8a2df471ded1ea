/**
 * core.webFetch: a URL as readable Markdown or text. The request is the http tools' (allowedHosts,
 * private addresses refused at connect time, redirects checked hop by hop, the response size cap,
 * a deadline: guarded-get.ts); HTML is converted in a worker (html-convert.ts); a long page is read
 * in pieces with startIndex, as the MCP reference fetch server does.
 */
import { CoreError } from '../../errors.js';
import { HTTP_DEFAULTS } from '../../../../shared/tool-types/http.js';
import { defineFunction, type FunctionContext } from '../types.js';
import { clip, escapeHtml, preBlock } from '../html.js';
import type { FunctionServices } from '../services.js';

export const MAX_FETCH_CHARS = 200_000;
const DEFAULT_FETCH_CHARS = 20_000;
const MAX_TIMEOUT_SECONDS = 60;

export interface WebFetchValue {
  url: string;
  finalUrl: string;
  status: number;
  contentType: string;
  format: 'markdown' | 'text' | 'html';
  title?: string;
  article: boolean;
  content: string;
  totalChars: number;
  startIndex: number;
  truncated: boolean;
  nextStartIndex?: number;
}

/** The services a web function needs, or INTERNAL: the function runner always gives them. */
export function servicesOf(ctx: FunctionContext, fn: string): FunctionServices {
  if (!ctx.services) throw new CoreError('INTERNAL', `${fn} needs the function runner's services`);
  return ctx.services;
}

/** An http(s) URL argument, or INVALID_ARGS naming the field. */
export function urlArg(text: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CoreError('INVALID_ARGS', `${field} '${text.slice(0, 200)}' is not an absolute URL; write it as https://example.com/page`, {
      issues: [{ field, message: 'is not an absolute URL' }],
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CoreError('INVALID_ARGS', `${field} uses ${url.protocol}; only http and https URLs can be fetched`, {
      issues: [{ field, message: 'must be http or https' }],
    });
  }
  return url;
}

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;
const TEXT_TYPES =
  /^(text\/|application\/(json|xml|javascript|ecmascript|x-ndjson|ld\+json|rss\+xml|atom\+xml|yaml|x-yaml|toml)\b|application\/[a-z0-9.+-]+\+(json|xml)\b)/i;

/** Bytes to text with the answer's charset (UTF-8 when it names none or one the runtime does not know). */
function decode(body: Buffer, contentType: string): string {
  const charset = /charset="?([^";\s]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** The piece [start, start + max) of text, never splitting a surrogate pair. */
function window(text: string, start: number, max: number): { content: string; end: number } {
  let end = Math.min(text.length, start + max);
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
  return { content: text.slice(start, end), end };
}

export const webFetchFunction = defineFunction<
  { url: string; format?: 'markdown' | 'text' | 'html'; readable?: boolean; startIndex?: number; maxChars?: number; timeoutSeconds?: number },
  WebFetchValue
>({
  name: 'core.webFetch',
  description:
    'Fetch a web page and return it as readable Markdown (or plain text, or the raw HTML), with the main article kept when the page has one. ' +
    'Runs under the rules of http tools: the host must be in allowedHosts, private and loopback addresses are refused, redirects are checked, ' +
    'and the answer is capped in size and time. Long pages are read in pieces with startIndex.',
  argSchema: {
    type: 'object',
    properties: {
      url: { type: 'string', minLength: 1, maxLength: 4096, description: 'The http(s) URL to fetch, e.g. https://example.com/docs/page.' },
      format: {
        type: 'string',
        enum: ['markdown', 'text', 'html'],
        default: 'markdown',
        description: 'How an HTML page comes back: Markdown, plain text, or the HTML as received.',
      },
      readable: {
        type: 'boolean',
        default: true,
        description: "Keep only the page's main article when one is found (reader view); false converts the whole page.",
      },
      startIndex: {
        type: 'integer',
        minimum: 0,
        default: 0,
        description: 'Start at this character of the converted content (from nextStartIndex of an earlier call).',
      },
      maxChars: { type: 'integer', minimum: 100, maximum: MAX_FETCH_CHARS, default: DEFAULT_FETCH_CHARS, description: 'Return at most this many characters.' },
      timeoutSeconds: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_TIMEOUT_SECONDS,
        default: HTTP_DEFAULTS.timeoutMs / 1000,
        description: 'Give up when the whole answer has not arrived within this many seconds.',
      },
    },
    required: ['url'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      url: { type: 'string', description: 'The URL as asked.' },
      finalUrl: { type: 'string', description: 'The URL the content came from, after redirects.' },
      status: { type: 'integer', description: 'HTTP status of the answer.' },
      contentType: { type: 'string', description: 'Content-Type of the answer.' },
      format: {
        type: 'string',
        enum: ['markdown', 'text', 'html'],
        description: "What content is: HTML converted to 'markdown' or 'text', 'html' as received; any other text type is 'text'.",
      },
      title: { type: 'string', description: "The page's title, when it has one." },
      article: { type: 'boolean', description: 'True when only the main article was kept.' },
      content: { type: 'string', description: 'The piece of the content asked for.' },
      totalChars: { type: 'integer', minimum: 0, description: 'Length of the whole converted content.' },
      startIndex: { type: 'integer', minimum: 0, description: 'Where this piece starts.' },
      truncated: { type: 'boolean', description: 'True when more content follows this piece.' },
      nextStartIndex: { type: 'integer', minimum: 0, description: 'The startIndex of the next piece, when there is one.' },
    },
    required: ['url', 'finalUrl', 'status', 'contentType', 'format', 'article', 'content', 'totalChars', 'startIndex', 'truncated'],
    additionalProperties: false,
  },
  safety: 'readOnly',
  async run(
    { url: input, format = 'markdown', readable = true, startIndex = 0, maxChars = DEFAULT_FETCH_CHARS, timeoutSeconds = HTTP_DEFAULTS.timeoutMs / 1000 },
    ctx,
  ) {
    const services = servicesOf(ctx, 'core.webFetch');
    const url = urlArg(input, 'args.url');
    const res = await services.web.get(url, {
      config: ctx.config,
      signal: ctx.signal,
      timeoutMs: timeoutSeconds * 1000,
      headers: { accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.5' },
    });
    const contentType = res.headers['content-type'] ?? 'application/octet-stream';
    if (res.status < 200 || res.status > 299) {
      const snippet = clip(
        decode(res.body.subarray(0, 2000), contentType)
          .replace(/<[^>]*>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
        300,
      );
      throw new CoreError('UPSTREAM_ERROR', `${res.url.hostname} answered ${res.status}${snippet ? `: ${snippet}` : ''}`, {
        status: res.status,
        url: res.url.href,
      });
    }
    let text: string;
    let kind: WebFetchValue['format'];
    let title: string | undefined;
    let article = false;
    if (HTML_TYPES.test(contentType) && format !== 'html') {
      const converted = await services.html.convert({ html: res.body, contentType, url: res.url.href, format, readable }, ctx.signal);
      text = converted.content;
      title = converted.title || undefined;
      article = converted.article;
      kind = format;
    } else if (HTML_TYPES.test(contentType) || TEXT_TYPES.test(contentType)) {
      text = decode(res.body, contentType);
      kind = HTML_TYPES.test(contentType) ? 'html' : 'text';
    } else {
      throw new CoreError(
        'UPSTREAM_ERROR',
        `${res.url.hostname} answered ${contentType.split(';')[0]} (${res.body.length} bytes), which is not text; web-fetch reads HTML and text only`,
        { contentType, url: res.url.href },
      );
    }
    if (startIndex > text.length) {
      throw new CoreError('INVALID_ARGS', `startIndex ${startIndex} is past the end of the content (${text.length} characters)`, {
        issues: [{ field: 'args.startIndex', message: `must be at most ${text.length}` }],
      });
    }
    const piece = window(text, startIndex, maxChars);
    const truncated = piece.end < text.length;
    const value: WebFetchValue = {
      url: input,
      finalUrl: res.url.href,
      status: res.status,
      contentType,
      format: kind,
      ...(title ? { title } : {}),
      article,
      content: piece.content,
      totalChars: text.length,
      startIndex,
      truncated,
      ...(truncated ? { nextStartIndex: piece.end } : {}),
    };
    return {
      value,
      card: {
        title: title ?? res.url.href,
        html: `<p>${escapeHtml(res.url.href)}</p>${preBlock(clip(piece.content, 3000))}`,
        text: clip(piece.content, 200),
      },
    };
  },
});
