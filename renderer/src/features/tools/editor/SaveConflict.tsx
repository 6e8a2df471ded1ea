/**
 * What the tool editor offers when a save meets a newer file (MODIFIED_ELSEWHERE, HTTP 412):
 * merge the edit onto the newer version (three-way, merge.ts; values both sides changed are
 * shown side by side to choose from), overwrite the newer version after a confirmation, or
 * discard the edit. The banner says once what happened and what changed on each side.
 */
import { useId, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../../../api/errors.js';
import { getTool } from '../../../api/operations.js';
import { keys, toolRefOf } from '../../../api/queries.js';
import { Modal, useConfirm } from '../../../components/Dialog.js';
import { absoluteTime, relativeTime } from '../../../lib/format.js';
import type { ToolView } from '../../../../../shared/types.js';
import type { ToolInput } from '../../../../../shared/operations.js';
import { draftFromTool, toToolInput, type ToolDraft } from './draft.js';
import { changedKeys, pathKey, resolveConflicts, threeWayMerge, type Json, type MergeConflict, type MergeResult } from './merge.js';
import './SaveConflict.css';

const FIELD_LABELS: Record<string, string> = {
  slug: 'slug',
  version: 'version',
  displayName: 'display name',
  description: 'description',
  tags: 'tags',
  type: 'type',
  safety: 'safety',
  isEnabled: 'on/off switch',
  argSchema: 'argument schema',
  outputSchema: 'output schema',
  impl: 'implementation',
  card: 'card',
  limits: 'limits',
};

export function fieldLabel(path: readonly string[]): string {
  const [head, ...rest] = path;
  const first = FIELD_LABELS[head ?? ''] ?? head ?? 'the whole tool';
  const label = first.charAt(0).toUpperCase() + first.slice(1);
  return rest.length ? `${label} › ${rest.join(' › ')}` : label;
}

const listOf = (fields: string[]) => fields.map((f) => FIELD_LABELS[f] ?? f).join(', ');

/** The tool as the editor would send it, so the three sides compare like with like. */
const inputOf = (tool: ToolView): Json => toToolInput(draftFromTool(tool)) as unknown as Json;

/** The merge of my draft onto `fresh`, from `base`; null when the draft cannot be sent yet. */
export function mergeDraft(base: ToolView, fresh: ToolView, draft: ToolDraft): MergeResult | null {
  let mine: Json;
  try {
    mine = toToolInput(draft) as unknown as Json;
  } catch {
    return null;
  }
  return threeWayMerge(inputOf(base), mine, inputOf(fresh));
}

/** A draft of the merged tool, on top of the newer file. */
export function draftOfMerge(fresh: ToolView, merged: Json | undefined): ToolDraft {
  return draftFromTool({ ...fresh, ...(merged as unknown as ToolInput) } as ToolView);
}

function Value({ value }: { value: Json | undefined }) {
  if (value === undefined) return <em className="muted">(not set)</em>;
  return <pre className="code-block merge-value">{typeof value === 'string' ? value : JSON.stringify(value, null, 2)}</pre>;
}

function MergeDialog({
  conflicts,
  onApply,
  onCancel,
}: {
  conflicts: MergeConflict[];
  onApply(choices: Map<string, 'mine' | 'theirs'>): void;
  onCancel(): void;
}) {
  const [choices, setChoices] = useState(() => new Map<string, 'mine' | 'theirs'>());
  const group = useId();
  return (
    <Modal open onClose={onCancel} title="Merge your edits" className="modal-wide" testId="merge-dialog">
      {/* Not a <form>: the dialog is opened from inside the editor's form, and forms do not nest. */}
      <div className="report">
        <h2 className="modal-title">
          {conflicts.length === 1 ? 'One value was changed here and elsewhere' : `${conflicts.length} values were changed here and elsewhere`}
        </h2>
        <p className="muted">
          Everything else is merged: what only you changed keeps your edit, what only changed elsewhere takes the newer value. Choose per value:
        </p>
        <ol className="merge-list">
          {conflicts.map((c, i) => {
            const key = pathKey(c.path);
            const choice = choices.get(key) ?? 'mine';
            const pick = (v: 'mine' | 'theirs') => setChoices((m) => new Map(m).set(key, v));
            return (
              <li key={key} className="merge-item" data-testid="merge-conflict">
                <fieldset className="merge-choice">
                  <legend className="field-label">{fieldLabel(c.path)}</legend>
                  <div className="merge-sides">
                    <label className={`merge-side${choice === 'mine' ? ' is-chosen' : ''}`}>
                      <span className="merge-side-head">
                        <input type="radio" name={`${group}-${i}`} checked={choice === 'mine'} onChange={() => pick('mine')} data-testid="merge-mine" /> Yours
                      </span>
                      <Value value={c.mine} />
                    </label>
                    <label className={`merge-side${choice === 'theirs' ? ' is-chosen' : ''}`}>
                      <span className="merge-side-head">
                        <input type="radio" name={`${group}-${i}`} checked={choice === 'theirs'} onChange={() => pick('theirs')} data-testid="merge-theirs" />{' '}
                        Saved elsewhere
                      </span>
                      <Value value={c.theirs} />
                    </label>
                  </div>
                </fieldset>
              </li>
            );
          })}
        </ol>
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={() => onApply(choices)} data-testid="merge-apply" data-autofocus>
            Apply merge
          </button>
        </div>
      </div>
    </Modal>
  );
}

export function SaveConflict({
  base,
  draft,
  canSend,
  onMerged,
  onOverwrite,
  onDiscard,
}: {
  /** The version the edit started from. */
  base: ToolView;
  draft: ToolDraft;
  /** False while the draft has problems to fix (it could not be merged or saved). */
  canSend: boolean;
  onMerged(draft: ToolDraft, fresh: ToolView): void;
  onOverwrite(fresh: ToolView): void;
  onDiscard(fresh: ToolView): void;
}) {
  const confirm = useConfirm();
  const ref = toolRefOf(base);
  const fresh = useQuery({ queryKey: [...keys.tool(ref), 'newer-than', base.modifiedAt], queryFn: () => getTool(ref), staleTime: 0 });
  const [merging, setMerging] = useState<MergeResult | null>(null);
  const newer = fresh.data;
  const summary = useMemo(() => {
    if (!newer) return null;
    let mine: Json | undefined;
    try {
      mine = toToolInput(draft) as unknown as Json;
    } catch {
      mine = undefined;
    }
    const there = changedKeys(inputOf(base), inputOf(newer));
    const here = mine === undefined ? [] : changedKeys(inputOf(base), mine);
    return { there, here };
  }, [base, newer, draft]);

  const merge = () => {
    if (!newer) return;
    const result = mergeDraft(base, newer, draft);
    if (!result) return;
    if (result.conflicts.length) setMerging(result);
    else onMerged(draftOfMerge(newer, result.merged), newer);
  };

  const overwrite = async () => {
    if (!newer) return;
    const ok = await confirm({
      title: 'Overwrite the newer version?',
      message: (
        <p>
          What was saved elsewhere {newer.modifiedAt ? `at ${absoluteTime(newer.modifiedAt)}` : ''}
          {summary?.there.length ? ` (${listOf(summary.there)})` : ''} is replaced by your version. This cannot be undone.
        </p>
      ),
      confirmLabel: 'Overwrite',
      danger: true,
    });
    if (ok) onOverwrite(newer);
  };

  return (
    <div className="form-alert conflict-banner" role="alert" tabIndex={-1} data-testid="form-alert">
      <strong>This tool was saved elsewhere while you were editing it</strong>
      {newer ? (
        <>
          {' '}
          (<span title={absoluteTime(newer.modifiedAt)}>{relativeTime(newer.modifiedAt)}</span>), so your save was held back.
          {summary && (
            <ul className="conflict-summary" data-testid="conflict-summary">
              <li>Changed there: {summary.there.length ? listOf(summary.there) : 'nothing the editor shows (only its timestamp)'}</li>
              <li>Changed here: {summary.here.length ? listOf(summary.here) : 'nothing'}</li>
            </ul>
          )}
        </>
      ) : fresh.isError ? (
        <p>The newer version could not be read: {errorMessage(fresh.error)} (deleted or renamed elsewhere?).</p>
      ) : (
        <p className="muted">Reading the newer version…</p>
      )}
      <div className="form-actions-inline">
        <button
          type="button"
          className="btn btn-primary"
          onClick={merge}
          disabled={!newer || !canSend}
          title={canSend ? 'Your edits on top of the newer version; you choose where both changed the same value' : 'Fix the highlighted fields first'}
          data-testid="conflict-merge"
        >
          Merge my edits
        </button>
        <button type="button" className="btn btn-danger-quiet" onClick={() => void overwrite()} disabled={!newer || !canSend} data-testid="conflict-overwrite">
          Overwrite theirs…
        </button>
        <button type="button" className="btn" onClick={() => newer && onDiscard(newer)} disabled={!newer} data-testid="conflict-discard">
          Discard my edits
        </button>
      </div>
      {merging &&
        newer &&
        createPortal(
          <MergeDialog
            conflicts={merging.conflicts}
            onCancel={() => setMerging(null)}
            onApply={(choices) => {
              setMerging(null);
              onMerged(draftOfMerge(newer, resolveConflicts(merging, choices)), newer);
            }}
          />,
          document.body,
        )}
    </div>
  );
}
