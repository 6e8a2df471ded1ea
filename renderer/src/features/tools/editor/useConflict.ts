/**
 * A save that met a newer version saved elsewhere (MODIFIED_ELSEWHERE): the person merges the two,
 * overwrites the newer one, or discards their edits. Merging and discarding both move the edit's
 * base to the newer version, so the next save is guarded by it.
 */
import { useQueryClient } from '@tanstack/react-query';
import type { ApiCallError } from '../../../api/errors.js';
import { keys, toolRefOf } from '../../../api/queries.js';
import { useToast } from '../../../components/Toasts.js';
import { draftFromTool, type ToolDraft } from './draft.js';
import type { ToolView } from '../../../../../shared/types.js';

export function useConflict(args: {
  serverError: ApiCallError | null;
  clearServerError(): void;
  /** Moves the version the edit started from. */
  rebase(fresh: ToolView): void;
  replaceDraft(next: ToolDraft, unsaved: boolean): void;
  overwrite(fresh: ToolView): void;
}) {
  const { serverError, clearServerError, rebase, replaceDraft, overwrite } = args;
  const qc = useQueryClient();
  const toast = useToast();
  const adopt = (fresh: ToolView) => {
    qc.setQueryData(keys.tool(toolRefOf(fresh)), fresh);
    rebase(fresh);
  };
  return {
    modifiedElsewhere: serverError?.code === 'MODIFIED_ELSEWHERE',
    onMerged: (merged: ToolDraft, fresh: ToolView) => {
      adopt(fresh);
      replaceDraft(merged, true);
      clearServerError();
      toast.show('info', 'Merged with the version saved elsewhere: review, then Save');
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="tool-save"]')?.focus());
    },
    onOverwrite: overwrite,
    onDiscard: (fresh: ToolView) => {
      adopt(fresh);
      replaceDraft(draftFromTool(fresh), false);
      clearServerError();
    },
  };
}
