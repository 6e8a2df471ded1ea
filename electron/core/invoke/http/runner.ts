/**
 * The http runner: a tool whose impl is a templated HTTP call (docs/contracts.md, "tool.json", impl `http`).
 *
 * One call: expand the templates (request.ts), check the destination against allowedHosts and
 * the private-address rule (addresses.ts; again on every redirect hop and at connect time),
 * send with auth (auth.ts), follow up to 5 redirects, retry network errors, 429 and 5xx
 * (retry.ts), then parse and extract the value (response.ts, extract.ts).
 *
 * timeoutMs (default 10 s) bounds the whole call, token request, redirects, retries and
 * waits included: an agent calling a tool gets an answer within it. A caller that streams
 * (ctx.emit) gets a successful answer's body as it arrives (body-stream.ts); once some of it
 * went out, a failure is no longer retried.
 *
 * Error codes: FORBIDDEN (refused destination), TIMEOUT, CANCELLED, TOOL_UNAVAILABLE (a
 * secret is not set), INVALID_ARGS / INVALID_INPUT (an argument or the impl cannot make a
 * request), UPSTREAM_ERROR (the remote service failed: non-success status, no connection,
 * too many redirects, a response over the size cap or unreadable, extractExpr matched
 * nothing). With errorMode "empty", UPSTREAM_ERROR and TIMEOUT give an empty value instead.
 * Every message, detail, value and exchange is scrubbed of secret values (and OAuth tokens)
 * in all the forms they travel in.
 */
import type { HttpImpl, ToolFile } from '../../../../shared/schemas.js';
import type { Availability, HttpExchange } from '../../../../shared/types.js';
import { isSecretName } from '../../../../shared/template.js';
import { CoreError, isCoreError, cancelledError } from '../../errors.js';
import { SecretRedactor, secretSplitter } from '../../secrets/redact.js';
import type { RunContext, RunOutput, Runner } from '../types.js';
import type { SecretsReader } from '../../secrets/types.js';
import { checkDestination, classifyAddress, systemLookup, type Classify, type DestinationPolicy, type LookupAll } from './addresses.js';
import { hmacHeaders, parseTokenResponse, requireSecret, TokenCache, tokenRequestBody, type TokenRequest, type TokenResponse } from './auth.js';
import { compileExtractExpr, type Extractor } from './extract.js';
import { argNamesOf, buildRequest, httpSecretNames, secretPlaceholders, type BuiltRequest } from './request.js';
import { clip, emptyValue, excerpt, newExchange, parseValue } from './response.js';
import { HTTP_DEFAULTS } from '../../../../shared/tool-types/http.js';
import { DEFAULT_MAX_RETRIES, isRetryableStatus, realSleep, retryDelay, type RetryOptions, type Sleep } from './retry.js';
import { Transport, type BodySink, type SendResult } from './transport.js';
import { bodyStream } from './body-stream.js';

export interface HttpRunnerOptions {
  /** Response size cap, streamed; default 5 MB. */
  maxResponseBytes?: number;
  /** Name resolution used at connect time (default: the system resolver). */
  lookup?: LookupAll;
  /**
   * Which addresses count as public when allowPrivateNetwork is off (default: IANA special
   * ranges refused). Tests use it to stand a loopback server in for a public one.
   */
  classifyAddress?: Classify;
  retry?: RetryOptions;
  /** Waiting between retries; tests pass one that records the delays. */
  sleep?: Sleep;
  random?: () => number;
  userAgent?: string;
}

export interface HttpRunner extends Runner {
  /** Closes pooled connections. */
  close(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = HTTP_DEFAULTS.timeoutMs;
export const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
export const MAX_REDIRECTS = 5;
const TOKEN_RESPONSE_LIMIT = 1024 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** As the engine's redactor (invoke/redact.ts): replacing a 1–3 character value everywhere would wreck output and hide nothing. */

interface Call {
  ctx: RunContext;
  impl: HttpImpl;
  policy: DestinationPolicy;
  signal: AbortSignal;
  deadline: number;
  exchange: HttpExchange;
  isSuccess: (status: number) => boolean;
  /** The OAuth token sent with the latest request, to invalidate on a 401. */
  token?: { req: TokenRequest; value: string };
  /** Some of the body went to the caller already: a failure now is not retried (it would stream twice). */
  streamed?: boolean;
}

/** The values of the secrets the tool names, by name (those set). */
function secretsUsed(impl: HttpImpl, ctx: RunContext): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of httpSecretNames(impl, argNamesOf(ctx.tool))) {
    const value = ctx.secrets.get(name);
    if (value !== undefined) out.set(name, value);
  }
  return out;
}

/**
 * The exchange as recorded: scrubbed of secret values, plus where the request held named
 * secrets (by name), so a copy of it can say "$WEATHER_API_KEY" where the value went.
 */
function recorded(exchange: HttpExchange, secrets: ReadonlyMap<string, string>, scrub: <T>(v: T) => T): HttpExchange {
  const out = scrub(exchange);
  if (!secrets.size) return out;
  const split = secretSplitter(secrets);
  const { url, headers, body } = exchange.request;
  const parts: NonNullable<HttpExchange['request']['secretParts']> = {};
  const urlParts = split(url);
  if (urlParts) parts.url = scrub(urlParts);
  for (const [name, value] of Object.entries(headers)) {
    const found = split(value);
    if (found) (parts.headers ??= {})[name] = scrub(found);
  }
  const bodyParts = body === undefined ? undefined : split(body);
  if (bodyParts) parts.body = scrub(bodyParts);
  if (Object.keys(parts).length) out.request = { ...out.request, secretParts: parts };
  return out;
}

export function createHttpRunner(opts: HttpRunnerOptions = {}): HttpRunner {
  const classify = opts.classifyAddress ?? classifyAddress;
  const transport = new Transport(opts.lookup ?? systemLookup, classify);
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const sleep = opts.sleep ?? realSleep;
  const random = opts.random ?? Math.random;
  const userAgent = opts.userAgent ?? 'Toolwright';
  const tokens = new TokenCache((req) => fetchToken(req));

  async function fetchToken(req: TokenRequest & { allowPrivateNetwork?: boolean; timeoutMs?: number }): Promise<TokenResponse> {
    const url = new URL(req.tokenUrl);
    const { headers, body } = tokenRequestBody(req);
    let res: SendResult;
    try {
      res = await transport.send(
        {
          method: 'POST',
          url,
          headers: { ...headers, 'user-agent': userAgent },
          body,
          // Shared by every caller waiting for this token, so bound by time only.
          signal: AbortSignal.timeout(req.timeoutMs ?? DEFAULT_TIMEOUT_MS),
          maxBytes: TOKEN_RESPONSE_LIMIT,
          allowPrivateNetwork: req.allowPrivateNetwork ?? false,
        },
        () => true,
      );
    } catch (e) {
      const core = findCoreError(e);
      if (core) throw core;
      if (isAbort(e)) throw new CoreError('TIMEOUT', `the OAuth2 token endpoint ${url.hostname} did not answer in time`, { host: url.hostname });
      throw new CoreError('UPSTREAM_ERROR', `could not reach the OAuth2 token endpoint ${url.hostname}: ${describeNetworkError(e)}`, { host: url.hostname });
    }
    const text = res.body.toString('utf8');
    if (res.status < 200 || res.status > 299) {
      throw new CoreError(
        'UPSTREAM_ERROR',
        `the OAuth2 token endpoint ${url.hostname} answered HTTP ${res.status}: ${excerpt(text)}; check the client id and secret`,
        {
          host: url.hostname,
          status: res.status,
        },
      );
    }
    return parseTokenResponse(url.hostname, text);
  }

  async function authHeaders(call: Call, method: string, url: URL, body: string | undefined): Promise<Record<string, string>> {
    const auth = call.impl.auth;
    if (!auth) return {};
    if (auth.type === 'hmac') return hmacHeaders(auth, requireSecret(call.ctx.secrets, auth.secret), { method, url, body });
    const tokenUrl = new URL(auth.tokenUrl);
    checkDestination(tokenUrl, call.policy, 'impl.auth.tokenUrl', classify);
    const req = {
      tokenUrl: auth.tokenUrl,
      clientId: requireSecret(call.ctx.secrets, auth.clientIdSecret),
      clientSecret: requireSecret(call.ctx.secrets, auth.clientSecretSecret),
      scope: auth.scope,
      audience: auth.audience,
      allowPrivateNetwork: call.policy.allowPrivateNetwork,
      timeoutMs: Math.max(1, call.deadline - Date.now()),
    };
    const value = await tokens.get(req, call.signal);
    call.token = { req, value };
    return { authorization: `Bearer ${value}` };
  }

  /** One attempt: the request and its redirect hops. Returns the final answer. */
  async function attempt(call: Call, built: BuiltRequest): Promise<SendResult & { url: URL }> {
    let { method, url, body } = built;
    let wire: string | Uint8Array | undefined = built.bytes ?? body;
    const headers = { ...built.headers };
    let withCredentials = true;
    for (let hop = 0; ; hop++) {
      const sent: Record<string, string> = {
        'user-agent': userAgent,
        accept: (call.impl.responseEncoding ?? 'json') === 'json' ? 'application/json' : '*/*',
        ...headers,
        ...(withCredentials ? await authHeaders(call, method, url, body) : {}),
      };
      call.exchange.request = body === undefined ? { method, url: url.href, headers: sent } : { method, url: url.href, headers: sent, body: clip(body).text };
      delete call.exchange.response;
      const res = await transport.send(
        {
          method,
          url,
          headers: sent,
          body: wire,
          signal: call.signal,
          maxBytes,
          allowPrivateNetwork: call.policy.allowPrivateNetwork,
          ...(call.ctx.emit ? { streamBody: (status, headers) => (call.isSuccess(status) ? streamTo(call, headers) : undefined) } : {}),
        },
        (status) => !isFollowable(call, status),
      );
      const location = res.headers['location'];
      if (!isFollowable(call, res.status) || location === undefined) {
        const { text, truncated } = clip(res.body.toString('utf8'));
        call.exchange.response = { status: res.status, headers: res.headers, body: text, ...(truncated ? { truncated } : {}) };
        return { ...res, url };
      }
      call.exchange.response = { status: res.status, headers: res.headers, body: '' };
      if (hop >= MAX_REDIRECTS) {
        throw new CoreError('UPSTREAM_ERROR', `${built.url.hostname} redirected more than ${MAX_REDIRECTS} times; call the final URL directly`, {
          host: built.url.hostname,
        });
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new CoreError('UPSTREAM_ERROR', `${url.hostname} redirected to an invalid URL`, { host: url.hostname });
      }
      try {
        checkDestination(next, call.policy, 'the redirect target', classify);
      } catch (e) {
        const err = e as CoreError;
        throw new CoreError(err.code, `redirect from ${url.hostname} refused: ${err.message}`, { ...err.details, redirectFrom: url.hostname });
      }
      if ((res.status === 303 && method !== 'HEAD') || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        wire = undefined;
        delete headers['content-type'];
      }
      if (next.origin !== url.origin) {
        // Credentials stay with the origin they were written for.
        for (const name of built.secretHeaders) delete headers[name];
        delete headers['authorization'];
        delete headers['cookie'];
        withCredentials = false;
        call.token = undefined;
      }
      url = next;
    }
  }

  /**
   * A successful answer's body, as it arrives, to the caller that streams. OAuth tokens are no
   * stored secrets (the engine redacts those), so they are taken out here.
   */
  function streamTo(call: Call, headers: Record<string, string>): BodySink {
    const emit = call.ctx.emit!;
    const held = tokens.tokensHeld();
    const tokenRedaction = held.length ? SecretRedactor.of(held).streaming() : undefined;
    const send = (text: string) => {
      if (!text) return;
      call.streamed = true;
      emit({ type: 'chunk', text });
    };
    const body = bodyStream(headers, (text) => send(tokenRedaction ? tokenRedaction.push(text) : text));
    return {
      write: (bytes) => body.write(bytes),
      end() {
        body.end();
        if (tokenRedaction) send(tokenRedaction.end());
      },
    };
  }

  function isFollowable(call: Call, status: number): boolean {
    return REDIRECT_STATUSES.has(status) && !call.isSuccess(status);
  }

  async function execute(call: Call, built: BuiltRequest, extractor: Extractor | undefined): Promise<unknown> {
    const host = built.url.hostname;
    const maxRetries = call.impl.maxRetries ?? DEFAULT_MAX_RETRIES;
    let retries = 0;
    let refreshedToken = false;
    for (;;) {
      call.exchange.attempts++;
      let failure: CoreError;
      let retryAfter: string | undefined;
      try {
        const res = await attempt(call, built);
        if (call.isSuccess(res.status)) return parseValue(call.impl, extractor, res.body.toString('utf8'), res.url.hostname);
        if (res.status === 401 && call.token && !refreshedToken) {
          refreshedToken = true;
          tokens.invalidate(call.token.req, call.token.value);
          continue;
        }
        failure = new CoreError(
          'UPSTREAM_ERROR',
          `${res.url.hostname} answered HTTP ${res.status}${attemptsNote(call)}: ${excerpt(res.body.toString('utf8')) || '(empty body)'}`,
          {
            host: res.url.hostname,
            status: res.status,
          },
        );
        if (!isRetryableStatus(res.status)) throw failure;
        retryAfter = res.headers['retry-after'];
      } catch (e) {
        if (call.signal.aborted) throw abortError(call, host);
        const core = findCoreError(e);
        if (core) throw core;
        failure = new CoreError('UPSTREAM_ERROR', `could not reach ${host}: ${describeNetworkError(e)}${attemptsNote(call)}`, { host, reason: 'network' });
      }
      if (retries >= maxRetries || call.streamed) throw failure;
      const wait = retryDelay(retries, retryAfter, opts.retry ?? {}, random);
      if (Date.now() + wait >= call.deadline) {
        throw new CoreError(failure.code, `${failure.message} (not retried: waiting ${Math.ceil(wait / 1000)} s would pass timeoutMs)`, failure.details);
      }
      try {
        await sleep(wait, call.signal);
      } catch {
        throw abortError(call, host);
      }
      retries++;
    }
  }

  function attemptsNote(call: Call): string {
    return call.exchange.attempts > 1 ? ` after ${call.exchange.attempts} attempts` : '';
  }

  function abortError(call: Call, host: string): CoreError {
    if (call.ctx.signal.aborted) return cancelledError({ host });
    const ms = call.impl.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new CoreError('TIMEOUT', `no complete answer from ${host} within timeoutMs (${ms} ms); raise impl.timeoutMs if this API is slow`, {
      host,
      timeoutMs: ms,
    });
  }

  async function run(ctx: RunContext): Promise<RunOutput> {
    const impl = ctx.tool.impl as HttpImpl;
    const scrub = <T>(v: T): T => SecretRedactor.of([...ctx.secrets.values(), ...tokens.tokensHeld()]).deep(v);
    const timeoutMs = impl.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
    const codes = impl.successCodes ? new Set(impl.successCodes) : undefined;
    let call: Call | undefined;
    try {
      ctx.signal.throwIfAborted();
      const extractor = impl.extractExpr === undefined ? undefined : compileExtractExpr(impl.extractExpr);
      if (extractor?.kind === 'jsonpath' && impl.responseEncoding === 'text') {
        throw new CoreError('INVALID_INPUT', 'a JSONPath extractExpr needs responseEncoding "json"; use a /regex/ on text responses', {
          issues: [{ field: 'impl.extractExpr', message: 'JSONPath needs responseEncoding json' }],
        });
      }
      const built = buildRequest(impl, ctx.tool, ctx.args, ctx.secrets);
      const policy = { allowedHosts: ctx.config.allowedHosts, allowPrivateNetwork: ctx.config.allowPrivateNetwork };
      checkDestination(built.url, policy, 'the URL', classify);
      call = {
        ctx,
        impl,
        policy,
        signal: AbortSignal.any([ctx.signal, timeout.signal]),
        deadline: Date.now() + timeoutMs,
        exchange: newExchange(built.method, built.url),
        isSuccess: codes ? (s) => codes.has(s) : (s) => s >= 200 && s <= 299,
      };
      const value = await execute(call, built, extractor);
      return { value: scrub(value), http: recorded(call.exchange, secretsUsed(impl, ctx), scrub) };
    } catch (e) {
      const err = isCoreError(e)
        ? e
        : ctx.signal.aborted
          ? cancelledError()
          : new CoreError('INTERNAL', `http runner failed: ${(e as Error)?.message ?? String(e)}`);
      if (call && impl.errorMode === 'empty' && (err.code === 'UPSTREAM_ERROR' || err.code === 'TIMEOUT')) {
        return { value: emptyValue(ctx.tool, impl), http: recorded(call.exchange, secretsUsed(impl, ctx), scrub) };
      }
      const details = call ? { ...err.details, http: call.exchange } : err.details;
      throw new CoreError(err.code, scrub(err.message), scrub(details));
    } finally {
      clearTimeout(timer);
    }
  }

  function availability(tool: ToolFile, _toolDir: string, secrets: SecretsReader): Availability {
    try {
      const impl = tool.impl as HttpImpl;
      if (typeof impl?.urlTemplate !== 'string') return { ok: false, reason: 'impl.urlTemplate is missing' };
      const needed = secretPlaceholders(impl, argNamesOf(tool));
      for (const { name, field } of needed) {
        if (!isSecretName(name)) return { ok: false, reason: `${field}: placeholder \${${name}} is neither an argument nor a secret name` };
      }
      for (const name of httpSecretNames(impl, argNamesOf(tool))) {
        if (!secrets.has(name)) return { ok: false, reason: `secret ${name} is not set` };
      }
      if (impl.extractExpr !== undefined) compileExtractExpr(impl.extractExpr);
      return { ok: true };
    } catch (e) {
      return { ok: false, reason: (e as Error).message };
    }
  }

  return { type: 'http', run, availability, close: () => transport.close() };
}

/** A CoreError thrown by our own code somewhere below undici (e.g. the connect-time lookup). */
function findCoreError(e: unknown): CoreError | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (isCoreError(cur)) return cur;
  }
  return undefined;
}

function isAbort(e: unknown): boolean {
  const name = (e as { name?: string })?.name;
  return name === 'AbortError' || name === 'TimeoutError';
}

function describeNetworkError(e: unknown): string {
  for (let cur: unknown = e, depth = 0; cur && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code) && !code.startsWith('UND_ERR')) return code;
  }
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'string' ? code : ((e as Error)?.message ?? 'network error');
}
