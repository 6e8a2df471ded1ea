/** The tools a profile lists, as the agent sees them, each with an inline form to override its name and description. */
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { putProfile } from '../../api/operations.js';
import { ApiCallError } from '../../api/errors.js';
import { keys } from '../../api/queries.js';
import { useToast } from '../../components/Toasts.js';
import { Badge, Empty } from '../../components/States.js';
import { Field, TextField } from '../../components/Field.js';
import type { ProfileDetail, ProfileTool } from '../../../../shared/agents/profiles.js';
import { withOverride } from './profileInput.js';
import './Profiles.css';

function OverrideForm({ profile, tool, onDone }: { profile: ProfileDetail; tool: ProfileTool; onDone(): void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const current = profile.overrides?.[tool.toolID];
  const [name, setName] = useState(current?.name ?? '');
  const [description, setDescription] = useState(current?.description ?? '');
  const save = useMutation({
    mutationFn: (o: { name: string; description: string }) =>
      putProfile({ profileID: profile.profileID, profile: withOverride(profile, tool.toolID, o), ifModifiedAt: profile.modifiedAt }),
    onSuccess: () => {
      toast.show('success', `Override of ${tool.slug} saved`);
      void qc.invalidateQueries({ queryKey: keys.profiles });
      onDone();
    },
  });
  const error = save.error instanceof ApiCallError ? save.error : null;
  const nameError = error?.issues.find((i) => i.field === `overrides.${tool.toolID}.name`)?.message;
  const descriptionError = error?.issues.find((i) => i.field === `overrides.${tool.toolID}.description`)?.message;
  const otherError = error && !nameError && !descriptionError ? error.message : save.isError && !error ? String(save.error) : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ name, description });
  };
  return (
    <form className="form" onSubmit={submit} noValidate data-testid="override-form">
      <TextField
        label="Name the agent sees"
        mono
        value={name}
        onValue={setName}
        placeholder={tool.overridden ? '' : tool.name}
        hint="Empty: the tool's own name. 1 to 64 of A-Z a-z 0-9 _ . -"
        error={nameError}
        testId="override-name-field"
        data-testid="override-name"
        autoFocus
      />
      <Field label="Description the agent sees" error={descriptionError} hint="Empty: the tool's own description.">
        {(id, d) => (
          <textarea
            id={id}
            aria-describedby={d}
            className="input"
            rows={3}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            data-testid="override-description"
          />
        )}
      </Field>
      {otherError && <p className="field-error">{otherError}</p>}
      <div className="form-actions">
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
        {current && (
          <button type="button" className="btn" disabled={save.isPending} onClick={() => save.mutate({ name: '', description: '' })}>
            Remove override
          </button>
        )}
        <button type="submit" className="btn btn-primary" disabled={save.isPending} data-testid="override-save">
          Save override
        </button>
      </div>
    </form>
  );
}

export function ProfileTools({ profile }: { profile: ProfileDetail }) {
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <div className="panel" data-testid="profile-tools">
      <div className="panel-head">
        <h2 className="panel-title">Tools at this address ({profile.tools.length})</h2>
      </div>
      <div className="panel-body">
        {profile.tools.length === 0 ? (
          <Empty title="No tools">Include a bundle or a tool above.</Empty>
        ) : (
          <ul className="profile-tools">
            {profile.tools.map((t) => (
              <li key={t.toolID} data-testid={`profile-tool-${t.slug}`}>
                <div className="row">
                  <div className="grow">
                    <span className="mono">{t.name}</span> {t.overridden && <Badge tone="info">overridden</Badge>}
                    <div className="muted">{t.description}</div>
                  </div>
                  {editing !== t.toolID && (
                    <button type="button" className="btn btn-small" onClick={() => setEditing(t.toolID)} data-testid={`override-${t.slug}`}>
                      Override
                    </button>
                  )}
                </div>
                {editing === t.toolID && <OverrideForm profile={profile} tool={t} onDone={() => setEditing(null)} />}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
