/** A profile's tokens: create one (shown once, in a dialog), list them with their use, revoke one. */
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createProfileToken, revokeProfileToken } from '../../api/operations.js';
import { errorMessage } from '../../api/errors.js';
import { keys, useProfileTokens } from '../../api/queries.js';
import { useCopy } from '../../lib/useCopy.js';
import { absoluteTime, relativeTime } from '../../lib/format.js';
import { Modal, useConfirm } from '../../components/Dialog.js';
import { useToast } from '../../components/Toasts.js';
import { Empty, ErrorState, Loading } from '../../components/States.js';
import { TextField } from '../../components/Field.js';
import type { CreatedProfileToken } from '../../../../shared/agents/profiles.js';
import './Profiles.css';

interface Props {
  profileID: string;
  slug: string;
  /** The token just created, for the client configuration beside. */
  onCreated(token: CreatedProfileToken): void;
  onRevoked(tokenID: string): void;
}

export function ProfileTokens({ profileID, slug, onCreated, onRevoked }: Props) {
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const copy = useCopy();
  const tokens = useProfileTokens(profileID);
  const [label, setLabel] = useState('');
  const [shown, setShown] = useState<CreatedProfileToken | null>(null);
  const create = useMutation({
    mutationFn: () => createProfileToken({ profileID, label: label.trim() }),
    onSuccess: (t) => {
      setShown(t);
      setLabel('');
      onCreated(t);
      void qc.invalidateQueries({ queryKey: keys.profileTokens(profileID) });
    },
  });
  const revoke = useMutation({
    mutationFn: (tokenID: string) => revokeProfileToken({ profileID, tokenID }),
    onSuccess: (_r, tokenID) => {
      toast.show('success', 'Token revoked');
      onRevoked(tokenID);
      void qc.invalidateQueries({ queryKey: keys.profileTokens(profileID) });
    },
    onError: (e) => toast.show('error', `Could not revoke the token: ${errorMessage(e)}`),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };

  return (
    <div className="panel" data-testid="profile-tokens">
      <div className="panel-head">
        <h2 className="panel-title">Tokens</h2>
      </div>
      <div className="panel-body">
        <p className="field-hint">A token opens /mcp/p/{slug} only: not /mcp, other profiles or the REST API.</p>
        <form className="row wrap" onSubmit={submit} noValidate>
          <TextField
            label="Label"
            className="grow"
            value={label}
            onValue={setLabel}
            placeholder="e.g. Claude on my laptop"
            maxLength={200}
            error={create.isError ? errorMessage(create.error) : undefined}
            data-testid="token-label"
          />
          <button type="submit" className="btn btn-primary align-end" disabled={create.isPending} data-testid="token-create">
            {create.isPending ? 'Creating…' : 'Create token'}
          </button>
        </form>
        {tokens.isPending ? (
          <Loading label="Loading tokens…" />
        ) : tokens.isError ? (
          <ErrorState error={tokens.error} retry={() => void tokens.refetch()} />
        ) : tokens.data.length === 0 ? (
          <Empty title="No tokens yet">Stdio clients need none; HTTP clients need one.</Empty>
        ) : (
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Calls</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((t) => (
                <tr key={t.tokenID}>
                  <td>{t.label || <span className="muted">(no label)</span>}</td>
                  <td title={absoluteTime(t.createdAt)}>{relativeTime(t.createdAt)}</td>
                  <td title={t.lastUsedAt ? absoluteTime(t.lastUsedAt) : undefined}>{t.lastUsedAt ? relativeTime(t.lastUsedAt) : 'never'}</td>
                  <td>{t.calls}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-small btn-danger-quiet"
                      data-testid={`token-revoke-${t.label || t.tokenID}`}
                      onClick={async () => {
                        const ok = await confirm({
                          title: `Revoke ${t.label || 'this token'}?`,
                          message: 'Clients using it are refused from now on. This cannot be undone; create a new token for them.',
                          confirmLabel: 'Revoke',
                          danger: true,
                        });
                        if (ok) revoke.mutate(t.tokenID);
                      }}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <Modal open={shown !== null} onClose={() => setShown(null)} title="Your new token" testId="token-dialog">
        {shown && (
          <div className="confirm">
            <h2 className="modal-title">Token {shown.label ? `“${shown.label}”` : ''} created</h2>
            <div className="notice profile-warning" role="status">
              Copy it now: it will not be shown again. Toolwright keeps only its hash.
            </div>
            <pre className="code-block profile-token-value" data-testid="token-value">
              {shown.token}
            </pre>
            <div className="modal-actions">
              <button type="button" className="btn btn-primary" onClick={() => void copy(shown.token, 'Token copied')} data-autofocus data-testid="token-copy">
                Copy
              </button>
              <button type="button" className="btn" onClick={() => setShown(null)} data-testid="token-dialog-close">
                Done
              </button>
            </div>
          </div>
        )}
      </Modal>
    </div>
  );
}
