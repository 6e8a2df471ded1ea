/** The credentials of a call: the OAuth2 token fetched from its endpoint (and cached), or the HMAC headers. */
import { CoreError } from '../../errors.js';
import { checkDestination } from './addresses.js';
import { hmacHeaders, parseTokenResponse, requireSecret, tokenRequestBody, type TokenRequest, type TokenResponse } from './auth.js';
import { DEFAULT_TIMEOUT_MS, describeNetworkError, findCoreError, isAbort, type Call, type HttpDeps } from './call.js';
import { excerpt } from './response.js';
import type { SendResult, Transport } from './transport.js';

const TOKEN_RESPONSE_LIMIT = 1024 * 1024;

export async function fetchToken(
  transport: Transport,
  userAgent: string,
  req: TokenRequest & { allowPrivateNetwork?: boolean; timeoutMs?: number },
): Promise<TokenResponse> {
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

export async function authHeaders(
  { classify, tokens }: HttpDeps,
  call: Call,
  method: string,
  url: URL,
  body: string | undefined,
): Promise<Record<string, string>> {
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
