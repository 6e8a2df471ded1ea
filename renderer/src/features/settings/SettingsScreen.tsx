/** config.json (allowed hosts, private network, kill switch, workspace root) and where data lives. */
import { Suspense, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/errors.js';
import { transportKind } from '../../api/session.js';
import { patchConfig } from '../../api/operations.js';
import { keys, useConfig, useProblems, useSystemInfo } from '../../api/queries.js';
import { useToast } from '../../components/Toasts.js';
import { useConfirm } from '../../components/Dialog.js';
import { Switch } from '../../components/Switch.js';
import { ErrorState, Loading, Badge } from '../../components/States.js';
import { TextField } from '../../components/Field.js';
import { useCopy } from '../../lib/useCopy.js';
import { checkHostPattern, normalizeHostPattern } from '../../../../shared/net/hosts.js';
import type { Config } from '../../../../shared/schemas.js';
import { slotsOf } from '../../tool-types/slot-registry.js';
import { ToolSearchSettings } from './ToolSearchSettings.js';
import './SettingsScreen.css';

function useConfigPatch() {
  const qc = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (patch: Partial<Config>) => patchConfig({ patch }),
    onMutate: async (patch) => {
      await qc.cancelQueries({ queryKey: keys.config });
      const previous = qc.getQueryData<Config>(keys.config);
      if (previous) qc.setQueryData<Config>(keys.config, { ...previous, ...patch });
      return { previous };
    },
    onError: (e, _p, ctx) => {
      if (ctx?.previous) qc.setQueryData(keys.config, ctx.previous);
      toast.show('error', `Could not save settings: ${errorMessage(e)}`);
    },
    onSuccess: () => toast.show('success', 'Settings saved'),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: keys.config });
      void qc.invalidateQueries({ queryKey: keys.system });
      void qc.invalidateQueries({ queryKey: keys.tools });
    },
  });
}

/** Settings → Agent access: MCP over HTTP on a local port of the app, with its URL and token. */
function AgentAccessSettings({ value }: { value: Config['agentAccess'] }) {
  const patch = useConfigPatch();
  const system = useSystemInfo();
  const copy = useCopy();
  const [port, setPort] = useState(String(value.port));
  const [reveal, setReveal] = useState(false);
  const portNumber = Number(port);
  const portError = Number.isInteger(portNumber) && portNumber >= 1024 && portNumber <= 65535 ? undefined : 'a port from 1024 to 65535';
  const status = system.data?.agentAccess;
  return (
    <section className="panel" aria-labelledby="agent-access-title">
      <div className="panel-head">
        <h2 className="panel-title" id="agent-access-title">
          Agent access
        </h2>
      </div>
      <div className="panel-body stack">
        <div className="setting">
          <div>
            <div className="setting-title">MCP over HTTP on this computer</div>
            <div className="field-hint">
              For agents that connect to a URL. Agents that start a command (Claude Desktop, Cursor, VS Code) need nothing here: see Connect an agent.
            </div>
          </div>
          <Switch
            checked={value.enabled}
            label="Agent access"
            testId="agent-access-switch"
            onChange={(enabled) => {
              if (enabled && portError) return;
              patch.mutate({ agentAccess: { enabled, port: portNumber } });
            }}
          />
        </div>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (!portError) patch.mutate({ agentAccess: { enabled: value.enabled, port: portNumber } });
          }}
        >
          <TextField
            label="Port"
            className="w-mid"
            error={port !== String(value.port) ? portError : undefined}
            mono
            inputMode="numeric"
            value={port}
            onValue={(v) => setPort(v)}
            data-testid="agent-access-port"
          />
          {port !== String(value.port) && !portError && (
            <button type="submit" className="btn">
              Use port {port}
            </button>
          )}
        </form>
        {status?.error && (
          <p className="field-error" role="alert">
            {status.error}
          </p>
        )}
        {status?.enabled && status.url && (
          <dl className="facts" data-testid="agent-access-status">
            <dt>Endpoint</dt>
            <dd>
              <code className="mono break">{status.url}</code>
            </dd>
            <dt>Token</dt>
            <dd className="row">
              <code className="mono break">{reveal ? status.token : '•'.repeat(16)}</code>
              <button type="button" className="btn btn-small" onClick={() => setReveal((r) => !r)} aria-pressed={reveal}>
                {reveal ? 'Hide' : 'Show'}
              </button>
              <button type="button" className="btn btn-small" onClick={() => void copy(status.token ?? '', 'Token copied')}>
                Copy
              </button>
            </dd>
          </dl>
        )}
      </div>
    </section>
  );
}

function AllowedHosts({ hosts }: { hosts: string[] }) {
  const patch = useConfigPatch();
  const [entry, setEntry] = useState('');
  const [tried, setTried] = useState(false);
  const problem = entry ? checkHostPattern(entry) : tried ? 'Enter a host name' : undefined;
  const duplicate = entry && hosts.includes(normalizeHostPattern(entry)) ? `${normalizeHostPattern(entry)} is already allowed` : undefined;
  const add = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!entry || problem || duplicate) return;
    patch.mutate({ allowedHosts: [...hosts, normalizeHostPattern(entry)] });
    setEntry('');
    setTried(false);
  };
  return (
    <section className="panel" aria-labelledby="hosts-title">
      <div className="panel-head">
        <h2 className="panel-title" id="hosts-title">
          Allowed hosts
        </h2>
      </div>
      <div className="panel-body">
        <p className="field-hint">
          HTTP tools may only call these hosts. <code>*.example.com</code> matches every sub-domain but not example.com itself.
        </p>
        {hosts.length === 0 ? (
          <p className="muted">No hosts allowed yet: HTTP tools cannot run.</p>
        ) : (
          <ul className="chip-list" data-testid="allowed-hosts">
            {hosts.map((h) => (
              <li key={h} className="chip">
                <span className="mono">{h}</span>
                <button
                  type="button"
                  className="icon-btn"
                  aria-label={`Remove ${h}`}
                  onClick={() => patch.mutate({ allowedHosts: hosts.filter((x) => x !== h) })}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        <form className="row" onSubmit={add} noValidate>
          <TextField
            label="Add a host"
            className="grow"
            error={problem ?? duplicate}
            mono
            value={entry}
            onValue={(v) => setEntry(v)}
            placeholder="api.example.com"
            data-testid="host-input"
          />
          <button type="submit" className="btn align-end" data-testid="host-add">
            Add
          </button>
        </form>
      </div>
    </section>
  );
}

function WorkspaceRoot({ value }: { value: string | null }) {
  const patch = useConfigPatch();
  const [text, setText] = useState(value ?? '');
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        patch.mutate({ workspaceRoot: text.trim() === '' ? null : text.trim() });
      }}
    >
      <TextField
        label="Workspace root"
        className="grow"
        hint="The only folder file tools may read or write. Empty: file tools are off."
        mono
        value={text}
        onValue={(v) => setText(v)}
        placeholder="/home/me/agent-workspace"
      />
      <button type="submit" className="btn align-end" disabled={(value ?? '') === text.trim()}>
        Save
      </button>
    </form>
  );
}

export function SettingsScreen() {
  const config = useConfig();
  const system = useSystemInfo();
  const problems = useProblems();
  const patch = useConfigPatch();
  const confirm = useConfirm();
  const copy = useCopy();
  if (config.isPending) return <Loading />;
  if (config.isError) return <ErrorState error={config.error} retry={() => void config.refetch()} />;
  const c = config.data;
  return (
    <section className="page page-narrow" aria-labelledby="settings-title" data-testid="settings">
      <header className="page-header">
        <h1 className="page-title" id="settings-title">
          Settings
        </h1>
      </header>
      <section className="panel" aria-labelledby="safety-title">
        <div className="panel-head">
          <h2 className="panel-title" id="safety-title">
            Safety
          </h2>
        </div>
        <div className="panel-body stack">
          <div className="setting">
            <div>
              <div className="setting-title">Tools enabled</div>
              <div className="field-hint">The kill switch: when off, no tool runs, from agents or from the tester.</div>
            </div>
            <Switch
              checked={c.toolsEnabled}
              label="Tools enabled"
              testId="kill-switch"
              onChange={async (v) => {
                if (
                  !v &&
                  !(await confirm({
                    title: 'Stop all tools?',
                    message: 'Every call fails until you switch tools back on.',
                    confirmLabel: 'Stop all tools',
                    danger: true,
                  }))
                )
                  return;
                patch.mutate({ toolsEnabled: v });
              }}
            />
          </div>
          <div className="setting">
            <div>
              <div className="setting-title">Allow private network addresses</div>
              <div className="field-hint">Loopback, private, link-local and cloud metadata addresses are refused unless this is on.</div>
            </div>
            <Switch
              checked={c.allowPrivateNetwork}
              label="Allow private network addresses"
              testId="private-switch"
              onChange={(v) => patch.mutate({ allowPrivateNetwork: v })}
            />
          </div>
          <WorkspaceRoot key={c.workspaceRoot ?? ''} value={c.workspaceRoot} />
        </div>
      </section>
      <AllowedHosts hosts={c.allowedHosts} />
      <AgentAccessSettings key={c.agentAccess.port} value={c.agentAccess} />
      <ToolSearchSettings config={c} patch={(fields) => patch.mutate(fields)} />
      <Suspense fallback={null}>
        {slotsOf('SettingsSection').map(({ key, Slot }) => (
          <Slot key={key} config={c} patch={(fields) => patch.mutate(fields)} />
        ))}
      </Suspense>
      <section className="panel" aria-labelledby="data-title">
        <div className="panel-head">
          <h2 className="panel-title" id="data-title">
            Data
          </h2>
        </div>
        <div className="panel-body">
          {system.isPending ? (
            <Loading />
          ) : system.isError ? (
            <p className="field-error">{errorMessage(system.error)}</p>
          ) : (
            <dl className="facts">
              <dt>Data directory</dt>
              <dd className="row">
                <code className="mono break" data-testid="data-dir">
                  {system.data.dataDir}
                </code>
                <button type="button" className="btn btn-small" onClick={() => void copy(system.data.dataDir, 'Path copied')}>
                  Copy
                </button>
              </dd>
              <dt>Built-in bundles</dt>
              <dd>
                <code className="mono break">{system.data.builtinDir}</code>
              </dd>
              <dt>Docker</dt>
              <dd>
                {system.data.docker.ok ? (
                  <Badge tone="ok">available</Badge>
                ) : (
                  <span className="field-warning">{system.data.docker.reason ?? 'unavailable'}</span>
                )}
              </dd>
              <dt>Secrets encryption</dt>
              <dd>{system.data.secretsEncryption}</dd>
              <dt>Version</dt>
              <dd>
                {system.data.appVersion} · {transportKind() === 'ipc' ? 'desktop' : 'browser (headless host)'}
              </dd>
            </dl>
          )}
          {problems.data && problems.data.items.length > 0 && (
            <div className="problems" data-testid="problems">
              <h3>Files that could not be read</h3>
              <ul>
                {problems.data.items.map((p) => (
                  <li key={p.path}>
                    <code className="break">{p.path}</code>: {p.reason}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      </section>
    </section>
  );
}
