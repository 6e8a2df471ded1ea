/** The type-specific parts of the tool editor: http, container and function. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, errorMessage } from '../api/client.js';
import { keys, useConfig, useFunctions } from '../api/queries.js';
import { useToast } from '../components/Toasts.js';
import { Field } from './Field.js';
import { TemplateInput, type PlaceholderContext } from './TemplateInput.js';
import { HTTP_METHODS, newHeaderRow, type ContainerDraft, type HttpDraft, type HttpMethod } from './draft.js';
import { isHostAllowed } from '../../../shared/hosts.js';
import type { FunctionInfo } from '../../../shared/types.js';
import { Badge } from '../components/States.js';
import { SAFETY_LABEL, SAFETY_TONE } from '../app/format.js';

type Errors = ReadonlyMap<string, string>;

/** The literal host of a URL template, or why there is none. */
export function hostOfTemplate(url: string): { host?: string; problem?: string } {
  const m = /^https?:\/\/([^/?#]*)/i.exec(url.trim());
  if (!m || !m[1]) return { problem: 'no host yet' };
  if (m[1].includes('${')) return { problem: 'the host must be written literally' };
  try {
    return { host: new URL(`http://${m[1]}/`).hostname.replace(/^\[|\]$/g, '') };
  } catch {
    return { problem: `'${m[1]}' is not a valid host` };
  }
}

function AllowedHostStatus({ url, readOnly }: { url: string; readOnly?: boolean }) {
  const config = useConfig();
  const qc = useQueryClient();
  const toast = useToast();
  const allow = useMutation({
    mutationFn: (host: string) => call('config.patch', { patch: { allowedHosts: [...(config.data?.allowedHosts ?? []), host] } }),
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

export function HttpImplEditor({
  value,
  onChange,
  ctx,
  errors,
  readOnly,
}: {
  value: HttpDraft;
  onChange(patch: Partial<HttpDraft>): void;
  ctx: PlaceholderContext;
  errors: Errors;
  readOnly?: boolean;
}) {
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
        <Field label="Extract" className="grow" hint="JSONPath ($.items[0].name) or /regex/ with one group" error={errors.get('impl.extractExpr')}>
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              className="input mono"
              value={h.extractExpr}
              onChange={(e) => onChange({ extractExpr: e.target.value })}
              placeholder="$.data"
            />
          )}
        </Field>
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
        <Field label="Success codes" className="w-mid" hint="Default: any 2xx" error={errors.get('impl.successCodes')}>
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              className="input mono"
              value={h.successCodes}
              onChange={(e) => onChange({ successCodes: e.target.value })}
              placeholder="200, 201"
            />
          )}
        </Field>
        <Field label="Timeout (ms)" className="w-mid" error={errors.get('impl.timeoutMs')}>
          {(id) => (
            <input
              id={id}
              className="input"
              inputMode="numeric"
              value={h.timeoutMs}
              onChange={(e) => onChange({ timeoutMs: e.target.value })}
              placeholder="10000"
            />
          )}
        </Field>
        <Field label="Retries" className="w-narrow" hint="0–10, on network errors and 5xx" error={errors.get('impl.maxRetries')}>
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              className="input"
              inputMode="numeric"
              value={h.maxRetries}
              onChange={(e) => onChange({ maxRetries: e.target.value })}
              placeholder="0"
            />
          )}
        </Field>
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
          <Field label="Secret name" className="w-mid">
            {(id) => (
              <input id={id} className="input mono" value={h.hmacSecret} onChange={(e) => onChange({ hmacSecret: e.target.value })} placeholder="SIGNING_KEY" />
            )}
          </Field>
          <Field label="Algorithm" className="w-narrow">
            {(id) => (
              <select id={id} className="input" value={h.hmacAlgorithm} onChange={(e) => onChange({ hmacAlgorithm: e.target.value as 'sha256' | 'sha512' })}>
                <option value="sha256">SHA-256</option>
                <option value="sha512">SHA-512</option>
              </select>
            )}
          </Field>
          <Field label="Signature header" className="w-mid">
            {(id) => (
              <input id={id} className="input mono" value={h.hmacHeader} onChange={(e) => onChange({ hmacHeader: e.target.value })} placeholder="X-Signature" />
            )}
          </Field>
          <Field label="Timestamp header" className="w-mid">
            {(id) => (
              <input
                id={id}
                className="input mono"
                value={h.hmacTimestampHeader}
                onChange={(e) => onChange({ hmacTimestampHeader: e.target.value })}
                placeholder="X-Timestamp"
              />
            )}
          </Field>
          <Field label="Prefix" className="w-narrow">
            {(id) => (
              <input id={id} className="input mono" value={h.hmacPrefix} onChange={(e) => onChange({ hmacPrefix: e.target.value })} placeholder="sha256=" />
            )}
          </Field>
        </div>
      )}
      {h.authType === 'oauth2ClientCredentials' && (
        <div className="row wrap">
          <Field label="Token URL" className="grow">
            {(id) => (
              <input
                id={id}
                className="input mono"
                value={h.oauthTokenUrl}
                onChange={(e) => onChange({ oauthTokenUrl: e.target.value })}
                placeholder="https://auth.example.com/oauth/token"
              />
            )}
          </Field>
          <Field label="Client ID secret" className="w-mid">
            {(id) => (
              <input
                id={id}
                className="input mono"
                value={h.oauthClientIdSecret}
                onChange={(e) => onChange({ oauthClientIdSecret: e.target.value })}
                placeholder="CLIENT_ID"
              />
            )}
          </Field>
          <Field label="Client secret secret" className="w-mid">
            {(id) => (
              <input
                id={id}
                className="input mono"
                value={h.oauthClientSecretSecret}
                onChange={(e) => onChange({ oauthClientSecretSecret: e.target.value })}
                placeholder="CLIENT_SECRET"
              />
            )}
          </Field>
          <Field label="Scope" className="w-mid">
            {(id) => <input id={id} className="input" value={h.oauthScope} onChange={(e) => onChange({ oauthScope: e.target.value })} />}
          </Field>
          <Field label="Audience" className="w-mid">
            {(id) => <input id={id} className="input" value={h.oauthAudience} onChange={(e) => onChange({ oauthAudience: e.target.value })} />}
          </Field>
        </div>
      )}
    </fieldset>
  );
}

export function ContainerImplEditor({
  value,
  onChange,
  errors,
  readOnly,
}: {
  value: ContainerDraft;
  onChange(p: Partial<ContainerDraft>): void;
  errors: Errors;
  readOnly?: boolean;
}) {
  const c = value;
  return (
    <fieldset className="fieldset" disabled={readOnly}>
      <legend>Container</legend>
      <div className="radio-row" role="radiogroup" aria-label="Container source">
        <label className="check">
          <input type="radio" name="container-source" checked={c.source === 'image'} onChange={() => onChange({ source: 'image' })} /> Image
        </label>
        <label className="check">
          <input type="radio" name="container-source" checked={c.source === 'build'} onChange={() => onChange({ source: 'build' })} /> Build from the tool's
          folder (Dockerfile)
        </label>
      </div>
      {c.source === 'image' ? (
        <Field label="Image" error={errors.get('impl.image')}>
          {(id) => (
            <input
              id={id}
              className="input mono"
              value={c.image}
              onChange={(e) => onChange({ image: e.target.value })}
              placeholder="alpine:3.20"
              data-testid="container-image"
            />
          )}
        </Field>
      ) : (
        <p className="field-hint">
          The image is built from the Dockerfile in this tool's folder (<code>tools/&lt;toolID&gt;/Dockerfile</code>).{' '}
          {errors.get('impl.build') && <span className="field-error">{errors.get('impl.build')}</span>}
        </p>
      )}
      <div className="row wrap">
        <Field label="Memory" className="w-mid" hint="256 (MB) or 512m, 1g">
          {(id, d) => (
            <input id={id} aria-describedby={d} className="input" value={c.memory} onChange={(e) => onChange({ memory: e.target.value })} placeholder="256m" />
          )}
        </Field>
        <Field label="CPUs" className="w-narrow">
          {(id) => <input id={id} className="input" inputMode="decimal" value={c.cpus} onChange={(e) => onChange({ cpus: e.target.value })} placeholder="1" />}
        </Field>
        <Field label="Network" className="w-mid">
          {(id) => (
            <select id={id} className="input" value={c.network} onChange={(e) => onChange({ network: e.target.value as 'none' | 'bridge' })}>
              <option value="none">None (isolated)</option>
              <option value="bridge">Bridge (internet)</option>
            </select>
          )}
        </Field>
        <Field label="Timeout (s)" className="w-narrow" error={errors.get('impl.timeoutSeconds')}>
          {(id) => (
            <input
              id={id}
              className="input"
              inputMode="decimal"
              value={c.timeoutSeconds}
              onChange={(e) => onChange({ timeoutSeconds: e.target.value })}
              placeholder="30"
            />
          )}
        </Field>
      </div>
      <label className="check">
        <input type="checkbox" checked={c.writable} onChange={(e) => onChange({ writable: e.target.checked })} /> Writable root file system
      </label>
      {errors.get('impl.sandbox') && <div className="field-error">{errors.get('impl.sandbox')}</div>}
    </fieldset>
  );
}

export function FunctionImplEditor({
  value,
  onPick,
  onUse,
  errors,
  readOnly,
}: {
  value: string;
  onPick(name: string): void;
  onUse(fn: FunctionInfo): void;
  errors: Errors;
  readOnly?: boolean;
}) {
  const fns = useFunctions();
  const selected = fns.data?.items.find((f) => f.name === value);
  return (
    <fieldset className="fieldset" disabled={readOnly}>
      <legend>Function</legend>
      <Field
        label="Registered function"
        error={errors.get('impl.function') ?? (value && fns.data && !selected ? `${value} is not registered in this app` : undefined)}
      >
        {(id) =>
          fns.isPending ? (
            <div className="muted">Loading functions…</div>
          ) : fns.isError ? (
            <div className="field-error">{errorMessage(fns.error)}</div>
          ) : (
            <select id={id} className="input mono" value={value} onChange={(e) => onPick(e.target.value)} data-testid="function-picker">
              <option value="">Choose a function…</option>
              {value && !selected && <option value={value}>{value} (not registered)</option>}
              {fns.data.items.map((f) => (
                <option key={f.name} value={f.name}>
                  {f.name}
                </option>
              ))}
            </select>
          )
        }
      </Field>
      {selected && (
        <div className="fn-info">
          <p>{selected.description}</p>
          <Badge tone={SAFETY_TONE[selected.safety]}>{SAFETY_LABEL[selected.safety]}</Badge>{' '}
          {!readOnly && (
            <button type="button" className="btn btn-small" onClick={() => onUse(selected)}>
              Use its argument and output schemas
            </button>
          )}
        </div>
      )}
    </fieldset>
  );
}
