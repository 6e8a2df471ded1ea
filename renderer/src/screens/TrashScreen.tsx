/** Soft-deleted bundles, restorable until they are reaped. */
import { useBundles } from '../api/queries.js';
import { useRestoreBundle } from '../api/mutations.js';
import { Empty, ErrorState, Loading } from '../components/States.js';
import { absoluteTime, relativeTime, plural } from '../app/format.js';

export function TrashScreen() {
  const trash = useBundles('only');
  const restore = useRestoreBundle();
  return (
    <section className="page page-narrow" aria-labelledby="trash-title" data-testid="trash">
      <header className="page-header">
        <h1 className="page-title" id="trash-title">
          Trash
        </h1>
        <p className="page-sub">Deleted bundles stay here and can be restored. Empty ones are removed for good two days after deletion.</p>
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
                <div className="list-card-title">{b.displayName || b.slug}</div>
                <div className="muted">
                  <span className="mono">{b.slug}</span> · {plural(b.toolCount, 'tool')} · deleted{' '}
                  <span title={absoluteTime(b.softDeletedAt)}>{relativeTime(b.softDeletedAt)}</span>
                </div>
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
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
