/**
 * The tool editor's working copy: the draft, which fields the person changed, and the errors to
 * show (a rule broken as you type shows once its field was touched or a save was attempted; an
 * issue the server answered shows at its field).
 */
import { useCallback, useMemo, useState } from 'react';
import type { ApiCallError } from '../../../api/errors.js';
import { issuesByField } from '../../../components/Field.js';
import type { ImplDrafts } from '../../../tool-types/registry.js';
import type { DraftCommon } from '../../../tool-types/editor-type.js';
import { draftFromTool, emptyDraft, TOOL_FIELDS, type ToolDraft } from './draft.js';
import type { ToolView } from '../../../../../shared/types.js';

const FIELD_OF_DRAFT_KEY: Partial<Record<keyof ToolDraft, string>> = {
  slug: 'slug',
  version: 'version',
  argSchemaText: 'argSchema',
  outputSchemaText: 'outputSchema',
  maxCallsPerMinute: 'limits.maxCallsPerMinute',
  maxOutputBytes: 'limits.maxOutputBytes',
};

export function useToolDraft(tool: ToolView | undefined) {
  const [draft, setDraft] = useState<ToolDraft>(() => (tool ? draftFromTool(tool) : emptyDraft()));
  const [dirty, setDirty] = useState<Set<string>>(new Set());

  const update = useCallback(<K extends keyof ToolDraft>(key: K, value: ToolDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setDirty((s) => new Set(s).add(FIELD_OF_DRAFT_KEY[key] ?? String(key)));
  }, []);

  /** A change in the type's own form: `patch` names the impl fields it touched. */
  const updateImpls = useCallback((impls: ImplDrafts, patch: Record<string, unknown>) => {
    setDraft((d) => ({ ...d, impls }));
    setDirty((set) => {
      const next = new Set(set).add('impls');
      for (const key of Object.keys(patch)) next.add(`impl.${key}`);
      return next;
    });
  }, []);

  /** A change a type's form makes to the fields every type has (its safety, its timeout, …). */
  const updateCommon = useCallback((patch: Partial<DraftCommon>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setDirty((set) => {
      const next = new Set(set);
      for (const key of Object.keys(patch) as (keyof DraftCommon)[]) next.add(FIELD_OF_DRAFT_KEY[key] ?? key);
      return next;
    });
  }, []);

  /** The whole draft replaced: a merge stays marked as changed (it is not saved yet), a discard starts clean. */
  const replaceDraft = useCallback((next: ToolDraft, unsaved: boolean) => {
    setDraft(next);
    setDirty((d) => (unsaved ? new Set(d).add('merged') : new Set()));
  }, []);

  return { draft, dirty, update, updateImpls, updateCommon, replaceDraft };
}

/**
 * Whether an impl issue may be shown before the first save attempt: only once the person changed
 * the field it is about (`impl.urlTemplate` after typing in the URL, `impl.auth` after picking an
 * authentication), so a new tool does not open full of complaints about fields not filled in yet.
 * Issues about a group with no field of its own (`impl.sandbox`) show once any impl field changed.
 */
function implTouched(field: string, dirty: ReadonlySet<string>, implDraft: object): boolean {
  if (!field.startsWith('impl.')) return false;
  const touched = [...dirty].filter((d) => d.startsWith('impl.'));
  if (touched.some((d) => d.startsWith(field) || field.startsWith(d))) return true;
  const ownField = Object.keys(implDraft).some((k) => `impl.${k}`.startsWith(field));
  return !ownField && touched.length > 0;
}

/** The errors to show, by field: `local` are the draft's own (localIssues), the server's come from its last answer. */
export function useFieldErrors(args: {
  draft: ToolDraft;
  dirty: ReadonlySet<string>;
  local: ReadonlyMap<string, string>;
  attempted: boolean;
  serverError: ApiCallError | null;
}) {
  const { draft, dirty, local, attempted, serverError } = args;
  const server = useMemo(() => issuesByField(serverError?.issues ?? [], TOOL_FIELDS), [serverError]);
  const errors = useMemo(() => {
    const m = new Map<string, string>();
    for (const [f, msg] of local) if (attempted || dirty.has(f) || dirty.has(f.split('.')[0]!) || implTouched(f, dirty, draft.impls[draft.type])) m.set(f, msg);
    for (const [f, msg] of server) if (!m.has(f)) m.set(f, msg);
    return m;
  }, [local, server, attempted, dirty, draft.impls, draft.type]);
  return { server, errors };
}
