/** One attempt of a call: the request sent with its credentials, each redirect hop checked and followed, a successful body streamed to a caller that streams. */
import { CoreError } from '../../errors.js';
import { SecretRedactor } from '../../secrets/redact.js';
import { checkDestination } from './addresses.js';
import { bodyStream } from './body-stream.js';
import { authHeaders } from './call-auth.js';
import type { Call, HttpDeps } from './call.js';
import type { BuiltRequest } from './request.js';
import { clip } from './response.js';
import type { BodySink, SendResult } from './transport.js';

export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export /** One attempt: the request and its redirect hops. Returns the final answer. */
async function attempt(deps: HttpDeps, call: Call, built: BuiltRequest): Promise<SendResult & { url: URL }> {
  let { method, url, body } = built;
  let wire: string | Uint8Array | undefined = built.bytes ?? body;
  const headers = { ...built.headers };
  let withCredentials = true;
  for (let hop = 0; ; hop++) {
    const sent: Record<string, string> = {
      'user-agent': deps.userAgent,
      accept: (call.impl.responseEncoding ?? 'json') === 'json' ? 'application/json' : '*/*',
      ...headers,
      ...(withCredentials ? await authHeaders(deps, call, method, url, body) : {}),
    };
    call.exchange.request = body === undefined ? { method, url: url.href, headers: sent } : { method, url: url.href, headers: sent, body: clip(body).text };
    delete call.exchange.response;
    const res = await deps.transport.send(
      {
        method,
        url,
        headers: sent,
        body: wire,
        signal: call.signal,
        maxBytes: deps.maxBytes,
        allowPrivateNetwork: call.policy.allowPrivateNetwork,
        ...(call.ctx.emit ? { streamBody: (status, headers) => (call.isSuccess(status) ? streamTo(deps, call, headers) : undefined) } : {}),
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
      checkDestination(next, call.policy, 'the redirect target', deps.classify);
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
function streamTo(deps: HttpDeps, call: Call, headers: Record<string, string>): BodySink {
  const emit = call.ctx.emit!;
  const held = deps.tokens.tokensHeld();
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
