/** App-scoped secrets: names and masked values only; set, replace, delete. */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/errors.js';
import { deleteSecret, setSecret } from '../../api/operations.js';
import { keys, useSecrets } from '../../api/queries.js';
import { useToast } from '../../components/Toasts.js';
import { useConfirm } from '../../components/Dialog.js';
import { Empty, ErrorState, Loading } from '../../components/States.js';
import { Field } from '../../components/Field.js';
import { isSecretName } from '../../../../shared/template.js';
import { absoluteTime, relativeTime } from '../../lib/format.js';
import '../../components/ListCards.css';

function SecretForm({ name: fixedName, onDone }: { name?: string; onDone(): void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState(fixedName ?? '');
  const [value, setValue] = useState('');
  const [reveal, setReveal] = useState(false);
  const [tried, setTried] = useState(false);
  const save = useMutation({
    mutationFn: () => setSecret({ name: name.trim(), value }),
    onSuccess: (s) => {
      toast.show('success', `Secret ${s.name} saved`);
      void qc.invalidateQueries({ queryKey: keys.secrets });
      void qc.invalidateQueries({ queryKey: keys.tools });
      onDone();
    },
    onError: (e) => toast.show('error', `Could not save the secret: ${errorMessage(e)}`),
  });
  const nameError =
    (tried || name) && !isSecretName(name.trim()) ? 'Use UPPER_SNAKE_CASE: a capital letter, then capitals, digits or _ (e.g. WEATHER_API_KEY)' : undefined;
  const valueError = tried && !value ? 'Enter the value' : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!isSecretName(name.trim()) || !value) return;
    save.mutate();
  };
  return (
    <form className="form secret-form" onSubmit={submit} noValidate data-testid="secret-form">
      <div className="row wrap">
        {!fixedName && (
          <Field label="Name" className="w-mid" error={nameError}>
            {(id, d) => (
              <input
                id={id}
                aria-describedby={d}
                className="input mono"
                value={name}
                onChange={(e) => setName(e.target.value.toUpperCase())}
                autoFocus
                placeholder="WEATHER_API_KEY"
                data-testid="secret-name"
              />
            )}
          </Field>
        )}
        <Field label={fixedName ? `New value for ${fixedName}` : 'Value'} className="grow" error={valueError} hint="Stored encrypted; never shown again.">
          {(id, d) => (
            <div className="input-group">
              <input
                id={id}
                aria-describedby={d}
                className="input mono"
                type={reveal ? 'text' : 'password'}
                value={value}
                onChange={(e) => setValue(e.target.value)}
                autoComplete="off"
                autoFocus={!!fixedName}
                data-testid="secret-value"
              />
              <button type="button" className="btn btn-small" aria-pressed={reveal} onClick={() => setReveal((r) => !r)}>
                {reveal ? 'Hide' : 'Show'}
              </button>
            </div>
          )}
        </Field>
      </div>
      <div className="form-actions">
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={save.isPending} data-testid="secret-save">
          {save.isPending ? 'Saving…' : 'Save secret'}
        </button>
      </div>
    </form>
  );
}

export function SecretsScreen() {
  const secrets = useSecrets();
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const [editing, setEditing] = useState<string | null>(null);
  // The form replaces the button that opened it; when it closes, focus goes back to that button.
  const lastEditing = useRef<string | null>(null);
  useEffect(() => {
    const was = lastEditing.current;
    lastEditing.current = editing;
    if (editing !== null || was === null) return;
    const opener = document.querySelector<HTMLElement>(was === '' ? '[data-testid="add-secret"]' : `[data-testid="replace-secret-${CSS.escape(was)}"]`);
    opener?.focus();
  }, [editing]);
  const del = useMutation({
    mutationFn: (name: string) => deleteSecret({ name }),
    onSuccess: (_r, name) => {
      toast.show('success', `Secret ${name} deleted`);
      void qc.invalidateQueries({ queryKey: keys.secrets });
      void qc.invalidateQueries({ queryKey: keys.tools });
    },
    onError: (e) => toast.show('error', `Could not delete the secret: ${errorMessage(e)}`),
  });
  return (
    <section className="page page-narrow" aria-labelledby="secrets-title" data-testid="secrets">
      <header className="page-header">
        <div className="page-title-row">
          <h1 className="page-title" id="secrets-title">
            Secrets
          </h1>
          <div className="spacer" />
          {editing === null && (
            <button type="button" className="btn btn-primary" onClick={() => setEditing('')} data-testid="add-secret">
              Add secret
            </button>
          )}
        </div>
        <p className="page-sub">
          HTTP tools use secrets as <code>{'${NAME}'}</code> placeholders. Values are encrypted at rest and never leave the core; only a masked hint is shown.
        </p>
      </header>
      {editing === '' && <SecretForm onDone={() => setEditing(null)} />}
      {secrets.isPending ? (
        <Loading />
      ) : secrets.isError ? (
        <ErrorState error={secrets.error} retry={() => void secrets.refetch()} />
      ) : secrets.data.items.length === 0 ? (
        editing === null && <Empty title="No secrets yet" />
      ) : (
        <ul className="card-list">
          {secrets.data.items.map((s) => (
            <li key={s.name} className="list-card list-card-col" data-testid={`secret-${s.name}`}>
              <div className="row">
                <div className="grow">
                  <div className="list-card-title mono">{s.name}</div>
                  <div className="muted">
                    <span className="mono">{s.masked}</span>
                    {s.updatedAt && (
                      <>
                        {' '}
                        · updated <span title={absoluteTime(s.updatedAt)}>{relativeTime(s.updatedAt)}</span>
                      </>
                    )}
                  </div>
                </div>
                <button type="button" className="btn" onClick={() => setEditing(s.name)} data-testid={`replace-secret-${s.name}`}>
                  Replace
                </button>
                <button
                  type="button"
                  className="btn btn-danger-quiet"
                  onClick={async () => {
                    if (
                      await confirm({
                        title: `Delete ${s.name}?`,
                        message: 'Tools that use this secret become unavailable until it is set again.',
                        confirmLabel: 'Delete',
                        danger: true,
                      })
                    )
                      del.mutate(s.name);
                  }}
                >
                  Delete
                </button>
              </div>
              {editing === s.name && <SecretForm name={s.name} onDone={() => setEditing(null)} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
