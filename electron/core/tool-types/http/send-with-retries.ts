/** A call's attempts: retried on network errors, 429 and 5xx within its deadline, a 401 with an OAuth token retried once with a fresh one. */
import { CoreError } from '../../errors.js';
import { abortError, attemptsNote, describeNetworkError, findCoreError, type Call, type HttpDeps } from './call.js';
import type { Extractor } from './extract.js';
import type { BuiltRequest } from './request.js';
import { excerpt, parseValue } from './response.js';
import { DEFAULT_MAX_RETRIES, isRetryableStatus, retryDelay } from './retry.js';
import { attempt } from './send.js';

export async function sendWithRetries(deps: HttpDeps, call: Call, built: BuiltRequest, extractor: Extractor | undefined): Promise<unknown> {
  const host = built.url.hostname;
  const maxRetries = call.impl.maxRetries ?? DEFAULT_MAX_RETRIES;
  let retries = 0;
  let refreshedToken = false;
  for (;;) {
    call.exchange.attempts++;
    let failure: CoreError;
    let retryAfter: string | undefined;
    try {
      const res = await attempt(deps, call, built);
      if (call.isSuccess(res.status)) return parseValue(call.impl, extractor, res.body.toString('utf8'), res.url.hostname);
      if (res.status === 401 && call.token && !refreshedToken) {
        refreshedToken = true;
        deps.tokens.invalidate(call.token.req, call.token.value);
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
    const wait = retryDelay(retries, retryAfter, deps.retry, deps.random);
    if (Date.now() + wait >= call.deadline) {
      throw new CoreError(failure.code, `${failure.message} (not retried: waiting ${Math.ceil(wait / 1000)} s would pass timeoutMs)`, failure.details);
    }
    try {
      await deps.sleep(wait, call.signal);
    } catch {
      throw abortError(call, host);
    }
    retries++;
  }
}
