/** Soft-deleted bundles: what is inside, restore, delete for good, empty the Trash. */
import { useQuery } from '@tanstack/react-query';
import { listTools } from '../../api/operations.js';
import { keys, useBundles } from '../../api/queries.js';
import { usePurgeBundles, useRestoreBundle } from '../../api/mutations.js';
import { useConfirm } from '../../components/Dialog.js';
import { Empty, ErrorState, Loading } from '../../components/States.js';
import { absoluteTime, relativeTime, plural } from '../../lib/format.js';
import type { BundleView } from '../../../../shared/types.js';
import '../../components/ListCards.css';
import './TrashScreen.css';

function Contents({ bundle }: { bundle: BundleView }) {
  const tools = useQuery({
    queryKey: [...keys.toolList(bundle.bundleID), 'trash'],
    queryFn: async () => (await listTools({ bundleIDs: [bundle.bundleID], includeDisabled: true, pageSize: 200 })).items,
  });
  if (tools.isPending) return <p className="muted">Loading…</p>;
  if (tools.isError || !tools.data.length) return <p className="muted">{tools.isError ? 'Its tools could not be listed.' : 'No tools.'}</p>;
  return (
    <ul className="trash-tools" data-testid={`trash-tools-${bundle.slug}`}>
      {tools.data.map((t) => (
        <li key={t.toolID}>
          {t.displayName || t.slug}{' '}
          <span className="mono muted">
            {t.slug}@{t.version}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function TrashScreen() {
  const trash = useBundles('only');
  const restore = useRestoreBundle();
  const purge = usePurgeBundles();
  const confirm = useConfirm();
  const name = (b: BundleView) => b.displayName || b.slug;
  const purgeAll = async (bundles: BundleView[], emptying = false) => {
    const tools = bundles.reduce((n, b) => n + b.toolCount, 0);
    const ok = await confirm({
      title: emptying ? 'Empty the Trash?' : `Delete ${name(bundles[0]!)} for good?`,
      message: `${bundles.length === 1 ? 'The bundle' : `${bundles.length} bundles`} and ${plural(tools, 'tool')} will be removed from disk, with their history and usage counts. This cannot be undone.`,
      confirmLabel: emptying ? 'Empty Trash' : 'Delete for good',
      danger: true,
    });
    if (ok) purge.mutate(bundles.map((b) => ({ bundleID: b.bundleID, name: name(b) })));
  };
  return (
    <section className="page page-narrow" aria-labelledby="trash-title" data-testid="trash">
      <header className="page-header">
        <div className="page-title-row">
          <h1 className="page-title" id="trash-title">
            Trash
          </h1>
          <div className="spacer" />
          {!!trash.data?.length && (
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => void purgeAll(trash.data, true)}
              disabled={purge.isPending}
              data-testid="empty-trash"
            >
              Empty Trash
            </button>
          )}
        </div>
        <p className="page-sub">
          Deleted bundles stay here and can be restored. A bundle with no tools left is removed for good two days after it was deleted; one that still holds
          tools stays until you restore it or delete it for good.
        </p>
      </header>
      {trash.isPending ? (
        <Loading />
      ) : trash.isError ? (
        <ErrorState error={trash.error} retry={() => void trash.refetch()} />
      ) : trash.data.length === 0 ? (
        <Empty title="Trash is empty" />
      ) : (
        <ul className="card-list">
          {trash.data.map((b) => (
            <li key={b.bundleID} className="list-card" data-testid={`trash-${b.slug}`}>
              <div className="grow">
                <div className="list-card-title">{name(b)}</div>
                <div className="muted">
                  <span className="mono">{b.slug}</span> · {plural(b.toolCount, 'tool')} · deleted{' '}
                  <span title={absoluteTime(b.softDeletedAt)}>{relativeTime(b.softDeletedAt)}</span>
                </div>
                {b.toolCount > 0 && (
                  <details className="trash-details">
                    <summary>What is inside</summary>
                    <Contents bundle={b} />
                  </details>
                )}
              </div>
              <button
                type="button"
                className="btn"
                onClick={() => restore.mutate(b.bundleID)}
                disabled={restore.isPending && restore.variables === b.bundleID}
                data-testid={`restore-${b.slug}`}
              >
                Restore
              </button>
              <button
                type="button"
                className="btn btn-danger-quiet"
                onClick={() => void purgeAll([b])}
                disabled={purge.isPending}
                data-testid={`purge-${b.slug}`}
              >
                Delete for good
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
