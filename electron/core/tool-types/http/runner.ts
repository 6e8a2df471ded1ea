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
 *
 * By concern: this module prepares the call and answers (run, availability);
 * send-with-retries.ts sends it with retries, send.ts is one attempt and its redirect hops,
 * call-auth.ts its credentials, call.ts what a call carries and how its failures read.
 */
import type { HttpImpl, ToolFile } from '../../../../shared/schemas.js';
import type { Availability } from '../../../../shared/types.js';
import { isSecretName } from '../../../../shared/template.js';
import { CoreError, isCoreError, cancelledError } from '../../errors.js';
import { SecretRedactor } from '../../secrets/redact.js';
import type { RunContext, RunOutput, Runner } from '../../invoke/types.js';
import type { SecretsReader } from '../../secrets/types.js';
import { checkDestination, classifyAddress, systemLookup, type Classify, type LookupAll } from './addresses.js';
import { TokenCache } from './auth.js';
import { fetchToken } from './call-auth.js';
import { DEFAULT_TIMEOUT_MS, recorded, secretsUsed, type Call, type HttpDeps } from './call.js';
import { compileExtractExpr } from './extract.js';
import { argNamesOf, buildRequest, httpSecretNames, secretPlaceholders } from './request.js';
import { emptyValue, newExchange } from './response.js';
import { realSleep, type RetryOptions, type Sleep } from './retry.js';
import { sendWithRetries } from './send-with-retries.js';
import { Transport } from './transport.js';

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

export { DEFAULT_TIMEOUT_MS } from './call.js';
export { MAX_REDIRECTS } from './send.js';
export const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

export function createHttpRunner(opts: HttpRunnerOptions = {}): HttpRunner {
  const classify = opts.classifyAddress ?? classifyAddress;
  const transport = new Transport(opts.lookup ?? systemLookup, classify);
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const sleep = opts.sleep ?? realSleep;
  const random = opts.random ?? Math.random;
  const userAgent = opts.userAgent ?? 'Toolwright';
  const tokens = new TokenCache((req) => fetchToken(transport, userAgent, req));
  const deps: HttpDeps = { transport, classify, tokens, userAgent, maxBytes, retry: opts.retry ?? {}, sleep, random };

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
      const value = await sendWithRetries(deps, call, built, extractor);
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
