/**
 * What one http run carries from step to step (the Call), what the runner's steps share (HttpDeps),
 * and how a failure reads: the exchange recorded scrubbed, network errors named, time-outs told apart from cancels.
 */
import type { HttpImpl } from '../../../../shared/schemas.js';
import type { HttpExchange } from '../../../../shared/types.js';
import { CoreError, cancelledError, isCoreError } from '../../errors.js';
import { secretSplitter } from '../../secrets/redact.js';
import type { RunContext } from '../../invoke/types.js';
import type { Classify, DestinationPolicy } from './addresses.js';
import type { TokenCache, TokenRequest } from './auth.js';
import { argNamesOf, httpSecretNames } from './request.js';
import type { RetryOptions, Sleep } from './retry.js';
import type { Transport } from './transport.js';
import { HTTP_DEFAULTS } from '../../../../shared/tool-types/http.js';

export const DEFAULT_TIMEOUT_MS = HTTP_DEFAULTS.timeoutMs;

/** What the runner's steps share: built once per runner from HttpRunnerOptions. */
export interface HttpDeps {
  transport: Transport;
  classify: Classify;
  tokens: TokenCache;
  userAgent: string;
  maxBytes: number;
  retry: RetryOptions;
  sleep: Sleep;
  random: () => number;
}

export interface Call {
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

export /** The values of the secrets the tool names, by name (those set). */
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
export function recorded(exchange: HttpExchange, secrets: ReadonlyMap<string, string>, scrub: <T>(v: T) => T): HttpExchange {
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

export function attemptsNote(call: Call): string {
  return call.exchange.attempts > 1 ? ` after ${call.exchange.attempts} attempts` : '';
}

export function abortError(call: Call, host: string): CoreError {
  if (call.ctx.signal.aborted) return cancelledError({ host });
  const ms = call.impl.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new CoreError('TIMEOUT', `no complete answer from ${host} within timeoutMs (${ms} ms); raise impl.timeoutMs if this API is slow`, {
    host,
    timeoutMs: ms,
  });
}

/** A CoreError thrown by our own code somewhere below undici (e.g. the connect-time lookup). */
export function findCoreError(e: unknown): CoreError | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (isCoreError(cur)) return cur;
  }
  return undefined;
}

export function isAbort(e: unknown): boolean {
  const name = (e as { name?: string })?.name;
  return name === 'AbortError' || name === 'TimeoutError';
}

export function describeNetworkError(e: unknown): string {
  for (let cur: unknown = e, depth = 0; cur && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code) && !code.startsWith('UND_ERR')) return code;
  }
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'string' ? code : ((e as Error)?.message ?? 'network error');
}
