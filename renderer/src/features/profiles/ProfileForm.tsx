/** Create or edit a profile: slug, name, mode (with what each costs), bundles, tools from elsewhere and left out, instructions. */
import { useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { putProfile } from '../../api/operations.js';
import { ApiCallError, errorMessage } from '../../api/errors.js';
import { keys, useAllTools, useBundles, useProfiles } from '../../api/queries.js';
import { useToast } from '../../components/Toasts.js';
import { Field, FormErrors, TextField, issuesByField } from '../../components/Field.js';
import { tokensApprox, TOKENIZER_BASIS } from '../../../../shared/agents/context-cost.js';
import type { ProfileDetail, ProfileFile, ProfileMode, ProfileSummary } from '../../../../shared/agents/profiles.js';
import { draftOf, EMPTY_DRAFT, inputOf, type ProfileDraft } from './profileInput.js';
import { MultiToolPicker } from './MultiToolPicker.js';
import './Profiles.css';

const SLUG = /^[a-z0-9][a-z0-9-]*$/;
const FIELDS = ['slug', 'displayName', 'bundles', 'include', 'exclude', 'instructions', 'requiredScope', 'mode'] as const;

interface Props {
  profileID: string;
  stored?: ProfileDetail;
  onSaved(profile: ProfileSummary, created: boolean): void;
  onCancel(): void;
}

export function ProfileForm({ profileID, stored, onSaved, onCancel }: Props) {
  const qc = useQueryClient();
  const toast = useToast();
  const bundles = useBundles('exclude');
  const tools = useAllTools();
  const profiles = useProfiles();
  const [draft, setDraft] = useState<ProfileDraft>(() => (stored ? draftOf(stored) : EMPTY_DRAFT));
  // The version the draft started from: a save replaces only that one, so a change made elsewhere meanwhile is never overwritten.
  const [base, setBase] = useState<ProfileFile | undefined>(stored);
  const [tried, setTried] = useState(false);
  const dirty = base ? JSON.stringify(inputOf(draft, base)) !== JSON.stringify(inputOf(draftOf(base), base)) : true;
  const changedElsewhere = !!stored && !!base && stored.modifiedAt !== base.modifiedAt;
  if (changedElsewhere && !dirty) {
    // Nothing typed yet: simply show the newer version (an override saved below, another window's change).
    setBase(stored);
    setDraft(draftOf(stored));
  }
  const takeTheirs = () => {
    setBase(stored);
    if (stored) setDraft(draftOf(stored));
    save.reset();
  };
  const set = (patch: Partial<ProfileDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const save = useMutation({
    mutationFn: () => putProfile({ profileID, profile: inputOf(draft, base), ...(base ? { ifModifiedAt: base.modifiedAt } : {}) }),
    onSuccess: (r) => {
      setBase(r.profile);
      setDraft(draftOf(r.profile));
      toast.show('success', `Profile ${r.profile.slug} saved`);
      void qc.invalidateQueries({ queryKey: keys.profiles });
      onSaved(r.profile, r.created);
    },
  });
  const serverError = save.error instanceof ApiCallError ? save.error : null;
  const fieldErrors = serverError ? issuesByField(serverError.issues, FIELDS) : new Map<string, string>();
  if (serverError?.code === 'CONFLICT') {
    // The core names the holder by its ID; people know it by its name.
    const holderID = (serverError.error.details as { profileID?: unknown } | undefined)?.profileID;
    const holder = profiles.data?.find((p) => p.profileID === holderID);
    fieldErrors.set(
      'slug',
      holder ? `/mcp/p/${holder.slug} is taken by the profile “${holder.displayName || holder.slug}”; choose another slug` : serverError.message,
    );
  }
  const slugError =
    tried && !SLUG.test(draft.slug.trim())
      ? 'Use lower-case letters, digits and dashes, starting with a letter or digit (e.g. ops-agent)'
      : fieldErrors.get('slug');

  const bundleSlug = useMemo(() => {
    const byID = new Map((bundles.data ?? []).map((b) => [b.bundleID, b.slug]));
    return (id: string) => byID.get(id) ?? id;
  }, [bundles.data]);
  const costs = useMemo(() => {
    const unchanged = stored && JSON.stringify(inputOf(draft, stored)) === JSON.stringify(inputOf(draftOf(stored), stored));
    const search = stored?.contextTokens.search ?? profiles.data?.[0]?.contextTokens.search;
    if (unchanged) return { listed: stored.contextTokens.listed, search, estimate: false };
    const toolTokens = new Map((tools.data ?? []).map((t) => [t.toolID, t.contextTokens ?? 0]));
    const ownTokens = (d: ProfileDraft) =>
      (bundles.data ?? []).filter((b) => d.bundles.includes(b.bundleID)).reduce((n, b) => n + (b.contextTokens ?? 0), 0) +
      d.include.reduce((n, id) => n + (toolTokens.get(id) ?? 0), 0) -
      d.exclude.reduce((n, id) => n + (toolTokens.get(id) ?? 0), 0);
    // The saved overrides (and the list's envelope) are in the core's count, not in the tools' own: carried over as they stand.
    const beyondOwn = stored && stored.contextTokens.pending === 0 ? stored.contextTokens.listed - ownTokens(draftOf(stored)) : 0;
    return { listed: Math.max(0, ownTokens(draft) + beyondOwn), search, estimate: true };
  }, [draft, stored, bundles.data, tools.data, profiles.data]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!SLUG.test(draft.slug.trim())) return;
    save.mutate();
  };
  const modes: { mode: ProfileMode; label: string; what: string; tokens: number | undefined }[] = [
    { mode: 'all', label: 'Every tool listed', what: 'The agent gets every definition up front.', tokens: costs.listed },
    { mode: 'search', label: 'Search', what: 'Three tools (search_tools, describe_tools, call_tool) find and call the rest.', tokens: costs.search },
  ];

  return (
    <form className="form panel" onSubmit={submit} noValidate data-testid="profile-form">
      <div className="panel-body">
        <FormErrors error={serverError && serverError.code !== 'CONFLICT' ? serverError : null} shownFields={[...FIELDS, 'overrides']} />
        <div className="row wrap">
          <TextField
            label="Slug"
            className="w-mid"
            mono
            value={draft.slug}
            onValue={(slug) => set({ slug })}
            error={slugError}
            hint={<>Its address: /mcp/p/{draft.slug.trim() || '<slug>'}</>}
            testId="profile-slug-field"
            data-testid="profile-slug"
            autoFocus={!stored}
          />
          <TextField
            label="Name"
            className="grow"
            value={draft.displayName}
            onValue={(displayName) => set({ displayName })}
            error={fieldErrors.get('displayName')}
            data-testid="profile-name"
          />
        </div>

        <fieldset className="fieldset">
          <legend>Mode</legend>
          <div className="profile-modes">
            {modes.map((m) => (
              <label key={m.mode} className="profile-mode">
                <input
                  type="radio"
                  name="profile-mode"
                  checked={draft.mode === m.mode}
                  onChange={() => set({ mode: m.mode })}
                  data-testid={`profile-mode-${m.mode}`}
                />
                <span>
                  {m.label}
                  <span className="profile-mode-cost" data-testid={`profile-mode-${m.mode}-cost`}>
                    {m.tokens === undefined ? 'counted once saved' : tokensApprox(m.tokens)}
                    {m.mode === 'all' && costs.estimate ? ' (estimate)' : ''}
                  </span>
                  <span className="field-hint">{m.what}</span>
                </span>
              </label>
            ))}
          </div>
          <div className="field-hint">Tokens of the tools/list answer an agent reads ({TOKENIZER_BASIS}).</div>
        </fieldset>

        <fieldset className="fieldset">
          <legend>Bundles</legend>
          {bundles.isPending ? (
            <span className="muted">Loading bundles…</span>
          ) : (
            <ul className="profile-checks">
              {(bundles.data ?? []).map((b) => (
                <li key={b.bundleID}>
                  <label>
                    <input
                      type="checkbox"
                      checked={draft.bundles.includes(b.bundleID)}
                      onChange={(e) => set({ bundles: e.target.checked ? [...draft.bundles, b.bundleID] : draft.bundles.filter((id) => id !== b.bundleID) })}
                      data-testid={`profile-bundle-${b.slug}`}
                    />
                    {b.displayName || b.slug}
                    <span className="muted">({b.agentToolCount ?? b.toolCount})</span>
                  </label>
                </li>
              ))}
            </ul>
          )}
          {fieldErrors.get('bundles') && <div className="field-error">{fieldErrors.get('bundles')}</div>}
          <div className="field-hint">The tools of these bundles that agents are offered (switched on, bundle on).</div>
        </fieldset>

        <MultiToolPicker
          label="Tools from elsewhere"
          hint="Listed too, though their bundle is not included."
          tools={tools.data ?? []}
          picked={draft.include}
          bundleSlug={bundleSlug}
          onChange={(include) => set({ include })}
          testId="profile-include"
        />
        <MultiToolPicker
          label="Tools left out"
          hint="Not listed, though their bundle is included."
          tools={tools.data ?? []}
          picked={draft.exclude}
          bundleSlug={bundleSlug}
          onChange={(exclude) => set({ exclude })}
          testId="profile-exclude"
        />

        <Field label="Instructions" error={fieldErrors.get('instructions')} hint="Lead the server's MCP instructions at this address.">
          {(id, d) => (
            <textarea
              id={id}
              aria-describedby={d}
              className="input"
              rows={4}
              value={draft.instructions}
              onChange={(e) => set({ instructions: e.target.value })}
              data-testid="profile-instructions"
            />
          )}
        </Field>
        <TextField
          label="Required OAuth scope"
          hint="On a team host with an authorization server: an access token needs this scope too at this address (e.g. team:ops). Empty: none."
          className="w-mid"
          mono
          value={draft.requiredScope}
          onValue={(requiredScope) => set({ requiredScope })}
          error={fieldErrors.get('requiredScope')}
          data-testid="profile-required-scope"
        />
        {changedElsewhere && dirty && (
          <div className="notice profile-warning" role="status" data-testid="profile-changed-elsewhere">
            This profile was changed elsewhere since you opened it; saving is refused so that change is not lost.{' '}
            <button type="button" className="link-btn" onClick={takeTheirs} data-testid="profile-take-theirs">
              Load that version (drops your edits)
            </button>
          </div>
        )}
        {save.isError && !serverError && <p className="field-error">{errorMessage(save.error)}</p>}
        <div className="form-actions">
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending} data-testid="profile-save">
            {save.isPending ? 'Saving…' : stored ? 'Save profile' : 'Create profile'}
          </button>
        </div>
      </div>
    </form>
  );
}
