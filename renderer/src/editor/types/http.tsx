/** The editor module of `http` tools: method, URL and body templates, headers, extraction, auth. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/errors.js';
import { patchConfig } from '../../api/operations.js';
import { keys, useConfig } from '../../api/queries.js';
import { useToast } from '../../components/Toasts.js';
import { Field, TextField } from '../Field.js';
import { TemplateInput } from '../TemplateInput.js';
import { isHostAllowed, templateHost } from '../../../../shared/hosts.js';
import { headerNameProblem, headerValueProblem } from '../../../../shared/headers.js';
import { HTTP_DEFAULTS, HTTP_METHODS as METHODS } from '../../../../shared/tool-types/constants.js';
import type { ParamSerialization } from '../../../../shared/tool-types/http.js';
import { findPlaceholders, isSecretName } from '../../../../shared/template.js';
import { compact, intIssue, optInt, optStr, str, type EditorTypeModule, type ImplEditorProps, type SetIssue } from './editor-type.js';

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

function emptyHttp(): HttpDraft {
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

function httpFromImpl(impl: Record<string, unknown>): HttpDraft {
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

function httpToImpl(h: HttpDraft): Record<string, unknown> {
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

function checkHttp(h: HttpDraft, { argNames }: { argNames: readonly string[] }, set: SetIssue): void {
  if (!/^https?:\/\/[^/?#\s]+/i.test(h.urlTemplate.trim())) set('impl.urlTemplate', 'must start with http:// or https:// followed by a host');
  else if (/^https?:\/\/[^/?#]*\$\{/i.test(h.urlTemplate.trim()))
    set('impl.urlTemplate', 'write the host literally (it is checked against allowedHosts); put ${…} placeholders in the path or query');
  const unknown = (text: string) => findPlaceholders(text).find((p) => !argNames.includes(p.name) && !isSecretName(p.name));
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

/** The literal host of a URL template, or why there is none (the shared rule the core saves by). */
export function hostOfTemplate(url: string): { host?: string; problem?: string } {
  const h = templateHost(url);
  if (h.ok) return { host: h.host };
  if (h.reason === 'missing') return { problem: 'no host yet' };
  if (h.reason === 'placeholder') return { problem: 'the host must be written literally' };
  return { problem: h.message };
}

function AllowedHostStatus({ url, readOnly }: { url: string; readOnly?: boolean }) {
  const config = useConfig();
  const qc = useQueryClient();
  const toast = useToast();
  const allow = useMutation({
    mutationFn: (host: string) => patchConfig({ patch: { allowedHosts: [...(config.data?.allowedHosts ?? []), host] } }),
    onSuccess: (_c, host) => {
      toast.show('success', `${host} added to allowed hosts`);
      void qc.invalidateQueries({ queryKey: keys.config });
    },
    onError: (e) => toast.show('error', `Could not update allowed hosts: ${errorMessage(e)}`),
  });
  const { host, problem } = hostOfTemplate(url);
  if (!host) return <div className="host-status muted">{problem}</div>;
  if (!config.data) return <div className="host-status muted">Checking allowed hosts…</div>;
  const ok = isHostAllowed(host, config.data.allowedHosts);
  return (
    <div className={`host-status ${ok ? 'is-ok' : 'is-bad'}`} data-testid="host-status">
      {ok ? (
        <>
          <span aria-hidden="true">✓</span> {host} is an allowed host
        </>
      ) : (
        <>
          <span aria-hidden="true">!</span> {host} is not in allowed hosts; calls to it are refused and saving fails.
          {!readOnly && (
            <button type="button" className="btn btn-small" onClick={() => allow.mutate(host)} disabled={allow.isPending} data-testid="allow-host">
              Allow {host}
            </button>
          )}
        </>
      )}
    </div>
  );
}

/** Arguments written by an OpenAPI style (set by the OpenAPI import); each can be dropped to send the value plainly. */
function ParamStyles({
  value,
  onChange,
  error,
}: {
  value: Record<string, ParamSerialization>;
  onChange(v: Record<string, ParamSerialization>): void;
  error?: string | undefined;
}) {
  const entries = Object.entries(value);
  if (!entries.length) return null;
  return (
    <div className="field" data-testid="param-styles">
      <span className="field-label" id="param-styles-label">
        Argument styles <span className="muted">(OpenAPI style and explode, from the import)</span>
      </span>
      <ul className="chip-list" aria-labelledby="param-styles-label">
        {entries.map(([name, s]) => (
          <li key={name} className="chip">
            <code>{name}</code> {s.style}
            {s.explode ? ', explode' : ''}
            <button
              type="button"
              className="icon-btn"
              aria-label={`Send ${name} without its style`}
              onClick={() => onChange(Object.fromEntries(entries.filter(([n]) => n !== name)))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function HttpImplEditor({ value, onChange, ctx, errors, readOnly }: ImplEditorProps<HttpDraft>) {
  const h = value;
  return (
    <fieldset className="fieldset" disabled={readOnly}>
      <legend>HTTP request</legend>
      <div className="row">
        <Field label="Method" className="w-narrow" error={errors.get('impl.method')}>
          {(id) => (
            <select id={id} className="input" value={h.method} onChange={(e) => onChange({ method: e.target.value as HttpMethod })} data-testid="http-method">
              {HTTP_METHODS.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          )}
        </Field>
        <div className="field grow">
          <label className="field-label" htmlFor="http-url">
            URL template
          </label>
          <TemplateInput
            id="http-url"
            label="URL template"
            value={h.urlTemplate}
            onChange={(v) => onChange({ urlTemplate: v })}
            ctx={ctx}
            serverError={errors.get('impl.urlTemplate')}
            readOnly={readOnly}
            testId="http-url"
            placeholder="https://api.example.com/v1/items/${id}"
          />
          <AllowedHostStatus url={h.urlTemplate} readOnly={readOnly} />
        </div>
      </div>
      <div className="field">
        <span className="field-label" id="headers-label">
          Headers
        </span>
        <div className="header-rows" role="group" aria-labelledby="headers-label">
          {h.headers.map((row, i) => (
            <div className="header-row" key={row.key}>
              <input
                className="input mono"
                aria-label={`Header ${i + 1} name`}
                value={row.name}
                placeholder="Authorization"
                onChange={(e) => onChange({ headers: h.headers.map((r) => (r.key === row.key ? { ...r, name: e.target.value } : r)) })}
              />
              <TemplateInput
                label={`Header ${i + 1} value`}
                value={row.value}
                ctx={ctx}
                placeholder="Bearer ${API_TOKEN}"
                onChange={(v) => onChange({ headers: h.headers.map((r) => (r.key === row.key ? { ...r, value: v } : r)) })}
                readOnly={readOnly}
              />
              <button
                type="button"
                className="icon-btn"
                aria-label={`Remove header ${row.name || i + 1}`}
                onClick={() => onChange({ headers: h.headers.filter((r) => r.key !== row.key) })}
              >
                ×
              </button>
            </div>
          ))}
          <button type="button" className="btn btn-small" onClick={() => onChange({ headers: [...h.headers, newHeaderRow()] })}>
            Add header
          </button>
        </div>
        {errors.get('impl.headers') && <div className="field-error">{errors.get('impl.headers')}</div>}
      </div>
      <ParamStyles value={h.serialization} onChange={(serialization) => onChange({ serialization })} error={errors.get('impl.serialization')} />
      {h.method !== 'GET' && h.method !== 'HEAD' && (
        <div className="field">
          <label className="field-label" htmlFor="http-body">
            Body template
          </label>
          <TemplateInput
            id="http-body"
            label="Body template"
            multiline
            rows={5}
            value={h.bodyTemplate}
            onChange={(v) => onChange({ bodyTemplate: v })}
            ctx={ctx}
            serverError={errors.get('impl.bodyTemplate')}
            readOnly={readOnly}
            placeholder={'{"query": "${q}"}'}
          />
          <div className="field-hint">In a JSON body, argument values are JSON-escaped where they are inserted.</div>
        </div>
      )}
      <div className="row wrap">
        <Field label="Response" className="w-narrow" error={errors.get('impl.responseEncoding')}>
          {(id) => (
            <select id={id} className="input" value={h.responseEncoding} onChange={(e) => onChange({ responseEncoding: e.target.value as 'json' | 'text' })}>
              <option value="json">JSON</option>
              <option value="text">Text</option>
            </select>
          )}
        </Field>
        <TextField
          label="Extract"
          className="grow"
          hint="JSONPath ($.items[0].name) or /regex/ with one group"
          error={errors.get('impl.extractExpr')}
          mono
          value={h.extractExpr}
          onValue={(v) => onChange({ extractExpr: v })}
          placeholder="$.data"
        />
        <Field label="On HTTP error" className="w-narrow" error={errors.get('impl.errorMode')}>
          {(id) => (
            <select id={id} className="input" value={h.errorMode} onChange={(e) => onChange({ errorMode: e.target.value as 'fail' | 'empty' })}>
              <option value="fail">Fail</option>
              <option value="empty">Return empty</option>
            </select>
          )}
        </Field>
      </div>
      <div className="row wrap">
        <TextField
          label="Success codes"
          className="w-mid"
          hint="Default: any 2xx"
          error={errors.get('impl.successCodes')}
          mono
          value={h.successCodes}
          onValue={(v) => onChange({ successCodes: v })}
          placeholder="200, 201"
        />
        <TextField
          label="Timeout (ms)"
          className="w-mid"
          error={errors.get('impl.timeoutMs')}
          inputMode="numeric"
          value={h.timeoutMs}
          onValue={(v) => onChange({ timeoutMs: v })}
          placeholder={String(HTTP_DEFAULTS.timeoutMs)}
        />
        <TextField
          label="Retries"
          className="w-narrow"
          hint="0–10, on network errors and 5xx"
          error={errors.get('impl.maxRetries')}
          inputMode="numeric"
          value={h.maxRetries}
          onValue={(v) => onChange({ maxRetries: v })}
          placeholder={String(HTTP_DEFAULTS.maxRetries)}
        />
      </div>
      <Field label="Authentication" className="w-auth" error={errors.get('impl.auth')}>
        {(id) => (
          <select id={id} className="input" value={h.authType} onChange={(e) => onChange({ authType: e.target.value as HttpDraft['authType'] })}>
            <option value="none">None (or a header with a secret)</option>
            <option value="hmac">HMAC signature</option>
            <option value="oauth2ClientCredentials">OAuth 2 client credentials</option>
          </select>
        )}
      </Field>
      {h.authType === 'hmac' && (
        <div className="row wrap">
          <TextField label="Secret name" className="w-mid" mono value={h.hmacSecret} onValue={(v) => onChange({ hmacSecret: v })} placeholder="SIGNING_KEY" />
          <Field label="Algorithm" className="w-narrow">
            {(id) => (
              <select id={id} className="input" value={h.hmacAlgorithm} onChange={(e) => onChange({ hmacAlgorithm: e.target.value as 'sha256' | 'sha512' })}>
                <option value="sha256">SHA-256</option>
                <option value="sha512">SHA-512</option>
              </select>
            )}
          </Field>
          <TextField
            label="Signature header"
            className="w-mid"
            mono
            value={h.hmacHeader}
            onValue={(v) => onChange({ hmacHeader: v })}
            placeholder="X-Signature"
          />
          <TextField
            label="Timestamp header"
            className="w-mid"
            mono
            value={h.hmacTimestampHeader}
            onValue={(v) => onChange({ hmacTimestampHeader: v })}
            placeholder="X-Timestamp"
          />
          <TextField label="Prefix" className="w-narrow" mono value={h.hmacPrefix} onValue={(v) => onChange({ hmacPrefix: v })} placeholder="sha256=" />
        </div>
      )}
      {h.authType === 'oauth2ClientCredentials' && (
        <div className="row wrap">
          <TextField
            label="Token URL"
            className="grow"
            mono
            value={h.oauthTokenUrl}
            onValue={(v) => onChange({ oauthTokenUrl: v })}
            placeholder="https://auth.example.com/oauth/token"
          />
          <TextField
            label="Client ID secret"
            className="w-mid"
            mono
            value={h.oauthClientIdSecret}
            onValue={(v) => onChange({ oauthClientIdSecret: v })}
            placeholder="CLIENT_ID"
          />
          <TextField
            label="Client secret secret"
            className="w-mid"
            mono
            value={h.oauthClientSecretSecret}
            onValue={(v) => onChange({ oauthClientSecretSecret: v })}
            placeholder="CLIENT_SECRET"
          />
          <TextField label="Scope" className="w-mid" value={h.oauthScope} onValue={(v) => onChange({ oauthScope: v })} />
          <TextField label="Audience" className="w-mid" value={h.oauthAudience} onValue={(v) => onChange({ oauthAudience: v })} />
        </div>
      )}
    </fieldset>
  );
}

export const httpEditorType: EditorTypeModule<'http', HttpDraft> = {
  type: 'http',
  label: 'HTTP request',
  empty: emptyHttp,
  fromImpl: httpFromImpl,
  toImpl: httpToImpl,
  check: checkHttp,
  fields: [
    'impl.method',
    'impl.urlTemplate',
    'impl.headers',
    'impl.bodyTemplate',
    'impl.successCodes',
    'impl.timeoutMs',
    'impl.responseEncoding',
    'impl.extractExpr',
    'impl.errorMode',
    'impl.maxRetries',
    'impl.auth',
    'impl.serialization',
  ],
  Editor: HttpImplEditor,
};
