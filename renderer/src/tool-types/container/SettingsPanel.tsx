/**
 * A container tool's settings on its page (a Chalie tool's config_schema): each setting with its
 * value (a secret only as set or not, never its value), a form that writes the ones changed, and
 * "Test configuration", which says what is missing or invalid and whether the tool can run.
 */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getToolConfig, putToolConfig, testToolConfig } from '../../api/operations.js';
import { toolRefOf } from '../../api/queries.js';
import { errorMessage } from '../../api/errors.js';
import { Badge } from '../../components/States.js';
import type { ToolView } from '../../../../shared/types.js';
import type { ConfigTestResult, ToolSettingView } from '../../../../shared/tool-config.js';
import './container.css';

type Value = string | number | boolean | null;

/** What a typed text becomes for a setting of this type ('' clears it). */
function parsed(setting: ToolSettingView, text: string): Value {
  if (text === '') return null;
  if (setting.type === 'integer' || setting.type === 'number') return Number.isFinite(Number(text)) ? Number(text) : text;
  if (setting.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

const hasSettings = (tool: ToolView) => {
  if (tool.type !== 'container') return false;
  const impl = tool.impl as { settings?: object; secrets?: unknown[] };
  return Object.keys(impl.settings ?? {}).length > 0 || (impl.secrets?.length ?? 0) > 0;
};

export function ContainerSettingsNotice({ tool }: { tool: ToolView }) {
  return hasSettings(tool) ? <SettingsPanel tool={tool} /> : null;
}

function SettingsPanel({ tool }: { tool: ToolView }) {
  const ref = toolRefOf(tool);
  const queryClient = useQueryClient();
  const key = ['toolConfig', tool.toolID, tool.etag] as const;
  const config = useQuery({ queryKey: key, queryFn: () => getToolConfig(ref) });
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [result, setResult] = useState<ConfigTestResult | undefined>();
  const save = useMutation({
    mutationFn: () => {
      const settings = Object.fromEntries(
        Object.entries(edits).map(([name, text]) => [
          name,
          parsed(
            config.data!.settings.find((s) => s.name === name)!,
            text,
          ),
        ]),
      );
      return putToolConfig({ ...ref, settings });
    },
    onSuccess: (view) => {
      setEdits({});
      setResult(undefined);
      queryClient.setQueryData(key, view);
    },
  });
  const test = useMutation({ mutationFn: () => testToolConfig(ref), onSuccess: setResult });
  if (!config.data) return config.error ? <p className="notice notice-danger">{errorMessage(config.error)}</p> : null;
  const changed = Object.keys(edits).length > 0;
  return (
    <section className="tool-settings" aria-label="Settings" data-testid="tool-settings">
      <div className="tool-settings-head">
        <h3>Settings</h3>
        <span className="muted">what the container receives as settings; secrets are kept in the secrets store and never shown</span>
      </div>
      <form
        className="tool-settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (changed) save.mutate();
        }}
      >
        {config.data.settings.map((s) => (
          <label key={s.name} className="tool-setting">
            <span className="tool-setting-name mono">
              {s.name} {s.required && <Badge tone="warn">required</Badge>} {s.secret && <Badge tone="info">secret</Badge>}
            </span>
            <input
              className="input mono"
              type={s.secret ? 'password' : 'text'}
              autoComplete="off"
              value={edits[s.name] ?? (s.secret ? '' : s.value === null || s.value === undefined ? '' : String(s.value))}
              placeholder={s.secret ? (s.isSet ? 'set — type to replace' : 'not set') : s.default !== undefined ? `default ${String(s.default)}` : 'no value'}
              onChange={(e) => setEdits((m) => ({ ...m, [s.name]: e.target.value }))}
              data-testid={`setting-${s.name}`}
            />
            {s.description && <span className="muted tool-setting-help">{s.description}</span>}
          </label>
        ))}
        <div className="tool-settings-actions">
          <button type="submit" className="btn btn-small btn-primary" disabled={!changed || save.isPending} data-testid="settings-save">
            Save settings
          </button>
          <button type="button" className="btn btn-small" disabled={test.isPending} onClick={() => test.mutate()} data-testid="settings-test">
            Test configuration
          </button>
        </div>
      </form>
      {save.error && (
        <p className="notice notice-danger" role="alert">
          {errorMessage(save.error)}
        </p>
      )}
      {test.error && (
        <p className="notice notice-danger" role="alert">
          {errorMessage(test.error)}
        </p>
      )}
      {result && (
        <div className={`notice ${result.ok ? 'notice-info' : 'notice-danger'} tool-settings-result`} role="status" data-testid="settings-test-result">
          <strong>{result.ok ? 'Configuration complete' : 'Configuration incomplete'}</strong>
          <span>{result.ok ? result.summary : 'Fix these, then test again:'}</span>
          {result.problems.length > 0 && (
            <ul>
              {result.problems.map((p) => (
                <li key={p.setting + p.kind}>
                  <Badge tone="danger">{p.kind}</Badge> {p.message}
                </li>
              ))}
            </ul>
          )}
          {result.notes.length > 0 && (
            <ul className="muted">
              {result.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
