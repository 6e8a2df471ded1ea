/**
 * Create or edit a tool. Rules are checked as you type (shared/slug.ts, schema checks,
 * placeholders); what only the core can judge comes back as issues and is shown at its field.
 * Editing uses tools.update guarded by the tool's modifiedAt, so a change made elsewhere in the
 * meantime is reported instead of overwritten. Built-ins open read-only.
 */
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiCallError, errorMessage } from '../api/errors.js';
import { putTool, updateTool } from '../api/operations.js';
import { keys, useBundles, useSchedules, useSecrets, useTool, toolRefOf, type ToolRef } from '../api/queries.js';
import { useToggleTool } from '../api/mutations.js';
import { useNav } from '../app/nav.js';
import { useToast } from '../components/Toasts.js';
import { useConfirm } from '../components/Dialog.js';
import { ErrorState, Loading, Badge } from '../components/States.js';
import { Switch } from '../components/Switch.js';
import { FormErrors, issuesByField } from '../editor/Field.js';
import { EDITOR_TYPES, type ImplDrafts } from '../editor/types/registry.js';
import type { DraftCommon, Errors } from '../editor/types/editor-type.js';
import { CardSettings } from '../editor/CardSettings.js';
import { SaveConflict } from '../editor/SaveConflict.js';
import { argNamesOf, draftFromTool, emptyDraft, localIssues, parsedArgSchema, toToolInput, TOOL_FIELDS, type ToolDraft } from '../editor/draft.js';
import { ScheduleSettings } from '../editor/schedules/ScheduleSettings.js';
import type { PlaceholderContext } from '../editor/TemplateInput.js';
import type { ToolView } from '../../../shared/types.js';
import type { ToolType } from '../../../shared/schemas.js';
import { ArgumentsFieldset, GeneralFieldset, LimitsFieldset } from './tool-editor/ToolFieldsets.js';
import './ToolEditor.css';

const FIELD_OF_DRAFT_KEY: Partial<Record<keyof ToolDraft, string>> = {
  slug: 'slug',
  version: 'version',
  argSchemaText: 'argSchema',
  outputSchemaText: 'outputSchema',
  maxCallsPerMinute: 'limits.maxCallsPerMinute',
  maxOutputBytes: 'limits.maxOutputBytes',
};

/**
 * Whether an impl issue may be shown before the first save attempt: only once the person changed
 * the field it is about (`impl.urlTemplate` after typing in the URL, `impl.auth` after picking an
 * authentication), so a new tool does not open full of complaints about fields not filled in yet.
 * Issues about a group with no field of its own (`impl.sandbox`) show once any impl field changed.
 */
/** The save's guard: the ETag (hash of the file's bytes, so a hand edit that kept modifiedAt counts), modifiedAt when the view has none. */
function ifMatchOf(tool: ToolView): { ifMatch: string } | { ifModifiedAt: string } {
  return tool.etag ? { ifMatch: tool.etag } : { ifModifiedAt: tool.modifiedAt };
}

function implTouched(field: string, dirty: ReadonlySet<string>, implDraft: object): boolean {
  if (!field.startsWith('impl.')) return false;
  const touched = [...dirty].filter((d) => d.startsWith('impl.'));
  if (touched.some((d) => d.startsWith(field) || field.startsWith(d))) return true;
  const ownField = Object.keys(implDraft).some((k) => `impl.${k}`.startsWith(field));
  return !ownField && touched.length > 0;
}

/** The form of the draft's type, from the registry; each type keeps its own draft. */
function ImplEditor<T extends ToolType>(props: {
  type: T;
  impls: ImplDrafts;
  onImpls(impls: ImplDrafts, patch: Record<string, unknown>): void;
  common: DraftCommon;
  onCommon(patch: Partial<DraftCommon>): void;
  ctx: PlaceholderContext;
  errors: Errors;
  readOnly: boolean;
  owner: { bundleID: string; toolID?: string };
  tool: ToolView | undefined;
}) {
  const { type, impls, onImpls } = props;
  const Editor = EDITOR_TYPES[type].Editor;
  const value = impls[type];
  return (
    <Editor
      value={value}
      onChange={(patch) => onImpls({ ...impls, [type]: { ...value, ...patch } }, patch)}
      common={props.common}
      onCommon={props.onCommon}
      ctx={props.ctx}
      errors={props.errors}
      readOnly={props.readOnly}
      owner={props.owner}
      tool={props.tool}
    />
  );
}

function EditorForm({ bundleID, tool: opened }: { bundleID: string; tool?: ToolView }) {
  // The version the edit started from: its modifiedAt guards the save, so a refetch (live
  // update) must not silently move it forward.
  const [tool, setBase] = useState(opened);
  const { go, replace, back } = useNav();
  const qc = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const secrets = useSecrets();
  const toggle = useToggleTool();
  const readOnly = !!tool?.isBuiltIn;
  const [draft, setDraft] = useState<ToolDraft>(() => (tool ? draftFromTool(tool) : emptyDraft()));
  const [dirty, setDirty] = useState<Set<string>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const [serverError, setServerError] = useState<ApiCallError | null>(null);

  const update = useCallback(<K extends keyof ToolDraft>(key: K, value: ToolDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setDirty((s) => new Set(s).add(FIELD_OF_DRAFT_KEY[key] ?? String(key)));
  }, []);

  const local = useMemo(() => localIssues(draft), [draft]);
  const server = useMemo(() => issuesByField(serverError?.issues ?? [], TOOL_FIELDS), [serverError]);
  const errors = useMemo(() => {
    const m = new Map<string, string>();
    for (const [f, msg] of local) if (attempted || dirty.has(f) || dirty.has(f.split('.')[0]!) || implTouched(f, dirty, draft.impls[draft.type])) m.set(f, msg);
    for (const [f, msg] of server) if (!m.has(f)) m.set(f, msg);
    return m;
  }, [local, server, attempted, dirty, draft.impls, draft.type]);

  const runs = useSchedules(tool?.toolID ?? null);
  const argSchema = useMemo(() => parsedArgSchema(draft), [draft.argSchemaText]); // eslint-disable-line react-hooks/exhaustive-deps
  const scheduleErrors = useMemo(() => new Map([...errors].filter(([f]) => f.startsWith('schedules['))), [errors]);

  const ctx: PlaceholderContext = useMemo(() => ({ args: argNamesOf(draft), secrets: secrets.data?.items.map((s) => s.name) }), [draft, secrets.data]);

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
    const target =
      document.querySelector<HTMLElement>('.editor .has-error input, .editor .has-error textarea, .editor .has-error select, .editor .has-error .cm-content') ??
      document.querySelector<HTMLElement>('[data-testid="form-alert"]');
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
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('.has-error input, .has-error textarea, .has-error select, .has-error .cm-content')?.focus(),
      );
      return;
    }
    save.mutate(undefined);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A build file's editor handles its own Ctrl+S (saves the file) and marks the event handled.
      if (e.defaultPrevented) return;
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        submit();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const cancel = async () => {
    if (dirty.size > 0 && !readOnly) {
      const ok = await confirm({ title: 'Discard changes?', message: 'Your edits to this tool have not been saved.', confirmLabel: 'Discard', danger: true });
      if (!ok) return;
    }
    if (tool) go({ name: 'tool', ref: toolRefOf(tool) });
    else back();
  };

  const modifiedElsewhere = serverError?.code === 'MODIFIED_ELSEWHERE';

  return (
    <form className="form editor" onSubmit={submit} noValidate data-testid="tool-form">
      {readOnly && (
        <div className="notice notice-info" data-testid="builtin-readonly">
          <strong>Built-in tool — read-only.</strong> Built-ins ship with the app and cannot be edited; you can only switch them on or off.
          <Switch
            checked={opened!.isEnabled}
            showLabel
            label="Enabled"
            text={opened!.isEnabled ? 'Enabled' : 'Disabled'}
            onChange={(v) => toggle.mutate({ tool: opened!, isEnabled: v })}
            testId="builtin-enable"
          />
        </div>
      )}
      {modifiedElsewhere && tool ? (
        <SaveConflict
          base={tool}
          draft={draft}
          canSend={local.size === 0}
          onMerged={(merged, fresh) => {
            qc.setQueryData(keys.tool(toolRefOf(fresh)), fresh);
            setBase(fresh);
            setDraft(merged);
            setDirty((d) => new Set(d).add('merged'));
            setServerError(null);
            toast.show('info', 'Merged with the version saved elsewhere: review, then Save');
            requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="tool-save"]')?.focus());
          }}
          onOverwrite={(fresh) => save.mutate(fresh)}
          onDiscard={(fresh) => {
            qc.setQueryData(keys.tool(toolRefOf(fresh)), fresh);
            setBase(fresh);
            setDraft(draftFromTool(fresh));
            setDirty(new Set());
            setServerError(null);
          }}
        />
      ) : (
        <FormErrors error={serverError} shownFields={TOOL_FIELDS} />
      )}

      <GeneralFieldset draft={draft} update={update} errors={errors} readOnly={readOnly} isNew={!tool} />

      <ArgumentsFieldset draft={draft} update={update} serverErrors={server} readOnly={readOnly} />

      <ImplEditor
        type={draft.type}
        impls={draft.impls}
        onImpls={(impls, patch) => {
          setDraft((d) => ({ ...d, impls }));
          setDirty((set) => {
            const next = new Set(set).add('impls');
            for (const key of Object.keys(patch)) next.add(`impl.${key}`);
            return next;
          });
        }}
        common={draft}
        onCommon={(patch) => {
          setDraft((d) => ({ ...d, ...patch }));
          setDirty((set) => {
            const next = new Set(set);
            for (const key of Object.keys(patch) as (keyof DraftCommon)[]) next.add(FIELD_OF_DRAFT_KEY[key] ?? key);
            return next;
          });
        }}
        ctx={ctx}
        errors={errors}
        readOnly={readOnly}
        owner={{ bundleID, ...(tool ? { toolID: tool.toolID } : {}) }}
        tool={tool}
      />

      <CardSettings
        card={draft.card}
        onChange={(p) => update('card', { ...draft.card, ...p })}
        ctx={ctx}
        argSchemaText={draft.argSchemaText}
        errors={errors}
        readOnly={readOnly}
      />

      <LimitsFieldset draft={draft} update={update} errors={errors} readOnly={readOnly} />

      <ScheduleSettings
        schedules={draft.schedules}
        onChange={(schedules) => update('schedules', schedules)}
        argSchema={argSchema}
        privileged={draft.safety === 'privileged'}
        readOnly={readOnly}
        issues={scheduleErrors}
        serverIssues={serverError?.issues ?? []}
        runs={tool ? runs.data : []}
      />

      <div className="editor-footer">
        <span className="muted" aria-live="polite">
          {readOnly
            ? 'Read-only'
            : local.size > 0 && attempted
              ? `${local.size} field${local.size === 1 ? '' : 's'} to fix`
              : dirty.size > 0
                ? 'Unsaved changes'
                : ''}
        </span>
        <div className="spacer" />
        <button type="button" className="btn" onClick={() => void cancel()}>
          {readOnly ? 'Close' : 'Cancel'}
        </button>
        {!readOnly && (
          <button type="submit" className="btn btn-primary" disabled={save.isPending} data-testid="tool-save" title="Ctrl+S">
            {save.isPending ? 'Saving…' : tool ? 'Save' : 'Create tool'}
          </button>
        )}
      </div>
    </form>
  );
}

export function ToolEditorScreen({ bundleID, toolRef }: { bundleID?: string; toolRef?: ToolRef }) {
  const tool = useTool(toolRef ?? null);
  const bundles = useBundles('exclude');
  const owner = bundles.data?.find((b) => b.bundleID === (toolRef?.bundleID ?? bundleID));
  if (toolRef && tool.isPending) return <Loading label="Loading tool…" />;
  if (toolRef && tool.isError) return <ErrorState error={tool.error} retry={() => void tool.refetch()} />;
  const t = tool.data;
  return (
    <section className="page" aria-labelledby="tool-editor-title">
      <header className="page-header">
        <div className="page-title-row">
          <h1 className="page-title" id="tool-editor-title">
            {t ? (t.isBuiltIn ? t.displayName || t.slug : `Edit ${t.displayName || t.slug}`) : 'New tool'}
          </h1>
          {t?.isBuiltIn && <Badge tone="info">built-in</Badge>}
          {owner && <span className="muted">in {owner.displayName || owner.slug}</span>}
        </div>
      </header>
      <EditorForm key={t ? t.toolID : 'new'} bundleID={(toolRef?.bundleID ?? bundleID)!} tool={t} />
    </section>
  );
}
