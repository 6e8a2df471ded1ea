/**
 * Saving the tool editor's draft: a new tool is put, an edited one updated guarded by the version
 * the edit started from, so a change made elsewhere in the meantime comes back as
 * MODIFIED_ELSEWHERE instead of being overwritten. The draft's own errors stop the save and take
 * the person to the first; the server's issues do the same once it answers.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiCallError, errorMessage } from '../../../api/errors.js';
import { putTool, updateTool } from '../../../api/operations.js';
import { keys, toolRefOf } from '../../../api/queries.js';
import { useNav } from '../../../lib/nav.js';
import { useToast } from '../../../components/Toasts.js';
import { EDITOR_TYPES } from '../../../tool-types/registry.js';
import { toToolInput, type ToolDraft } from './draft.js';
import type { ToolView } from '../../../../../shared/types.js';

/** The save's guard: the ETag (hash of the file's bytes, so a hand edit that kept modifiedAt counts), modifiedAt when the view has none. */
function ifMatchOf(tool: ToolView): { ifMatch: string } | { ifModifiedAt: string } {
  return tool.etag ? { ifMatch: tool.etag } : { ifModifiedAt: tool.modifiedAt };
}

const FIRST_FIELD_IN_ERROR = '.has-error input, .has-error textarea, .has-error select, .has-error .cm-content';
const FIRST_EDITOR_FIELD_IN_ERROR = '.editor .has-error input, .editor .has-error textarea, .editor .has-error select, .editor .has-error .cm-content';

export function useToolSave(args: { bundleID: string; tool: ToolView | undefined; draft: ToolDraft; local: ReadonlyMap<string, string>; readOnly: boolean }) {
  const { bundleID, tool, draft, local, readOnly } = args;
  const { replace } = useNav();
  const qc = useQueryClient();
  const toast = useToast();
  const [attempted, setAttempted] = useState(false);
  const [serverError, setServerError] = useState<ApiCallError | null>(null);

  const save = useMutation({
    // `over`: the newer version a person chose to overwrite after a conflict.
    mutationFn: (over?: ToolView) => {
      const input = toToolInput(draft);
      return tool
        ? updateTool({ ...toolRefOf(tool), tool: input, ...ifMatchOf(over ?? tool) })
        : putTool({ bundleID, slug: input.slug!, version: input.version!, tool: input });
    },
    onSuccess: (saved) => {
      toast.show('success', `${tool ? 'Saved' : 'Created'} ${saved.displayName || saved.slug}`);
      void qc.invalidateQueries({ queryKey: keys.tools });
      void qc.invalidateQueries({ queryKey: keys.bundles });
      qc.setQueryData(keys.tool(toolRefOf(saved)), saved);
      // A new tool whose type needs files next (a container built from its folder) stays in the editor, on its files.
      const writeFilesNext = !tool && (EDITOR_TYPES[saved.type].writeFilesAfterCreate?.(saved.impl) ?? false);
      replace({ name: writeFilesNext ? 'toolEdit' : 'tool', ref: toolRefOf(saved) });
    },
    onError: (e) => {
      if (e instanceof ApiCallError) setServerError(e);
      else toast.show('error', errorMessage(e));
    },
  });

  // After the server answers with issues, take the person to the first field it complains about.
  useEffect(() => {
    if (!serverError) return;
    const target = document.querySelector<HTMLElement>(FIRST_EDITOR_FIELD_IN_ERROR) ?? document.querySelector<HTMLElement>('[data-testid="form-alert"]');
    target?.scrollIntoView({ block: 'center' });
    target?.focus({ preventScroll: true });
  }, [serverError]);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (readOnly) return;
    setAttempted(true);
    setServerError(null);
    if (local.size > 0) {
      toast.show('error', `Fix ${local.size === 1 ? 'the highlighted field' : `${local.size} highlighted fields`} before saving`);
      requestAnimationFrame(() => document.querySelector<HTMLElement>(FIRST_FIELD_IN_ERROR)?.focus());
      return;
    }
    save.mutate(undefined);
  };

  return {
    submit,
    overwrite: (fresh: ToolView) => save.mutate(fresh),
    saving: save.isPending,
    attempted,
    serverError,
    clearServerError: () => setServerError(null),
  };
}
