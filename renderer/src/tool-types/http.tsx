/** The editor module of `http` tools: method, URL and body templates, headers, extraction, auth. */
import { Field, TextField } from '../components/Field.js';
import { TemplateInput } from '../features/tools/editor/TemplateInput.js';
import { HTTP_DEFAULTS } from '../../../shared/tool-types/constants.js';
import type { EditorTypeModule, ImplEditorProps } from './editor-type.js';
import { type HttpMethod, HTTP_METHODS, type HttpDraft, newHeaderRow, emptyHttp, httpFromImpl, httpToImpl, checkHttp } from './http/draft.js';
import { AllowedHostStatus, ParamStyles } from './http/parts.js';
import './http/http.css';

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
