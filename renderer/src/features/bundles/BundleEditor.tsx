/** Create or edit a bundle: slug checked as you type, server errors shown at their field. */
import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { v7 as uuidv7 } from 'uuid';
import { ApiCallError, errorMessage } from '../../api/errors.js';
import { putBundle } from '../../api/operations.js';
import { keys, useBundles } from '../../api/queries.js';
import { useNav } from '../../lib/nav.js';
import { slotsOf } from '../../tool-types/slot-registry.js';
import { useToast } from '../../components/Toasts.js';
import { Field, FormErrors, issuesByField } from '../../components/Field.js';
import { checkSlug } from '../../../../shared/slug.js';
import { Loading } from '../../components/States.js';

export function BundleEditor({ bundleID }: { bundleID?: string }) {
  const bundles = useBundles('exclude');
  const existing = bundleID ? bundles.data?.find((b) => b.bundleID === bundleID) : undefined;
  const { go, back } = useNav();
  const qc = useQueryClient();
  const toast = useToast();
  const [slug, setSlug] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [description, setDescription] = useState('');
  const [isEnabled, setIsEnabled] = useState(true);
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<ApiCallError | null>(null);

  useEffect(() => {
    if (existing) {
      setSlug(existing.slug);
      setDisplayName(existing.displayName);
      setDescription(existing.description);
      setIsEnabled(existing.isEnabled);
    }
    // Only when the bundle being edited changes, not on every refetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [existing?.bundleID]);

  const save = useMutation({
    mutationFn: () =>
      putBundle({
        bundleID: bundleID ?? uuidv7(),
        bundle: { slug: slug.normalize('NFC'), displayName, description, isEnabled },
      }),
    onSuccess: ({ bundle, created }) => {
      toast.show('success', `${created ? 'Created' : 'Saved'} ${bundle.displayName || bundle.slug}`);
      void qc.invalidateQueries({ queryKey: keys.bundles });
      go({ name: 'tools', bundleID: bundle.bundleID });
    },
    onError: (e) => {
      if (e instanceof ApiCallError) setServerError(e);
      else toast.show('error', errorMessage(e));
    },
  });

  if (bundleID && bundles.isPending) return <Loading />;
  const slugCheck = checkSlug(slug);
  const issues = issuesByField(serverError?.issues ?? [], ['slug', 'displayName', 'description', 'isEnabled']);
  const slugError = (touched || slug) && !slugCheck.ok ? slugCheck.message : issues.get('slug');

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    setServerError(null);
    if (!slugCheck.ok) return;
    save.mutate();
  };

  return (
    <section className="page page-narrow" aria-labelledby="bundle-editor-title">
      <header className="page-header">
        <h1 className="page-title" id="bundle-editor-title">
          {existing ? `Edit ${existing.displayName || existing.slug}` : 'New bundle'}
        </h1>
        <p className="page-sub">A bundle groups tools that are switched on and off together.</p>
        {!existing && !bundleID && slotsOf('AddBundle').map(({ key, Slot }) => <Slot key={key} place="new-bundle" />)}
      </header>
      <form className="form" onSubmit={onSubmit} noValidate data-testid="bundle-form">
        <FormErrors error={serverError} shownFields={['slug', 'displayName', 'description', 'isEnabled']} />
        <Field label="Slug" hint="Letters (any script), digits and '-'; at most 64; case-sensitive." error={slugError || undefined}>
          {(id, describedBy) => (
            <input
              id={id}
              aria-describedby={describedBy}
              aria-invalid={!!slugError || undefined}
              className="input mono"
              value={slug}
              autoFocus
              data-autofocus
              onChange={(e) => setSlug(e.target.value)}
              onBlur={() => setTouched(true)}
              data-testid="bundle-slug"
            />
          )}
        </Field>
        <Field label="Display name" error={issues.get('displayName')}>
          {(id, describedBy) => (
            <input
              id={id}
              aria-describedby={describedBy}
              className="input"
              value={displayName}
              onChange={(e) => setDisplayName(e.target.value)}
              maxLength={200}
              data-testid="bundle-name"
            />
          )}
        </Field>
        <Field label="Description" error={issues.get('description')}>
          {(id, describedBy) => (
            <textarea id={id} aria-describedby={describedBy} className="input" rows={3} value={description} onChange={(e) => setDescription(e.target.value)} />
          )}
        </Field>
        <label className="check">
          <input type="checkbox" checked={isEnabled} onChange={(e) => setIsEnabled(e.target.checked)} /> Enabled
        </label>
        <div className="form-actions">
          <button type="button" className="btn" onClick={back}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending} data-testid="bundle-save">
            {save.isPending ? 'Saving…' : existing ? 'Save' : 'Create bundle'}
          </button>
        </div>
      </form>
    </section>
  );
}
