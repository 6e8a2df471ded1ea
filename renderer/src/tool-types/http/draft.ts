/** The draft of an `http` tool's impl: the form's state, from and to the impl, and the checks made as you type. */
import { headerNameProblem, headerValueProblem } from '../../../../shared/net/headers.js';
import { HTTP_METHODS as METHODS } from '../../../../shared/tool-types/constants.js';
import type { ParamSerialization } from '../../../../shared/tool-types/http.js';
import { findPlaceholders, isSecretName, TOOL_VERSION_PLACEHOLDER } from '../../../../shared/template.js';
import { compact, intIssue, optInt, optStr, str, type SetIssue } from '../editor-type.js';

export type HttpMethod = (typeof METHODS)[number];
export const HTTP_METHODS: readonly HttpMethod[] = METHODS;

export interface HeaderRow {
  key: number;
  name: string;
  value: string;
}

export interface HttpDraft {
  method: HttpMethod;
  urlTemplate: string;
  headers: HeaderRow[];
  bodyTemplate: string;
  successCodes: string;
  timeoutMs: string;
  responseEncoding: 'json' | 'text';
  extractExpr: string;
  errorMode: 'fail' | 'empty';
  maxRetries: string;
  authType: 'none' | 'hmac' | 'oauth2ClientCredentials';
  hmacSecret: string;
  hmacAlgorithm: 'sha256' | 'sha512';
  hmacHeader: string;
  hmacTimestampHeader: string;
  hmacPrefix: string;
  oauthTokenUrl: string;
  oauthClientIdSecret: string;
  oauthClientSecretSecret: string;
  oauthScope: string;
  oauthAudience: string;
  /** OpenAPI styles of array and object arguments (impl.serialization), kept as imported. */
  serialization: Record<string, ParamSerialization>;
}

let headerKey = 1;
export const newHeaderRow = (name = '', value = ''): HeaderRow => ({ key: headerKey++, name, value });

export function emptyHttp(): HttpDraft {
  return {
    method: 'GET',
    urlTemplate: 'https://',
    headers: [],
    bodyTemplate: '',
    successCodes: '',
    timeoutMs: '',
    responseEncoding: 'json',
    extractExpr: '',
    errorMode: 'fail',
    maxRetries: '',
    authType: 'none',
    hmacSecret: '',
    hmacAlgorithm: 'sha256',
    hmacHeader: '',
    hmacTimestampHeader: '',
    hmacPrefix: '',
    oauthTokenUrl: '',
    oauthClientIdSecret: '',
    oauthClientSecretSecret: '',
    oauthScope: '',
    oauthAudience: '',
    serialization: {},
  };
}

export function httpFromImpl(impl: Record<string, unknown>): HttpDraft {
  const auth = (impl['auth'] ?? undefined) as Record<string, unknown> | undefined;
  return {
    ...emptyHttp(),
    method: (impl['method'] as HttpMethod) ?? 'GET',
    urlTemplate: str(impl['urlTemplate']),
    headers: Object.entries((impl['headers'] ?? {}) as Record<string, string>).map(([n, v]) => newHeaderRow(n, v)),
    bodyTemplate: str(impl['bodyTemplate']),
    successCodes: Array.isArray(impl['successCodes']) ? (impl['successCodes'] as number[]).join(', ') : '',
    timeoutMs: str(impl['timeoutMs']),
    responseEncoding: (impl['responseEncoding'] as 'json' | 'text') ?? 'json',
    extractExpr: str(impl['extractExpr']),
    errorMode: (impl['errorMode'] as 'fail' | 'empty') ?? 'fail',
    maxRetries: str(impl['maxRetries']),
    authType: (auth?.['type'] as HttpDraft['authType']) ?? 'none',
    hmacSecret: str(auth?.['secret']),
    hmacAlgorithm: (auth?.['algorithm'] as 'sha256' | 'sha512') ?? 'sha256',
    hmacHeader: str(auth?.['header']),
    hmacTimestampHeader: str(auth?.['timestampHeader']),
    hmacPrefix: str(auth?.['prefix']),
    oauthTokenUrl: str(auth?.['tokenUrl']),
    oauthClientIdSecret: str(auth?.['clientIdSecret']),
    oauthClientSecretSecret: str(auth?.['clientSecretSecret']),
    oauthScope: str(auth?.['scope']),
    oauthAudience: str(auth?.['audience']),
    serialization: { ...((impl['serialization'] ?? {}) as Record<string, ParamSerialization>) },
  };
}

export function httpToImpl(h: HttpDraft): Record<string, unknown> {
  let auth: Record<string, unknown> | undefined;
  if (h.authType === 'hmac') {
    auth = compact({
      type: 'hmac',
      secret: h.hmacSecret.trim(),
      algorithm: h.hmacAlgorithm,
      header: optStr(h.hmacHeader),
      timestampHeader: optStr(h.hmacTimestampHeader),
      prefix: optStr(h.hmacPrefix),
    });
  } else if (h.authType === 'oauth2ClientCredentials') {
    auth = compact({
      type: 'oauth2ClientCredentials',
      tokenUrl: h.oauthTokenUrl.trim(),
      clientIdSecret: h.oauthClientIdSecret.trim(),
      clientSecretSecret: h.oauthClientSecretSecret.trim(),
      scope: optStr(h.oauthScope),
      audience: optStr(h.oauthAudience),
    });
  }
  const headers = Object.fromEntries(h.headers.filter((r) => r.name.trim()).map((r) => [r.name.trim(), r.value]));
  return compact({
    method: h.method,
    urlTemplate: h.urlTemplate.trim(),
    headers: Object.keys(headers).length ? headers : undefined,
    bodyTemplate: h.bodyTemplate === '' ? undefined : h.bodyTemplate,
    successCodes: h.successCodes.trim()
      ? h.successCodes
          .split(/[\s,]+/)
          .filter(Boolean)
          .map(Number)
      : undefined,
    timeoutMs: optInt(h.timeoutMs),
    responseEncoding: h.responseEncoding,
    extractExpr: optStr(h.extractExpr),
    errorMode: h.errorMode,
    maxRetries: optInt(h.maxRetries),
    auth,
    serialization: Object.keys(h.serialization).length ? h.serialization : undefined,
  });
}

export function checkHttp(h: HttpDraft, { argNames }: { argNames: readonly string[] }, set: SetIssue): void {
  if (!/^https?:\/\/[^/?#\s]+/i.test(h.urlTemplate.trim())) set('impl.urlTemplate', 'must start with http:// or https:// followed by a host');
  else if (/^https?:\/\/[^/?#]*\$\{/i.test(h.urlTemplate.trim()))
    set('impl.urlTemplate', 'write the host literally (it is checked against allowedHosts); put ${…} placeholders in the path or query');
  const unknown = (text: string) =>
    findPlaceholders(text).find((p) => !argNames.includes(p.name) && !isSecretName(p.name) && p.name !== TOOL_VERSION_PLACEHOLDER);
  const u1 = unknown(h.urlTemplate);
  if (u1) set('impl.urlTemplate', `\${${u1.name}} is neither an argument nor a secret name`);
  const u2 = unknown(h.bodyTemplate);
  if (u2) set('impl.bodyTemplate', `\${${u2.name}} is neither an argument nor a secret name`);
  const seen = new Set<string>();
  for (const r of h.headers) {
    const name = r.name.trim();
    if (!name && !r.value) continue;
    if (headerNameProblem(name)) set('impl.headers', `header name '${name}' is not a valid HTTP token`);
    else if (seen.has(name.toLowerCase())) set('impl.headers', `header '${name}' appears twice`);
    seen.add(name.toLowerCase());
    const u = unknown(r.value);
    if (u) set('impl.headers', `${name}: \${${u.name}} is neither an argument nor a secret name`);
    const valueProblem = headerValueProblem(r.value);
    if (valueProblem) set('impl.headers', `${name}: ${valueProblem}`);
  }
  if (
    h.successCodes.trim() &&
    h.successCodes
      .split(/[\s,]+/)
      .filter(Boolean)
      .some((c) => !/^[1-5]\d\d$/.test(c))
  )
    set('impl.successCodes', 'list status codes between 100 and 599, e.g. 200, 201');
  set('impl.timeoutMs', intIssue(h.timeoutMs, 1, 600000));
  set('impl.maxRetries', intIssue(h.maxRetries, 0, 10));
  if (h.extractExpr.trim() && !/^\$/.test(h.extractExpr.trim()) && !/^\/.*\/[dgimsuyv]*$/s.test(h.extractExpr.trim()))
    set('impl.extractExpr', 'use a JSONPath starting with $ or a /regex/');
  const strays = Object.keys(h.serialization).filter((name) => !argNames.includes(name));
  if (strays.length) set('impl.serialization', `${strays.join(', ')} ${strays.length === 1 ? 'is' : 'are'} no longer an argument: remove the style below`);
  if (h.authType === 'hmac' && !isSecretName(h.hmacSecret.trim())) set('impl.auth', 'HMAC needs the name of a secret (UPPER_SNAKE_CASE)');
  if (h.authType === 'oauth2ClientCredentials') {
    if (!/^https?:\/\//.test(h.oauthTokenUrl.trim())) set('impl.auth', 'token URL must start with https://');
    else if (!isSecretName(h.oauthClientIdSecret.trim()) || !isSecretName(h.oauthClientSecretSecret.trim()))
      set('impl.auth', 'client ID and client secret are secret names (UPPER_SNAKE_CASE)');
  }
}
