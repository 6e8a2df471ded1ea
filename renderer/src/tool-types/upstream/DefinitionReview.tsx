/**
 * The review of an upstream tool whose definition changed: the accepted description and schemas
 * beside the server's current ones, line by line; Accept pins the reviewed hash (the core refuses
 * with MODIFIED_ELSEWHERE when the server changed it again since), Keep withheld leaves it as is.
 * Also the notice a tool's view shows for a changed, gone or new upstream tool (its stored review
 * state): a new one is marked reviewed with one click, which accepts the definition the sync pinned.
 */
import { useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useDefinitionReview, keys, toolRefOf } from '../../api/queries.js';
import { acceptDefinition } from '../../api/operations.js';
import { errorCode, errorMessage } from '../../api/errors.js';
import { Modal } from '../../components/Dialog.js';
import { useToast } from '../../components/Toasts.js';
import { Badge, Loading } from '../../components/States.js';
import { SAFETY_LABEL, relativeTime } from '../../lib/format.js';
import { sideBySide, upstreamMarkOf, pinnedUpstreamOf, MARK_LABEL } from './upstreamMark.js';
import type { ToolView } from '../../../../shared/types.js';
import type { DefinitionReview } from '../../../../shared/upstream.js';
import './DefinitionReview.css';

const json = (v: unknown) => (v === undefined ? '' : JSON.stringify(v, null, 2));

/** The notice above a tool of an upstream server that is new, withheld for a change, or gone. */
export function UpstreamNotice({ tool }: { tool: ToolView }) {
  const [open, setOpen] = useState(false);
  const mark = upstreamMarkOf(tool);
  if (!mark) return null;
  return (
    <div className={`notice ${mark === 'new' ? 'notice-info' : 'notice-danger'} upstream-notice`} role="status" data-testid="upstream-notice">
      <Badge tone={mark === 'new' ? 'info' : mark === 'changed' ? 'warn' : 'danger'}>{MARK_LABEL[mark]}</Badge> {mark === 'new' && <MarkReviewed tool={tool} />}
      {mark === 'changed' && (
        <>
          The server changed this tool&apos;s description or schema. Agents do not see it until you review the change and accept it.{' '}
          <button type="button" className="btn btn-small btn-primary" onClick={() => setOpen(true)} data-testid="review-change">
            Review change
          </button>
        </>
      )}
      {mark === 'gone' && <>{tool.availability.reason}. It is kept here, unavailable, in case the server offers it again.</>}
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title={`Review the change to ${tool.displayName || tool.slug}`}
        className="review-modal"
        testId="review-dialog"
      >
        <ReviewBody tool={tool} onDone={() => setOpen(false)} />
      </Modal>
    </div>
  );
}

/** A new tool: what it is, and the one click that records a person looked at it (accepting the definition the sync pinned). */
function MarkReviewed({ tool }: { tool: ToolView }) {
  const qc = useQueryClient();
  const toast = useToast();
  const ref = toolRefOf(tool);
  const reviewed = useMutation({
    mutationFn: () => acceptDefinition({ ...ref, definitionHash: pinnedUpstreamOf(tool)!.definitionHash }),
    onSuccess: (t) => toast.show('success', `Marked ${t.displayName || t.slug} as reviewed`),
    onError: (e) =>
      toast.show(
        'error',
        errorCode(e) === 'MODIFIED_ELSEWHERE'
          ? 'The server changed this tool since the last sync; sync again and review the change'
          : `Not marked: ${errorMessage(e)}`,
      ),
    onSettled: () => void qc.invalidateQueries({ queryKey: keys.tools }),
  });
  return (
    <>
      A sync brought this tool from its server and nobody has reviewed it yet{tool.isEnabled ? '' : '; it stays off until you switch it on'}. Read its
      description and schemas below, then{' '}
      <button type="button" className="btn btn-small" disabled={reviewed.isPending} onClick={() => reviewed.mutate()} data-testid="mark-reviewed">
        {reviewed.isPending ? 'Marking…' : 'Mark as reviewed'}
      </button>
    </>
  );
}

function ReviewBody({ tool, onDone }: { tool: ToolView; onDone(): void }) {
  const ref = toolRefOf(tool);
  const review = useDefinitionReview(ref);
  // The difference shown stays as it was while the dialog is open: a refetch in the background (a
  // sync, a store event) never swaps it under the person's eyes, so Accept sends the hash they
  // saw (refused if the server moved on), and "Reload the difference" takes the new one.
  const [shown, setShown] = useState<DefinitionReview | undefined>(undefined);
  useEffect(() => {
    if (!shown && review.data) setShown(review.data);
  }, [review.data, shown]);
  const data = shown ?? review.data;
  const qc = useQueryClient();
  const toast = useToast();
  const accept = useMutation({
    mutationFn: (hash: string) => acceptDefinition({ ...ref, definitionHash: hash }),
    onSuccess: (t) => {
      toast.show('success', `Accepted the new definition of ${t.displayName || t.slug}; agents see it now`);
      onDone();
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: keys.tools }),
  });
  const stale = errorCode(accept.error) === 'MODIFIED_ELSEWHERE';

  return (
    <div className="report review" data-testid="review-body">
      <h2 className="modal-title">Review the change to {tool.displayName || tool.slug}</h2>
      {review.isPending && <Loading label="Loading both definitions…" />}
      {review.isError && (
        <p className="notice notice-danger" role="alert">
          {errorMessage(review.error)}
        </p>
      )}
      {data && <Comparison review={data} />}
      {accept.isError && (
        <div className="notice notice-danger" role="alert" data-testid="accept-error">
          {stale ? (
            <>
              <strong>The server changed it again since you opened this review.</strong> Look at the difference below again, then accept.{' '}
            </>
          ) : (
            <>
              <strong>Not accepted.</strong> {errorMessage(accept.error)}
            </>
          )}
        </div>
      )}
      <div className="modal-actions">
        <button type="button" className="btn" onClick={onDone} data-testid="keep-withheld">
          Keep withheld
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={!data?.upstream || !data.changed || accept.isPending}
          onClick={() => {
            if (stale) {
              accept.reset();
              void review.refetch().then((r) => r.data && setShown(r.data));
            } else if (data?.upstream) accept.mutate(data.upstream.hash);
          }}
          data-testid="accept-change"
        >
          {stale ? 'Reload the difference' : accept.isPending ? 'Accepting…' : 'Accept the new definition'}
        </button>
      </div>
    </div>
  );
}

function Comparison({ review }: { review: DefinitionReview }) {
  const up = review.upstream;
  if (!up) return <p className="notice">The server no longer offers {review.name}; there is nothing to accept.</p>;
  const sections = [
    { title: 'Description', before: review.accepted.description, after: up.definition.description ?? '' },
    { title: 'Input schema', before: json(review.accepted.argSchema), after: json(up.definition.inputSchema) },
    { title: 'Output schema', before: json(review.accepted.outputSchema ?? {}), after: json(up.definition.outputSchema ?? {}) },
  ];
  return (
    <>
      <p className="muted">
        Left: what you accepted. Right: what <code>{review.name}</code> says now{review.syncedAt ? ` (synced ${relativeTime(review.syncedAt)})` : ''}.
        {review.accepted.safety !== up.safety && (
          <>
            {' '}
            Safety from its annotations: {SAFETY_LABEL[review.accepted.safety]} → <strong>{SAFETY_LABEL[up.safety]}</strong> (a tool is never made less strict
            than you set it).
          </>
        )}
      </p>
      <GuardAdded review={review} />
      {sections.map((s) => (
        <DiffSection key={s.title} {...s} />
      ))}
    </>
  );
}

/** What the change adds to the definition guard's findings: a rug-pull is named before the diff (docs/guard.md). */
function GuardAdded({ review }: { review: DefinitionReview }) {
  const added = review.guard?.added ?? [];
  if (!added.length) return null;
  const errors = added.some((f) => f.severity === 'error');
  return (
    <section className={`notice ${errors ? 'notice-danger' : 'notice-info'} review-guard`} role="alert" data-testid="review-guard">
      <strong>{errors ? 'This change speaks to the model: it looks like a poisoned definition.' : 'The guard found something new in this change.'}</strong>{' '}
      Agents would read what follows; accept only if you trust it.
      <ul>
        {added.map((f, i) => (
          <li key={i}>
            <Badge tone={f.severity === 'error' ? 'danger' : 'warn'}>{f.class}</Badge> <code>{f.pointer}</code>: {f.message}
            {f.span.text && (
              <>
                {' '}
                <q className="review-guard-span">{f.span.text.length > 200 ? `${f.span.text.slice(0, 199)}…` : f.span.text}</q>
              </>
            )}
            <div className="muted">{f.fix}</div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function DiffSection({ title, before, after }: { title: string; before: string; after: string }) {
  const rows = sideBySide(before, after);
  const changed = rows.some((r) => r.kind !== 'same');
  const slug = title.toLowerCase().replace(/ /g, '-');
  return (
    <section className="review-section" aria-label={title} data-testid={`review-${slug}`}>
      <h3 className="report-heading">
        {title} {changed ? <Badge tone="warn">changed</Badge> : <span className="muted">· unchanged</span>}
      </h3>
      {changed && (
        <div className="side-diff" role="table" aria-label={`${title}: accepted and upstream`}>
          <div role="row" className="side-diff-head">
            <span role="columnheader">Accepted</span>
            <span role="columnheader">Upstream now</span>
          </div>
          {rows.map((r, i) => (
            <div role="row" key={i} className={`side-diff-row is-${r.kind}`}>
              <span role="cell" className={r.left === null ? 'is-blank' : r.kind === 'same' ? '' : 'is-old'}>
                {r.left ?? ''}
              </span>
              <span role="cell" className={r.right === null ? 'is-blank' : r.kind === 'same' ? '' : 'is-new'}>
                {r.right ?? ''}
              </span>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
