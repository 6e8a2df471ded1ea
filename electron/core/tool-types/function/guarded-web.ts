/**
 * GET requests of the built-in web functions (web-fetch, web-search; functions/services.ts), under the rules of http
 * tools: the URL and every redirect hop checked against config.allowedHosts and the
 * private-address guard (also at connect time, on the very socket: tool-types/http/transport.ts), the
 * http runner's response size cap, and a deadline over the whole exchange. No credentials ever
 * travel except the headers a caller passes (web-search's API key), dropped on a cross-origin
 * redirect.
 */
import type { GetOptions, GetResult, GuardedWeb } from '../../functions/services.js';
import { CoreError, cancelledError } from '../../errors.js';
import { checkDestination, classifyAddress, systemLookup, type Classify } from '../http/addresses.js';
import { describeNetworkError, findCoreError, isAbort } from '../http/call.js';
import { DEFAULT_MAX_RESPONSE_BYTES, MAX_REDIRECTS, type HttpRunnerOptions } from '../http/runner.js';
import { Transport } from '../http/transport.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function createGuardedWeb(opts: HttpRunnerOptions = {}): GuardedWeb {
  const classify: Classify = opts.classifyAddress ?? classifyAddress;
  const transport = new Transport(opts.lookup ?? systemLookup, classify);
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const userAgent = opts.userAgent ?? 'Toolwright';

  async function get(first: URL, o: GetOptions): Promise<GetResult> {
    const what = o.what ?? 'the URL';
    const policy = o.policy ?? { allowedHosts: o.config.allowedHosts, allowPrivateNetwork: o.config.allowPrivateNetwork };
    const timeout = AbortSignal.timeout(o.timeoutMs);
    const signal = AbortSignal.any([o.signal, timeout]);
    let url = first;
    let headers: Record<string, string> = { 'user-agent': userAgent, ...o.headers };
    for (let hop = 0; ; hop++) {
      if (hop === 0) checkDestination(url, policy, what, classify);
      else {
        try {
          checkDestination(url, policy, 'the redirect target', classify);
        } catch (e) {
          const err = e as CoreError;
          throw new CoreError(err.code, `redirect to ${url.hostname} refused: ${err.message}`, { ...err.details, redirectFrom: first.hostname });
        }
      }
      let res;
      try {
        res = await transport.send(
          { method: 'GET', url, headers, body: undefined, signal, maxBytes, allowPrivateNetwork: policy.allowPrivateNetwork },
          (s) => !REDIRECTS.has(s),
        );
      } catch (e) {
        const own = findCoreError(e);
        if (own) throw own;
        if (o.signal.aborted) throw cancelledError({ host: url.hostname });
        if (timeout.aborted || isAbort(e))
          throw new CoreError('TIMEOUT', `no complete answer from ${url.hostname} within ${o.timeoutMs} ms`, { host: url.hostname });
        throw new CoreError('UPSTREAM_ERROR', `${url.hostname} could not be reached (${describeNetworkError(e)})`, { host: url.hostname });
      }
      const location = res.headers['location'];
      if (!REDIRECTS.has(res.status) || location === undefined) return { ...res, url };
      if (hop >= MAX_REDIRECTS)
        throw new CoreError('UPSTREAM_ERROR', `${first.hostname} redirected more than ${MAX_REDIRECTS} times`, { host: first.hostname });
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new CoreError('UPSTREAM_ERROR', `${url.hostname} redirected to an invalid URL`, { host: url.hostname });
      }
      // Credentials a caller passed stay with the origin they were meant for.
      if (next.origin !== url.origin) headers = { 'user-agent': userAgent, ...(o.headers?.['accept'] ? { accept: o.headers['accept'] } : {}) };
      url = next;
    }
  }

  return { get, maxBytes, close: () => transport.close() };
}
