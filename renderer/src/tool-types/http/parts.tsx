/** Smaller parts of the `http` editor: the URL's host against the allowed hosts, and the arguments sent in an OpenAPI style. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/errors.js';
import { patchConfig } from '../../api/operations.js';
import { keys, useConfig } from '../../api/queries.js';
import { useToast } from '../../components/Toasts.js';
import { isHostAllowed, templateHost } from '../../../../shared/net/hosts.js';
import type { ParamSerialization } from '../../../../shared/tool-types/http.js';
import './http.css';

/** The literal host of a URL template, or why there is none (the shared rule the core saves by). */
export function hostOfTemplate(url: string): { host?: string; problem?: string } {
  const h = templateHost(url);
  if (h.ok) return { host: h.host };
  if (h.reason === 'missing') return { problem: 'no host yet' };
  if (h.reason === 'placeholder') return { problem: 'the host must be written literally' };
  return { problem: h.message };
}

export function AllowedHostStatus({ url, readOnly }: { url: string; readOnly?: boolean }) {
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
export function ParamStyles({
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
