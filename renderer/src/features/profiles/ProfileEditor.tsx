/** One profile (or a new one): its settings, tokens, client configuration and the tools it lists. */
import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { v7 as uuidv7 } from 'uuid';
import { deleteProfile } from '../../api/operations.js';
import { errorMessage } from '../../api/errors.js';
import { keys, useProfile } from '../../api/queries.js';
import { useNav } from '../../lib/nav.js';
import { useConfirm } from '../../components/Dialog.js';
import { useToast } from '../../components/Toasts.js';
import { ErrorState, Loading } from '../../components/States.js';
import type { CreatedProfileToken } from '../../../../shared/agents/profiles.js';
import { ProfileForm } from './ProfileForm.js';
import { ProfileTokens } from './ProfileTokens.js';
import { ProfileConfig } from './ProfileConfig.js';
import { ProfileTools } from './ProfileTools.js';
import { CostLine } from './CostLine.js';

export function ProfileEditor({ profileID }: { profileID?: string }) {
  const { go, replace } = useNav();
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const newID = useMemo(() => uuidv7(), []);
  const profile = useProfile(profileID);
  // The token created on this page, until the person leaves it: the configuration below carries it.
  const [token, setToken] = useState<CreatedProfileToken | null>(null);
  const remove = useMutation({
    mutationFn: () => deleteProfile({ profileID: profileID! }),
    onSuccess: () => {
      toast.show('success', 'Profile deleted');
      void qc.invalidateQueries({ queryKey: keys.profiles });
      go({ name: 'profiles' });
    },
    onError: (e) => toast.show('error', `Could not delete the profile: ${errorMessage(e)}`),
  });
  if (profileID && profile.isPending) return <Loading label="Loading the profile…" />;
  if (profileID && profile.isError) return <ErrorState error={profile.error} retry={() => void profile.refetch()} />;
  const stored = profile.data;
  const title = stored ? stored.displayName || stored.slug : 'New profile';

  return (
    <section className="page page-narrow" aria-labelledby="profile-title" data-testid="profile-screen">
      <header className="page-header">
        <div className="page-title-row">
          <h1 className="page-title" id="profile-title">
            {title}
          </h1>
          <div className="spacer" />
          {stored && (
            <button
              type="button"
              className="btn btn-danger-quiet"
              onClick={async () => {
                const ok = await confirm({
                  title: `Delete ${title}?`,
                  message: `Its address /mcp/p/${stored.slug} and its tokens stop working. The tools stay as they are.`,
                  confirmLabel: 'Delete',
                  danger: true,
                });
                if (ok) remove.mutate();
              }}
            >
              Delete profile
            </button>
          )}
        </div>
        {stored && (
          <p className="page-sub" data-testid="profile-summary">
            <code>/mcp/p/{stored.slug}</code> lists {stored.toolCount} tool{stored.toolCount === 1 ? '' : 's'}: <CostLine p={stored} />
          </p>
        )}
        {stored && (stored.missing.bundles.length > 0 || stored.missing.tools.length > 0) && (
          <p className="field-warning" data-testid="profile-missing">
            References that no longer exist (kept, left out of the list): {[...stored.missing.bundles, ...stored.missing.tools].join(', ')}
          </p>
        )}
        {stored?.mode === 'all' &&
          stored.warnings.map((w) => (
            <p key={w} className="field-warning">
              {w}; search mode keeps the list at three tools.
            </p>
          ))}
      </header>
      <ProfileForm
        profileID={profileID ?? newID}
        stored={stored}
        onSaved={(p, created) => {
          if (created) replace({ name: 'profile', profileID: p.profileID });
        }}
        onCancel={() => go({ name: 'profiles' })}
      />
      {stored && (
        <>
          <ProfileTokens
            profileID={stored.profileID}
            slug={stored.slug}
            onCreated={setToken}
            onRevoked={(tokenID) => setToken((t) => (t?.tokenID === tokenID ? null : t))}
          />
          <ProfileConfig slug={stored.slug} token={token?.token} />
          <ProfileTools profile={stored} />
        </>
      )}
    </section>
  );
}
